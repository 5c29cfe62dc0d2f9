/**
 * In view mode (a dataset read from the `rollout-studio view` server, `load.remote`) the server is
 * the annotations' store: `<state dir>/annotations.json`, which the CLI reads with
 * `--annotations`. IndexedDB (annotationsSync.ts) stays the offline copy.
 *
 * - On open: `GET /api/annotations`, merged into the page's (serverMerge.ts `mergeOnOpen`: the
 *   server's wins where the user has not touched a group; what only the offline copy has is
 *   kept, and written). A file that does not validate (422) is shown, and left as it is until the
 *   user changes something.
 * - On every change (debounced, SAVE_DEBOUNCE_MS; at once when the page is hidden): `PUT` of the
 *   whole document with `If-Match` the last version known. A 409 is merged (`mergeRemote`: ours
 *   where the user changed a group since the last sync, else theirs) and written again, at most
 *   MAX_CONFLICTS times in a row. A write that cannot land says so in the save status, with the
 *   offer to export, and is tried again (on the next change, when the stream reopens, and after
 *   a pause).
 * - On an `annotations` event of another version: `GET` and merge theirs in, so a second tab sees
 *   the first one's ranking within about a second.
 *
 * One server operation at a time (`drain`), so an event that arrives while a write is under way
 * waits for its reply: the write's own event then names the version it got, and nothing is read.
 */
import type { Annotations } from "../../core/index.ts";
import type { ViewEventsOpener } from "../remote/viewEvents.ts";
import type { RemoteRun, ViewEventHandlers } from "../remote/viewSession.ts";
import type * as LinkModuleNs from "./serverLink.ts";
import { absorbChange } from "./serverMerge.ts";

type LinkModule = typeof LinkModuleNs;

export type ServerSaveState =
  | { readonly status: "off" }
  /** The server's file is being read (the page just opened). */
  | { readonly status: "reading"; readonly path: string }
  | {
      readonly status: "saved";
      readonly path: string;
      /** A change not on the server yet (waiting for the debounce, or being written). */
      readonly pending: boolean;
    }
  /** The file on disk does not validate: left as it is until the user changes something. */
  | { readonly status: "invalid"; readonly path: string; readonly message: string }
  | { readonly status: "error"; readonly path: string; readonly message: string };

export interface ServerSyncedState {
  readonly load:
    { readonly status: "ready"; readonly remote?: RemoteRun } | { readonly status: string };
  readonly annotations: Annotations;
}

export interface ServerSyncedStore {
  getState(): ServerSyncedState;
  setState(partial: Pick<ServerSyncedState, "annotations">): void;
  subscribe(listener: (state: ServerSyncedState, previous: ServerSyncedState) => void): () => void;
}

export interface ServerStatusStore {
  getState(): { readonly server: ServerSaveState };
  setState(partial: { readonly server: ServerSaveState }): void;
}

export interface ServerAnnotationsOptions {
  /** True while annotationsSync applies the offline copy (its changes are not the user's). */
  readonly restoring?: () => boolean;
  /** Where the event stream comes from: the page's shared one by default (viewEvents.ts). */
  readonly subscribe?: (
    session: RemoteRun["session"],
    handlers: ViewEventHandlers,
    open?: ViewEventsOpener,
  ) => () => void;
  readonly debounceMs?: number;
}

export interface ServerAnnotations {
  /** The server's version this page last synced with; null when not in view mode, or not yet. */
  version(): string | null;
  /** Start a waiting write now; resolves when every change so far has landed, or failed. */
  flush(): Promise<void>;
  stop(): void;
}

export interface Link {
  changed(previous: Annotations, next: Annotations): void;
  flush(): Promise<void>;
  version(): string | null;
  /**
   * Stop following; a change not on the server yet is still written (once, merged if it must
   * be). `last` is the dataset's last annotations: the store may already hold the next one's.
   */
  close(last: Annotations): void;
}

/** What a failure tells the user: what happened, that nothing is lost, what to do. */
export function serverErrorMessage(path: string, detail: string): string {
  return `Annotations could not be saved to ${path} (${detail}). They are kept in this browser; export them now (Export annotations) to keep a copy.`;
}

/**
 * The link module (serverLink.ts) brings the annotations validator (zod): loaded with the first
 * view-mode dataset, not with the first page.
 */
const loadLink = (): Promise<LinkModule> => import("./serverLink.ts");

/** One view session's dataset: its link once loaded, and what happened before. */
interface Opening {
  readonly key: string;
  /** The page's annotations when it opened, with what the offline copy restored since. */
  opened: Annotations;
  link: Link | null;
  closed: boolean;
  readonly ready: Promise<void>;
}

/** Follow `load.remote`: a link per view session's dataset, none otherwise. */
export function startServerAnnotations(
  store: ServerSyncedStore,
  status: ServerStatusStore,
  options: ServerAnnotationsOptions = {},
): ServerAnnotations {
  const restoring = options.restoring ?? (() => false);
  let current: Opening | null = null;

  const remoteOf = (state: ServerSyncedState): RemoteRun | null =>
    state.load.status === "ready" && "remote" in state.load ? (state.load.remote ?? null) : null;

  const open = (key: string, remote: RemoteRun, annotations: Annotations): Opening => {
    status.setState({ server: { status: "reading", path: remote.listing.annotations.path } });
    const opening: Opening = {
      key,
      opened: annotations,
      link: null,
      closed: false,
      ready: loadLink().then(
        (m) => {
          if (opening.closed) return;
          opening.link = m.startLink(remote, opening.opened, store, status, options);
        },
        (e: unknown) => {
          if (opening.closed) return;
          const path = remote.listing.annotations.path;
          const detail = `the studio's server sync did not load: ${e instanceof Error ? e.message : String(e)}`;
          status.setState({
            server: { status: "error", path, message: serverErrorMessage(path, detail) },
          });
        },
      ),
    };
    return opening;
  };

  const close = (last: Annotations): void => {
    if (current === null) return;
    current.closed = true;
    current.link?.close(last);
    current = null;
  };

  const follow = (state: ServerSyncedState, previous: ServerSyncedState): void => {
    const remote = remoteOf(state);
    const key =
      remote === null
        ? null
        : `${remote.session.origin} ${remote.session.token} ${remote.listing.annotations.path}`;
    if (key === (current?.key ?? null)) return;
    close(previous.annotations);
    if (remote === null || key === null) status.setState({ server: { status: "off" } });
    else current = open(key, remote, state.annotations);
  };

  /** A change of the annotations: the link's, or, before it loaded, a restore to remember. */
  const changed = (opening: Opening, previous: Annotations, next: Annotations): void => {
    if (opening.link !== null) opening.link.changed(previous, next);
    else if (restoring()) opening.opened = absorbChange(opening.opened, previous, next);
  };

  const unsubscribe = store.subscribe((state, previous) => {
    const before = current;
    if (state.load !== previous.load) follow(state, previous);
    // A live-follow update keeps the link: a change in the same update is still the user's.
    if (current !== null && current === before && state.annotations !== previous.annotations)
      changed(current, previous.annotations, state.annotations);
  });
  follow(store.getState(), store.getState());

  return {
    version: () => current?.link?.version() ?? null,
    async flush() {
      const opening = current;
      if (opening === null) return;
      await opening.ready;
      await opening.link?.flush();
    },
    stop() {
      unsubscribe();
      close(store.getState().annotations);
    },
  };
}
