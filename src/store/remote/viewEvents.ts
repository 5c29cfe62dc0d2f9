/**
 * One event stream per page (issue 14): every part of the page that follows the `view` server
 * (the run's `files`, the `annotations`) subscribes here, and they share one EventSource per
 * session. The stream opens with the first subscriber and closes with the last.
 *
 * `open` is called on every (re)connect of the shared stream, with the annotations version of
 * the server's `hello`; a subscriber that joins a stream already open is not told of the past
 * `hello`, so it reads the state it needs itself (as it would on any start).
 */
import { openViewEvents, type ViewEventHandlers, type ViewSession } from "./viewSession.ts";

/** What opens a stream: openViewEvents, or a test's stand-in. */
export type ViewEventsOpener = (session: ViewSession, handlers: ViewEventHandlers) => () => void;

interface Shared {
  readonly subscribers: Set<ViewEventHandlers>;
  close: () => void;
}

const streams = new Map<string, Shared>();

const keyOf = (session: ViewSession): string => `${session.origin} ${session.token}`;

/** Handlers that pass every event on to each subscriber of one stream. */
function fanOut(subscribers: ReadonlySet<ViewEventHandlers>): ViewEventHandlers {
  const each = (call: (h: ViewEventHandlers) => void): void => {
    for (const h of [...subscribers]) call(h);
  };
  return {
    files: (event) => each((h) => h.files?.(event)),
    annotations: (version) => each((h) => h.annotations?.(version)),
    team: (event) => each((h) => h.team?.(event)),
    open: (version) => each((h) => h.open?.(version)),
    error: () => each((h) => h.error?.()),
  };
}

/**
 * Listen to the session's event stream, sharing the page's one EventSource; returns the
 * function that unsubscribes (the stream closes with its last subscriber).
 */
export function subscribeViewEvents(
  session: ViewSession,
  handlers: ViewEventHandlers,
  open: ViewEventsOpener = openViewEvents,
): () => void {
  const key = keyOf(session);
  let shared = streams.get(key);
  if (shared === undefined) {
    const subscribers = new Set<ViewEventHandlers>();
    shared = { subscribers, close: () => undefined };
    streams.set(key, shared);
    shared.close = open(session, fanOut(subscribers));
  }
  const mine = shared;
  // A handlers object of its own, so the same one subscribed twice is two subscriptions.
  const entry: ViewEventHandlers = { ...handlers };
  mine.subscribers.add(entry);
  return () => {
    if (!mine.subscribers.delete(entry) || mine.subscribers.size > 0) return;
    if (streams.get(key) === mine) streams.delete(key);
    mine.close();
  };
}

/** How many streams are open (tests). */
export function viewEventStreams(): number {
  return streams.size;
}
