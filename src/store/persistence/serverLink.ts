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

/** The sync of one view session's annotations, from the dataset's open to its close. */
export function startLink(
  remote: RemoteRun,
  openedAs: Annotations,
  store: ServerSyncedStore,
  status: ServerStatusStore,
  options: ServerAnnotationsOptions,
): Link {
  const { session } = remote;
  const path = remote.listing.annotations.path;
  const restoring = options.restoring ?? (() => false);
  const debounceMs = options.debounceMs ?? SAVE_DEBOUNCE_MS;
  /** The page's annotations as opened, with what the offline copy restored since. */
  let opened = openedAs;
  /** The server's document at `version`, as last read or written; null before the first read. */
  let base: Annotations | null = null;
  let version: string | null = null;
  /** Set while the file on disk does not validate (then `version` is that file's). */
  let invalid: string | null = null;
  /** The user changed something since the 422: only then is the invalid file replaced. */
  let userChanged = false;
  /** The latest version an event named, until a read catches up with it. */
  let heard: string | null = null;
  let conflicts = 0;
  let failure: string | null = null;
  let retryMs = RETRY_MS;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let keepalive = false;
  let applying = false;
  /** After close: the annotations still to write (the store holds another dataset's). */
  let final: Annotations | null = null;

  const local = (): Annotations => final ?? store.getState().annotations;

  const wantPush = (): boolean =>
    base !== null ? changedSince(base, local()) : invalid !== null && userChanged;

  const report = (): void => {
    if (final !== null) return;
    const next: ServerSaveState =
      failure !== null
        ? { status: "error", path, message: failure }
        : invalid !== null && !userChanged
          ? { status: "invalid", path, message: invalid }
          : version === null
            ? { status: "reading", path }
            : { status: "saved", path, pending: timer !== null || wantPush() };
    const now = status.getState().server;
    if (JSON.stringify(now) !== JSON.stringify(next)) status.setState({ server: next });
  };

  const apply = (merged: Annotations): void => {
    if (final !== null) final = merged;
    else if (merged !== store.getState().annotations) {
      applying = true;
      try {
        store.setState({ annotations: merged });
      } finally {
        applying = false;
      }
    }
  };

  /** Take the server's document: merged with the page's, then the new base. */
  const take = (theirs: Annotations, theirVersion: string): void => {
    const merged =
      base === null ? mergeOnOpen(opened, local(), theirs) : mergeRemote(base, local(), theirs);
    base = alignEqual(theirs, merged);
    version = theirVersion;
    invalid = null;
    apply(merged);
  };

  const fail = (e: unknown): false => {
    failure = serverErrorMessage(path, errorText(e));
    report();
    if (retryTimer === null && final === null)
      retryTimer = setTimeout(() => {
        retryTimer = null;
        kick();
      }, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    return false;
  };

  const succeed = (): true => {
    failure = null;
    retryMs = RETRY_MS;
    return true;
  };

  const pull: Step = async () => {
    const asked = heard;
    try {
      const response = await viewFetch(session, ROUTE, {}, [422]);
      if (response.status === 422) {
        const { parseViewReply, annotationsInvalidSchema } = await viewApi();
        const body = parseViewReply(ROUTE, annotationsInvalidSchema, await response.json());
        const issues = body.issues.map((i) => i.message).join("; ");
        invalid = `${path} does not validate (${issues}). It is left as it is until you change an annotation; the studio's annotations then replace it.`;
        version = body.version;
        base = null;
      } else take(parseDocument(path, await response.text()), etagVersion(response));
    } catch (e) {
      return fail(e);
    }
    if (heard === asked) heard = null;
    return succeed();
  };

  const push: Step = async () => {
    const sent = local();
    const init: RequestInit = {
      method: "PUT",
      headers: { "If-Match": `"${version ?? ""}"`, "Content-Type": "application/json" },
      body: annotationsToJson(sent),
      keepalive,
    };
    keepalive = false;
    try {
      const response = await viewFetch(session, ROUTE, init, [409]);
      const { parseViewReply, annotationsWrittenSchema, annotationsConflictSchema } =
        await viewApi();
      if (response.status !== 409) {
        version = parseViewReply(ROUTE, annotationsWrittenSchema, await response.json()).version;
        base = sent;
        invalid = null;
        userChanged = false;
        conflicts = 0;
        return succeed();
      }
      const body = parseViewReply(ROUTE, annotationsConflictSchema, await response.json());
      if (++conflicts > MAX_CONFLICTS) {
        conflicts = 0;
        return fail(new Error(`another writer changed it ${MAX_CONFLICTS} times in a row`));
      }
      // A file that does not validate is replaced by ours; a valid one is merged first.
      if (body.current === null || body.current === undefined) version = body.version;
      else take(parseDocument(path, JSON.stringify(body.current)), body.version);
      return succeed();
    } catch (e) {
      return fail(e);
    }
  };

  const next = (): Step | null => {
    if (final !== null) return wantPush() ? push : null;
    if (version === null || (heard !== null && heard !== version)) return pull;
    return timer === null && wantPush() ? push : null;
  };

  const drain = async (): Promise<void> => {
    for (let step = next(); step !== null; step = next()) {
      const ok = await step();
      report();
      if (!ok) return;
    }
  };

  function kick(): void {
    if (running !== null) return;
    running = drain().finally(() => {
      running = null;
      report();
      if (failure === null && next() !== null) kick();
    });
  }

  const schedule = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      kick();
    }, debounceMs);
    report();
  };

  const startNow = (): void => {
    if (timer === null) return;
    clearTimeout(timer);
    timer = null;
    keepalive = true;
    kick();
  };

  const page = typeof window === "undefined" ? null : window;
  page?.addEventListener("pagehide", startNow);

  const unsubscribe = (options.subscribe ?? subscribeViewEvents)(session, {
    annotations: (v) => {
      heard = v;
      kick();
    },
    // (Re)connected: anything may have changed, and a failed write may land now.
    open: (v) => {
      if (v !== null) heard = v;
      kick();
    },
  });

  report();
  kick();

  return {
    changed(previous, nextAnnotations) {
      if (applying) return;
      if (restoring()) {
        opened = absorbChange(opened, previous, nextAnnotations);
        // The offline copy after the first read: what it adds is written (it fills only gaps).
        if (base === null) return;
      } else if (base === null) {
        if (invalid === null) return; // the first read merges it
        userChanged = true;
      }
      schedule();
    },
    async flush() {
      startNow();
      while (running !== null) await running;
    },
    version: () => version,
    close(last) {
      unsubscribe();
      page?.removeEventListener("pagehide", startNow);
      if (retryTimer !== null) clearTimeout(retryTimer);
      final = last;
      if (timer !== null) startNow();
      else kick();
    },
  };
}
