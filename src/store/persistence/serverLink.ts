/**
 * One view session's annotations sync (serverAnnotations.ts says what and why): the reads, the
 * writes with their conflicts, the events. Loaded with the first view-mode dataset.
 */
import type { Annotations } from "../../core/index.ts";
import { annotationsParse, annotationsToJson } from "../../io/annotations/annotationsFile.ts";
import { formatIssue } from "../../io/issues.ts";
import { subscribeViewEvents } from "../remote/viewEvents.ts";
import { viewApi, viewFetch, type RemoteRun } from "../remote/viewSession.ts";
import {
  serverErrorMessage,
  type Link,
  type ServerAnnotationsOptions,
  type ServerSaveState,
  type ServerStatusStore,
  type ServerSyncedStore,
} from "./serverAnnotations.ts";
import { absorbChange, alignEqual, changedSince, mergeOnOpen, mergeRemote } from "./serverMerge.ts";

/** Changes closer together than this are one write. */
export const SAVE_DEBOUNCE_MS = 200;
/** Conflicts in a row before a write is given up (another writer that keeps changing the file). */
export const MAX_CONFLICTS = 5;
/** The first pause before a failed read or write is tried again; it doubles up to RETRY_MAX_MS. */
export const RETRY_MS = 1000;
export const RETRY_MAX_MS = 30_000;

const ROUTE = "/api/annotations";

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The version an ETag names (`"abc"` or `W/"abc"`). */
function etagVersion(response: Response): string {
  const tag = response.headers.get("ETag");
  const version = tag === null ? undefined : /^\s*(?:W\/)?"?([^"]*)"?\s*$/.exec(tag)?.[1];
  if (version === undefined || version === "") throw new Error(`${ROUTE}: the reply has no ETag`);
  return version;
}

/** The server's document, parsed (a reply that does not validate is an error naming why). */
function parseDocument(path: string, text: string): Annotations {
  const parsed = annotationsParse(path, text);
  if (parsed.ok) return parsed.value;
  throw new Error(parsed.issues.map(formatIssue).join("; "));
}

type Step = () => Promise<boolean>;

/** The link's state, shared by its parts and changed in place (one per link). */
interface LinkState {
  /** The page's annotations as opened, with what the offline copy restored since. */
  opened: Annotations;
  /** The server's document at `version`, as last read or written; null before the first read. */
  base: Annotations | null;
  version: string | null;
  /** Set while the file on disk does not validate (then `version` is that file's). */
  invalid: string | null;
  /** The user changed something since the 422: only then is the invalid file replaced. */
  userChanged: boolean;
  /** The latest version an event named, until a read catches up with it. */
  heard: string | null;
  conflicts: number;
  failure: string | null;
  retryMs: number;
  /** The debounce of the next write. */
  timer: ReturnType<typeof setTimeout> | null;
  retryTimer: ReturnType<typeof setTimeout> | null;
  running: Promise<void> | null;
  /** The next write is sent with `keepalive` (the page is being hidden). */
  keepalive: boolean;
  /** True while the server's annotations are being applied to the store (not the user's change). */
  applying: boolean;
  /** After close: the annotations still to write (the store holds another dataset's). */
  final: Annotations | null;
}

/** The link's state with what its steps need: the page's annotations, the status, the outcomes. */
interface LinkCore {
  readonly state: LinkState;
  readonly session: RemoteRun["session"];
  readonly path: string;
  /** The annotations to sync: the store's, or after close the last ones. */
  readonly local: () => Annotations;
  /** The page has changes the server's document lacks (or replaces an invalid file the user changed). */
  readonly wantPush: () => boolean;
  /** Show the save status, if it changed. */
  readonly report: () => void;
  /** Take the server's document: merged with the page's, then the new base. */
  readonly take: (theirs: Annotations, theirVersion: string) => void;
  /** A step failed: say so, and try again after a pause (doubling up to RETRY_MAX_MS). */
  readonly fail: (e: unknown) => false;
  readonly succeed: () => true;
}

function linkCore(
  remote: RemoteRun,
  openedAs: Annotations,
  store: ServerSyncedStore,
  status: ServerStatusStore,
  retry: () => void,
): LinkCore {
  const path = remote.listing.annotations.path;
  const state: LinkState = {
    opened: openedAs,
    base: null,
    version: null,
    invalid: null,
    userChanged: false,
    heard: null,
    conflicts: 0,
    failure: null,
    retryMs: RETRY_MS,
    timer: null,
    retryTimer: null,
    running: null,
    keepalive: false,
    applying: false,
    final: null,
  };

  const local = (): Annotations => state.final ?? store.getState().annotations;

  const wantPush = (): boolean =>
    state.base !== null
      ? changedSince(state.base, local())
      : state.invalid !== null && state.userChanged;

  const report = (): void => {
    if (state.final !== null) return;
    const next: ServerSaveState =
      state.failure !== null
        ? { status: "error", path, message: state.failure }
        : state.invalid !== null && !state.userChanged
          ? { status: "invalid", path, message: state.invalid }
          : state.version === null
            ? { status: "reading", path }
            : { status: "saved", path, pending: state.timer !== null || wantPush() };
    const now = status.getState().server;
    if (JSON.stringify(now) !== JSON.stringify(next)) status.setState({ server: next });
  };

  const apply = (merged: Annotations): void => {
    if (state.final !== null) state.final = merged;
    else if (merged !== store.getState().annotations) {
      state.applying = true;
      try {
        store.setState({ annotations: merged });
      } finally {
        state.applying = false;
      }
    }
  };

  return {
    state,
    session: remote.session,
    path,
    local,
    wantPush,
    report,
    take(theirs, theirVersion) {
      const merged =
        state.base === null
          ? mergeOnOpen(state.opened, local(), theirs)
          : mergeRemote(state.base, local(), theirs);
      state.base = alignEqual(theirs, merged);
      state.version = theirVersion;
      state.invalid = null;
      apply(merged);
    },
    fail(e) {
      state.failure = serverErrorMessage(path, errorText(e));
      report();
      if (state.retryTimer === null && state.final === null)
        state.retryTimer = setTimeout(() => {
          state.retryTimer = null;
          retry();
        }, state.retryMs);
      state.retryMs = Math.min(state.retryMs * 2, RETRY_MAX_MS);
      return false;
    },
    succeed() {
      state.failure = null;
      state.retryMs = RETRY_MS;
      return true;
    },
  };
}

/** Read the server's document and merge it in (a 422: the file does not validate; shown, kept). */
async function pullStep(link: LinkCore): Promise<boolean> {
  const { state, path } = link;
  const asked = state.heard;
  try {
    const response = await viewFetch(link.session, ROUTE, {}, [422]);
    if (response.status === 422) {
      const { parseViewReply, annotationsInvalidSchema } = await viewApi();
      const body = parseViewReply(ROUTE, annotationsInvalidSchema, await response.json());
      const issues = body.issues.map((i) => i.message).join("; ");
      state.invalid = `${path} does not validate (${issues}). It is left as it is until you change an annotation; the studio's annotations then replace it.`;
      state.version = body.version;
      state.base = null;
    } else link.take(parseDocument(path, await response.text()), etagVersion(response));
  } catch (e) {
    return link.fail(e);
  }
  if (state.heard === asked) state.heard = null;
  return link.succeed();
}

/** Write the page's document over the version last known; a conflict merges theirs in first. */
async function pushStep(link: LinkCore): Promise<boolean> {
  const { state } = link;
  const sent = link.local();
  const init: RequestInit = {
    method: "PUT",
    headers: { "If-Match": `"${state.version ?? ""}"`, "Content-Type": "application/json" },
    body: annotationsToJson(sent),
    keepalive: state.keepalive,
  };
  state.keepalive = false;
  try {
    const response = await viewFetch(link.session, ROUTE, init, [409]);
    const { parseViewReply, annotationsWrittenSchema, annotationsConflictSchema } = await viewApi();
    if (response.status !== 409) {
      state.version = parseViewReply(
        ROUTE,
        annotationsWrittenSchema,
        await response.json(),
      ).version;
      state.base = sent;
      state.invalid = null;
      state.userChanged = false;
      state.conflicts = 0;
      return link.succeed();
    }
    const body = parseViewReply(ROUTE, annotationsConflictSchema, await response.json());
    if (++state.conflicts > MAX_CONFLICTS) {
      state.conflicts = 0;
      return link.fail(new Error(`another writer changed it ${MAX_CONFLICTS} times in a row`));
    }
    // A file that does not validate is replaced by ours; a valid one is merged first.
    if (body.current === null || body.current === undefined) state.version = body.version;
    else link.take(parseDocument(link.path, JSON.stringify(body.current)), body.version);
    return link.succeed();
  } catch (e) {
    return link.fail(e);
  }
}

/** The sync of one view session's annotations, from the dataset's open to its close. */
export function startLink(
  remote: RemoteRun,
  openedAs: Annotations,
  store: ServerSyncedStore,
  status: ServerStatusStore,
  options: ServerAnnotationsOptions,
): Link {
  const restoring = options.restoring ?? (() => false);
  const debounceMs = options.debounceMs ?? SAVE_DEBOUNCE_MS;
  const link = linkCore(remote, openedAs, store, status, () => kick());
  const { state, report } = link;
  const pull: Step = () => pullStep(link);
  const push: Step = () => pushStep(link);

  const next = (): Step | null => {
    if (state.final !== null) return link.wantPush() ? push : null;
    if (state.version === null || (state.heard !== null && state.heard !== state.version))
      return pull;
    return state.timer === null && link.wantPush() ? push : null;
  };

  // One server operation at a time: a step's reply is in before the next step is chosen.
  const drain = async (): Promise<void> => {
    for (let step = next(); step !== null; step = next()) {
      const ok = await step();
      report();
      if (!ok) return;
    }
  };

  function kick(): void {
    if (state.running !== null) return;
    state.running = drain().finally(() => {
      state.running = null;
      report();
      if (state.failure === null && next() !== null) kick();
    });
  }

  const schedule = (): void => {
    if (state.timer !== null) clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      state.timer = null;
      kick();
    }, debounceMs);
    report();
  };

  const startNow = (): void => {
    if (state.timer === null) return;
    clearTimeout(state.timer);
    state.timer = null;
    state.keepalive = true;
    kick();
  };

  const page = typeof window === "undefined" ? null : window;
  page?.addEventListener("pagehide", startNow);

  const unsubscribe = (options.subscribe ?? subscribeViewEvents)(remote.session, {
    annotations: (v) => {
      state.heard = v;
      kick();
    },
    // (Re)connected: anything may have changed, and a failed write may land now.
    open: (v) => {
      if (v !== null) state.heard = v;
      kick();
    },
  });

  report();
  kick();

  return {
    changed(previous, nextAnnotations) {
      if (state.applying) return;
      if (restoring()) {
        state.opened = absorbChange(state.opened, previous, nextAnnotations);
        // The offline copy after the first read: what it adds is written (it fills only gaps).
        if (state.base === null) return;
      } else if (state.base === null) {
        if (state.invalid === null) return; // the first read merges it
        state.userChanged = true;
      }
      schedule();
    },
    async flush() {
      startNow();
      while (state.running !== null) await state.running;
    },
    version: () => state.version,
    close(last) {
      unsubscribe();
      page?.removeEventListener("pagehide", startNow);
      if (state.retryTimer !== null) clearTimeout(state.retryTimer);
      state.final = last;
      if (state.timer !== null) startNow();
      else kick();
    },
  };
}
