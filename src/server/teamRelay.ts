/**
 * Team mode's events across server processes (issue 18): several `view --db` processes on one
 * database (one per machine, or behind a balancer) each tell the others, through the store's
 * channel (PostgreSQL LISTEN/NOTIFY, team/pgNotify.ts), of the `team` and `annotations` events
 * their routes publish; each publishes what it hears to its own event streams, which pick their
 * audience as for a local write (events.ts, `eventReaches`). A process skips what it sent itself
 * (its own id travels with each message) and what another dataset's server sent. The `files`
 * events stay local: each process watches the files it serves.
 *
 * The message is checked on arrival (zod): anyone who can connect to the database can NOTIFY.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { teamEventSchema } from "../io/view/teamApi.ts";
import type { EventHub, ServerEvent } from "./events.ts";
import { NOTIFY_MAX_BYTES } from "./team/pgNotify.ts";
import type { TeamStore } from "./team/types.ts";

const sender = { origin: z.string(), dataset: z.string() };
const messageSchema = z.discriminatedUnion("event", [
  z.object({
    ...sender,
    event: z.literal("team"),
    data: teamEventSchema,
    annotators: z.array(z.string()),
  }),
  z.object({
    ...sender,
    event: z.literal("annotations"),
    data: z.object({ version: z.string() }),
    user: z.string(),
  }),
]);
type RelayMessage = z.infer<typeof messageSchema>;

export interface TeamRelay {
  /** This process's id on the channel. */
  readonly origin: string;
  /** Stop sending and listening. */
  close(): Promise<void>;
}

/** The message for a local event, or null for one that stays local. */
function messageOf(origin: string, dataset: string, e: ServerEvent): RelayMessage | null {
  if (e.event === "team")
    return { origin, dataset, event: "team", data: e.data, annotators: [...e.annotators] };
  if (e.event === "annotations" && e.user !== undefined)
    return { origin, dataset, event: "annotations", data: e.data, user: e.user };
  return null;
}

/**
 * The message's text, within NOTIFY's limit. A `team` event naming too many annotators goes to
 * the leads only (its list dropped: never to more people than it names); anything still too long
 * is not sent (null).
 */
export function relayText(message: RelayMessage): string | null {
  const fits = (text: string) => Buffer.byteLength(text, "utf8") <= NOTIFY_MAX_BYTES;
  const text = JSON.stringify(message);
  if (fits(text)) return text;
  if (message.event !== "team") return null;
  const leadsOnly = JSON.stringify({ ...message, annotators: [] });
  return fits(leadsOnly) ? leadsOnly : null;
}

/** Relay `store`'s dataset's events between `hub` and the other processes on the database. */
export async function teamRelayStart(
  store: TeamStore,
  hub: EventHub,
  warn: (message: string) => void,
): Promise<TeamRelay> {
  const origin = randomUUID();
  // The events this relay published: not sent back out.
  const heard = new WeakSet<ServerEvent>();
  const stopListening = await store.listen((text) => {
    let raw: unknown;
    try {
      raw = JSON.parse(text) as unknown;
    } catch {
      return;
    }
    const parsed = messageSchema.safeParse(raw);
    if (!parsed.success) return;
    const m = parsed.data;
    if (m.origin === origin || m.dataset !== store.dataset) return;
    const event: ServerEvent =
      m.event === "team"
        ? { event: "team", data: m.data, annotators: m.annotators }
        : { event: "annotations", data: m.data, user: m.user };
    heard.add(event);
    hub.publish(event);
  }, warn);
  let sending: Promise<void> = Promise.resolve();
  const unsubscribe = hub.subscribe((e) => {
    if (heard.has(e)) return;
    const message = messageOf(origin, store.dataset, e);
    if (message === null) return;
    const text = relayText(message);
    if (text === null) {
      warn(`a ${e.event} event is too long to tell the other servers; they do not hear of it`);
      return;
    }
    // One at a time, in the order published: the others hear this process's events in order.
    sending = sending
      .then(() => store.notify(text))
      .catch((error: unknown) => {
        warn(
          `telling the other servers of a ${e.event} event failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
  });
  return {
    origin,
    close: async () => {
      unsubscribe();
      await sending;
      await stopListening();
    },
  };
}
