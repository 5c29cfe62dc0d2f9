/**
 * The page served by `rollout-studio view` (issue 14): open the run the URL names (`?run=`, else
 * the server's first run) from the server, and follow it. Every `files` event (a step file
 * appeared, a JSONL grew, a file shrank or was rewritten) schedules one re-read of the listing and
 * of the run, in place: the dataset slice keeps the selection and the annotations and lists the
 * groups that arrived. Files that shrank or were rewritten are read again from the start, and the
 * user is told so. Served with `--compare`, the page opens run A (the first run of the first PATH)
 * and reads run B (the first run of the second) beside it, once, into the compare slice.
 */
import type { StoreApi } from "zustand";
import type { FilesEvent, ViewRuns } from "../../io/view/viewApi.ts";
import { viewComparePair, viewRunName } from "../../io/view/viewNames.ts";
import { prewarmLoadWorker } from "../../workers/loadClient.ts";
import type { CompareSlice } from "../slices/compareSlice.ts";
import type { DatasetSlice } from "../slices/datasetSlice.ts";
import type { RemoteRefresh } from "./remoteJob.ts";
import { subscribeViewEvents } from "./viewEvents.ts";
import { fetchViewRuns, ViewReplyError, type RemoteRun, type ViewSession } from "./viewSession.ts";

/** Events closer together than this are read as one change (a trainer writes a step in bursts). */
export const FOLLOW_SETTLE_MS = 100;

type FollowStore = StoreApi<
  Pick<DatasetSlice, "load" | "loadRemote"> & Pick<CompareSlice, "loadCompareRemote">
>;

/** The run a listing holds for `?run=` (its name as the studio shows it, or its folder). */
export function chooseViewRun(listing: ViewRuns, wanted: string | null): number {
  if (wanted !== null) {
    const at = listing.runs.findIndex(
      (run) => viewRunName(listing, run) === wanted || run.dir === wanted,
    );
    if (at !== -1) return at;
  }
  return 0;
}

/** What a change to one file tells the user, when it is more than new data. */
export function fileChangeNotice(event: FilesEvent): string | null {
  switch (event.kind) {
    case "shrunk":
      return `${event.path} got shorter: it was read again from the start.`;
    case "rewritten":
      return `${event.path} was rewritten: it was read again from the start.`;
    case "removed":
      return `${event.path} was removed: its groups left the run.`;
    default:
      return null;
  }
}

function showError(store: FollowStore, name: string, message: string): void {
  store.setState({
    load: {
      status: "error",
      file: new File([], name),
      message,
      candidates: [],
      unknownFormat: false,
    },
  });
}

/** Open and follow the server's run; returns the function that stops following. */
export function startViewFollow(
  store: FollowStore,
  session: ViewSession,
  wantedRun: string | null,
  indexThreshold?: number,
): () => void {
  const threshold = indexThreshold === undefined ? {} : { indexThreshold };
  // The load worker starts while the listing is asked for (its start-up would delay the run).
  prewarmLoadWorker();
  let stopped = false;
  let remote: RemoteRun | null = null;
  let change: { reread: Set<string>; notices: string[] } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let opens = 0;

  /** The run on screen: the store's (the user may have chosen another run), else the one opened. */
  const current = (): RemoteRun | null => {
    const load = store.getState().load;
    return (load.status === "ready" || load.status === "error") && load.remote !== undefined
      ? load.remote
      : remote;
  };

  const refresh = (): void => {
    timer = null;
    const pendingChange = change ?? { reread: new Set<string>(), notices: [] };
    change = null;
    const was = current();
    if (was === null) return;
    fetchViewRuns(session).then(
      (listing) => {
        if (stopped) return;
        const old = was.listing.runs[was.run]!;
        const at = listing.runs.findIndex((r) => r.root === old.root && r.dir === old.dir);
        if (at === -1) return; // the run's folder holds no data now: keep what is on screen
        // The format the user chose on screen (the dataset bar) stays chosen.
        remote = { ...was, listing: { ...listing, format: was.listing.format }, run: at };
        const why: RemoteRefresh = {
          reread: [...pendingChange.reread],
          notices: pendingChange.notices,
        };
        store.getState().loadRemote(remote, why);
      },
      () => undefined, // the server is gone or restarting: the event stream reconnects
    );
  };

  const schedule = (event: FilesEvent | null): void => {
    change ??= { reread: new Set(), notices: [] };
    if (event !== null) {
      if (event.kind === "shrunk" || event.kind === "rewritten") change.reread.add(event.id);
      const notice = fileChangeNotice(event);
      if (notice !== null) change.notices.push(notice);
    }
    if (timer === null) timer = setTimeout(refresh, FOLLOW_SETTLE_MS);
  };

  /** Open the run; with no data listed yet, say so, and open once a file appears. */
  let opening = false;
  const openFirst = (): void => {
    if (opening) return;
    opening = true;
    fetchViewRuns(session).then(
      (listing) => {
        opening = false;
        if (stopped) return;
        if (listing.runs.length === 0) {
          const roots = listing.roots.map((r) => r.path).join(", ");
          showError(
            store,
            roots,
            `The server lists no data files under ${roots} yet: the run opens here when one appears.`,
          );
          return;
        }
        const pair = viewComparePair(listing);
        const run =
          wantedRun === null && pair !== null ? pair.a : chooseViewRun(listing, wantedRun);
        remote = { session, listing, run, ...threshold };
        store.getState().loadRemote(remote);
        if (pair !== null && pair.b !== run)
          store.getState().loadCompareRemote({ session, listing, run: pair.b, ...threshold });
      },
      (e: unknown) => {
        opening = false;
        // A refused token will not start working: stop asking (the event stream would retry).
        if (e instanceof ViewReplyError && e.status === 401) stop();
        if (!stopped || (e instanceof ViewReplyError && e.status === 401))
          showError(
            store,
            session.origin,
            `The studio could not read the run from ${session.origin}: ${e instanceof Error ? e.message : String(e)}`,
          );
      },
    );
  };

  // The page's one stream, shared with the annotations' sync (viewEvents.ts).
  const close = subscribeViewEvents(session, {
    // Reconnected after a drop: anything may have changed meanwhile.
    open: () => {
      if (opens++ > 0) schedule(null);
    },
    files: (event) => {
      const shown = current();
      if (shown === null) {
        if (event.kind === "added") openFirst();
        return;
      }
      const run = shown.listing.runs[shown.run]!;
      if (event.root === run.root && (event.run === run.dir || event.run === null)) schedule(event);
    },
  });

  openFirst();

  function stop(): void {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    close();
  }
  return stop;
}
