/**
 * The server-sent events of `GET /api/events`: one hub that the file watcher (live.ts) and the
 * annotations route publish to, and every open event stream listens on. README.md beside this
 * file describes each event.
 */
import type { StepSource } from "../io/index.ts";
import type { TeamEvent } from "../io/view/teamApi.ts";
import type { FileChange } from "./fileChanges.ts";
import type { StoreUser } from "./team/types.ts";

/** A `files` event: one file appeared, changed or went. */
export interface FilesEventData extends FileChange {
  /** Its path under its root, as `/api/runs` lists it. */
  readonly path: string;
  /** Index of its root in `/api/runs`'s roots. */
  readonly root: number;
  /** Its run's folder (relative to the root), and its step there; null for a removed file no run holds. */
  readonly run: string | null;
  readonly step: number | null;
  readonly stepSource: StepSource | null;
}

export type ServerEvent =
  | { readonly event: "files"; readonly data: FilesEventData }
  | {
      readonly event: "annotations";
      readonly data: { readonly version: string };
      /**
       * Team mode (`view --db`): whose annotations changed (the store's id of the person); only
       * that person's streams are told. Never sent to the client.
       */
      readonly user?: string;
    }
  | {
      /** Team mode: something changed in the team store (io/view/teamApi.ts's teamEventSchema). */
      readonly event: "team";
      readonly data: TeamEvent;
      /**
       * The annotators (by name) whose streams are told besides every lead's: the writer of
       * their own annotations or submission, a queue's assignees; none for the gold. Never
       * sent to the client.
       */
      readonly annotators: readonly string[];
    };

/**
 * Whether a stream hears of an event. `listener`: the person whose stream it is in team mode,
 * undefined in the file mode (one person: every event). In team mode a person hears of their own
 * annotations only, a lead of every `team` event, an annotator of the `team` events naming them.
 */
export function eventReaches(event: ServerEvent, listener: StoreUser | undefined): boolean {
  if (event.event === "files") return true;
  if (event.event === "annotations") return event.user === undefined || event.user === listener?.id;
  if (listener === undefined) return false;
  return listener.role === "lead" || event.annotators.includes(listener.name);
}

type Listener = (event: ServerEvent) => void;

export class EventHub {
  private readonly listeners = new Set<Listener>();
  private readonly closers = new Set<() => void>();

  /** Listen; returns the function that stops listening. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: ServerEvent): void {
    for (const l of [...this.listeners]) l(event);
  }

  /** Register a stream to end when the server closes; returns the function that unregisters it. */
  onClose(close: () => void): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  /** End every open stream (the server is shutting down). */
  close(): void {
    for (const c of [...this.closers]) c();
    this.closers.clear();
  }
}
