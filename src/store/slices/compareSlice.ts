/**
 * A second run, opened to compare the dataset on screen with (issue 19, run against run): its
 * load, read by a load worker of its own (workers/loadClient.ts `LoadClient`) so that neither
 * load terminates the worker holding the other's index, its groups parsed on demand when it is
 * indexed, and the pair of groups (one of each run) the user opened side by side. The dataset on
 * screen is run A; this one is run B. Like the dataset, it is never persisted. It is read once: a
 * run from the view server is not followed (the dataset on screen is).
 */
import type { StateCreator } from "zustand";
import type { RolloutGroup } from "../../core/index.ts";
import { LoadClient, type LoadEvent, type LoadHandle } from "../../workers/loadClient.ts";
import type { Store } from "../createStore.ts";
import { remoteLoadJob } from "../remote/remoteJob.ts";
import type { RemoteRun } from "../remote/viewSession.ts";
import { runPlan } from "../runPlan.ts";
import type { LoadState, RunInput } from "./datasetSlice.ts";
import { loadWithParsedGroup } from "./datasetStates.ts";

/** Two groups shown side by side: `a` of the dataset on screen, `b` of the compared run. */
export interface ComparePair {
  readonly a: string;
  readonly b: string;
  /** The prompt both groups are of (core's prompt key). */
  readonly prompt: string;
  /**
   * The group open when the pair was opened: the pair shows while it stays the open group, and
   * opening another group in the browser leaves the pair.
   */
  readonly over: string | null;
}

export interface CompareSlice {
  /** The run compared with the dataset on screen (run B); idle when none is open. */
  readonly compareRun: LoadState;
  /** The pair of groups open side by side from the comparison, or null. */
  readonly comparePair: ComparePair | null;
  /** Open files (one file, several, or a folder's, as the dataset's `loadFiles` reads them). */
  readonly loadCompareFiles: (
    inputs: readonly RunInput[],
    choice?: { readonly indexThreshold?: number },
  ) => void;
  /** Open a run the view server lists. */
  readonly loadCompareRemote: (remote: RemoteRun) => void;
  /** Close the compared run (and its pair). */
  readonly closeCompare: () => void;
  /** Make sure a group of the compared run is parsed (an indexed run parses groups on demand). */
  readonly ensureCompareGroup: (groupId: string) => void;
  readonly openComparePair: (pair: Omit<ComparePair, "over"> | null) => void;
}

/** The compared run's worker, started with its first load. */
let client: LoadClient | null = null;
let current: LoadHandle | null = null;
/** Groups asked of the compared run's worker and not parsed yet. */
const pending = new Set<string>();

type SliceSet = Parameters<StateCreator<Store, [], [], CompareSlice>>[0];
type SliceGet = Parameters<StateCreator<Store, [], [], CompareSlice>>[1];

/** The compared run's load events into `compareRun`. */
function compareEvents(
  set: SliceSet,
  file: File,
  remote: RemoteRun | undefined,
): (event: LoadEvent) => void {
  return (event) => {
    if (current?.requestId !== event.requestId) return;
    switch (event.kind) {
      case "progress":
        set({
          compareRun: {
            status: "loading",
            file,
            phase: event.phase,
            bytes: event.bytes,
            totalBytes: event.totalBytes,
            rows: event.rows ?? null,
            groups: event.groups ?? null,
            preview: null,
          },
        });
        break;
      case "done": {
        current = null;
        const groups = new Map<string, RolloutGroup>();
        for (const g of event.dataset.groups) groups.set(g.id, g);
        set({
          compareRun: {
            status: "ready",
            file,
            ...(remote === undefined ? {} : { remote }),
            dataset: event.dataset,
            groups,
          },
        });
        break;
      }
      case "error":
        current = null;
        set({
          compareRun: {
            status: "error",
            file,
            message:
              event.candidates !== undefined && event.candidates.length > 0
                ? `${event.message} Open it as the dataset on screen to choose its format.`
                : event.message,
            candidates: [],
            unknownFormat: event.unknownFormat ?? false,
          },
        });
        break;
      case "cancelled":
        current = null;
        set({ compareRun: { status: "idle" } });
        break;
      case "first-group":
      case "group":
        break;
    }
  };
}

function loadingState(file: File, totalBytes: number): LoadState {
  return {
    status: "loading",
    file,
    phase: "reading",
    bytes: 0,
    totalBytes,
    rows: null,
    groups: null,
    preview: null,
  };
}

/** A new load of the compared run: the previous one cancelled, its pair closed. */
function begin(set: SliceSet): LoadClient {
  current?.cancel();
  pending.clear();
  set({ comparePair: null });
  return (client ??= new LoadClient());
}

export const createCompareSlice: StateCreator<Store, [], [], CompareSlice> = (
  set: SliceSet,
  get: SliceGet,
) => ({
  compareRun: { status: "idle" },
  comparePair: null,
  loadCompareFiles: (inputs, choice = {}) => {
    const first = inputs[0];
    if (first === undefined) return;
    const worker = begin(set);
    if (inputs.length === 1) {
      set({ compareRun: loadingState(first.file, first.file.size) });
      current = worker.startLoad(first.file, compareEvents(set, first.file, undefined), choice);
      return;
    }
    const plan = runPlan(inputs);
    const shown = new File([], plan.name);
    if (plan.error !== null) {
      set({
        compareRun: {
          status: "error",
          file: shown,
          message: plan.error,
          candidates: [],
          unknownFormat: false,
        },
      });
      return;
    }
    set({
      compareRun: loadingState(
        shown,
        plan.files.reduce((n, f) => n + f.file.size, 0),
      ),
    });
    current = worker.startRunLoad(
      plan.name,
      plan.files,
      compareEvents(set, shown, undefined),
      undefined,
      choice.indexThreshold,
    );
  },
  loadCompareRemote: (remote) => {
    const worker = begin(set);
    const job = remoteLoadJob(remote, []);
    const shown = new File([], job.name);
    set({
      compareRun: loadingState(
        shown,
        job.files.reduce((n, f) => n + f.run.size, 0),
      ),
    });
    current = worker.startRemoteLoad(job, compareEvents(set, shown, remote), false);
  },
  closeCompare: () => {
    current?.cancel();
    current = null;
    pending.clear();
    client?.close();
    set({ compareRun: { status: "idle" }, comparePair: null });
  },
  ensureCompareGroup: (groupId) => {
    const run = get().compareRun;
    if (run.status !== "ready" || run.groups.has(groupId) || pending.has(groupId)) return;
    if (client === null) return;
    pending.add(groupId);
    client.requestGroup(groupId, (reply) => {
      pending.delete(groupId);
      const now = get().compareRun;
      if (now.status !== "ready" || now.file !== run.file) return;
      const pair = get().comparePair;
      set({
        compareRun: loadWithParsedGroup(now, groupId, reply, pair?.b ?? null, run.dataset.file),
      });
    });
  },
  openComparePair: (pair) =>
    set({ comparePair: pair === null ? null : { ...pair, over: get().selectedGroupId } }),
});
