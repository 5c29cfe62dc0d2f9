/**
 * Test fixture for the view server in team mode: the app of `view RUN --db` on a one-file run,
 * called through `app.request()` with a person's token, and its event streams read as text. Not
 * shipped: only *.test.ts files import it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allowedHosts } from "../server/access.ts";
import { AnnotationsStore } from "../server/annotationsStore.ts";
import { createApp } from "../server/app.ts";
import { catalogRoots, catalogScan } from "../server/catalog.ts";
import { EventHub } from "../server/events.ts";
import { studioLoad } from "../server/studioFiles.ts";
import type { TeamStore } from "../server/team/types.ts";

const HOST = "127.0.0.1:7575";

/** One request: method, path, and optionally a JSON body and an If-Match version. */
export interface TeamCall {
  readonly method?: string;
  readonly body?: unknown;
  readonly ifMatch?: string;
}

/** An open `GET /api/events` stream, its text so far. */
export interface EventsReader {
  /** Read until the text holds `needle` (or the stream ends); the whole text so far. */
  until(needle: string): Promise<string>;
  cancel(): Promise<void>;
}

/** Read an open `GET /api/events` response; resolves once its `hello` has come. */
export async function eventsReader(res: Response): Promise<EventsReader> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const until = async (needle: string) => {
    while (!text.includes(needle)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    return text;
  };
  await until("event: hello");
  return { until, cancel: () => reader.cancel() };
}

export interface TeamServer {
  readonly app: ReturnType<typeof createApp>;
  readonly hub: EventHub;
  /** A request with this token (null: none) as a Bearer header. */
  call(token: string | null, path: string, call?: TeamCall): Promise<Response>;
  /** Open the event stream as this person and wait for its `hello`. */
  events(token: string): Promise<EventsReader>;
  close(): void;
}

/**
 * The app over a one-file run. `team`: the store (team mode), or null for the file mode with
 * `sessionToken`.
 */
export async function teamServer(
  team: TeamStore | null,
  sessionToken: string | null = null,
): Promise<TeamServer> {
  const base = mkdtempSync(join(tmpdir(), "view-team-api-"));
  const runDir = join(base, "run");
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, "steps.jsonl"), '{"prompt":"p","completion":"a","reward":1}\n');
  mkdirSync(join(base, "studio"));
  writeFileSync(
    join(base, "studio", "index.html"),
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="script-src 'self'" /></head><body></body></html>`,
  );
  const catalog = await catalogScan(await catalogRoots([runDir], base));
  const hub = new EventHub();
  const app = createApp({
    catalog: () => catalog,
    annotations: new AnnotationsStore(join(runDir, ".rollout-studio")),
    studio: await studioLoad(join(base, "studio")),
    token: sessionToken,
    allowedHosts: () => allowedHosts("127.0.0.1", 7575, []),
    events: hub,
    version: "9.9.9",
    format: null,
    pingMs: 50,
    team,
  });
  const call = async (token: string | null, path: string, c: TeamCall = {}): Promise<Response> =>
    app.request(path, {
      method: c.method ?? "GET",
      ...(c.body === undefined ? {} : { body: JSON.stringify(c.body) }),
      headers: {
        host: HOST,
        ...(c.body === undefined ? {} : { "content-type": "application/json" }),
        ...(c.ifMatch === undefined ? {} : { "if-match": `"${c.ifMatch}"` }),
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      },
    });
  const events = async (token: string): Promise<EventsReader> =>
    eventsReader(await call(token, "/api/events"));
  return { app, hub, call, events, close: () => hub.close() };
}
