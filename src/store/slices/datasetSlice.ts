/**
 * The loaded dataset and the state of loading it. The dataset is never persisted (style.md
 * anti-pattern 3): it is re-read from the file. Groups of an indexed file are parsed on demand and
 * kept here, at most MAX_LOADED_GROUPS of them.
 */
import type { StateCreator } from "zustand";
import type { RolloutGroup } from "../../core/index.ts";
// Direct module paths, not the io barrel: the main bundle takes only what it uses (the loaders
// themselves run in the worker).
import type { LoadedDataset } from "../../io/dataset.ts";
import type { FormatCandidate } from "../../io/formats/load.ts";
import type { FormatOptions } from "../../io/formats/spec.ts";
import type { LoadPhase } from "../../workers/protocol.ts";
import {
  requestGroup,
  prewarmLoadWorkerWhenIdle,
  startLoad,
  startRemoteLoad,
  startRunLoad,
  type LoadEvent,
  type LoadHandle,
} from "../../workers/loadClient.ts";
import { DEMO_FILE_NAME, fetchDemoFile } from "../demo.ts";
import type { Store } from "../index.ts";
import { remoteLoadJob, type RemoteRefresh } from "../remote/remoteJob.ts";
import type { RemoteRun } from "../remote/viewSession.ts";
import { runPlan } from "../runPlan.ts";
import {
  initialGroup,
  LIVE_IDLE,
  loadWithParsedGroup,
  refreshedState,
  startState,
} from "./datasetStates.ts";

export { LIVE_IDLE, MAX_LOADED_GROUPS } from "./datasetStates.ts";

export type LoadState =
  | { readonly status: "idle" }
  | {
      readonly status: "loading";
      readonly file: File;
      /** A run's files (several files or a folder as one run), in run order; absent for one file. */
      readonly runFiles?: readonly File[];
      readonly phase: LoadPhase;
      readonly bytes: number;
      readonly totalBytes: number;
      readonly rows: number | null;
      readonly groups: number | null;
      /** The first group of an indexed file, shown before indexing ends. */
      readonly preview: RolloutGroup | null;
    }
  | {
      readonly status: "ready";
      readonly file: File;
      readonly runFiles?: readonly File[];
      /** Set when the dataset was read from the `rollout-studio view` server (and is followed). */
      readonly remote?: RemoteRun;
      readonly dataset: LoadedDataset;
      /** Parsed groups by id: all of them for a whole-file load. */
      readonly groups: ReadonlyMap<string, RolloutGroup>;
    }
  | {
      readonly status: "error";
      readonly file: File;
      readonly runFiles?: readonly File[];
      /** The view server's run that failed to load (read it again with another format). */
      readonly remote?: RemoteRun;
      readonly message: string;
      /** Several formats matched equally: the user picks one. */
      readonly candidates: readonly FormatCandidate[];
      /** No format matched: the field mapping can read it. */
      readonly unknownFormat: boolean;
    };

export interface LoadChoice {
  readonly format?: string;
  readonly options?: FormatOptions;
  readonly indexThreshold?: number;
}

export interface DatasetSlice {
  readonly load: LoadState;
  /** Load a file, detecting its format unless one is given. Cancels any load in progress. */
  readonly loadFile: (file: File, choice?: LoadChoice) => void;
  /**
   * Load several files, or a folder's files, as one run (issue 14). One file is `loadFile`. Paths
   * are the files' places in the folder (`webkitRelativePath`), else their names.
   */
  readonly loadFiles: (
    files: readonly RunInput[],
    choice?: { readonly format?: string; readonly indexThreshold?: number },
  ) => void;
  readonly cancelLoad: () => void;
  /** Load the bundled demo dataset. */
  readonly loadDemo: () => void;
  /**
   * Read what is on screen (or failed to load) again with a format: one file, a run of files, or
   * the view server's run, each the way it was opened.
   */
  readonly readAs: (format: string) => void;
  /**
   * Load a run from the `rollout-studio view` server (issue 14). With `refresh`, the run on screen
   * changed: it is read again in place (the dataset on screen stays until the new one is ready),
   * keeping the selection and the annotations, and the groups that arrive are listed in `live`.
   */
  readonly loadRemote: (remote: RemoteRun, refresh?: RemoteRefresh) => void;
  /** Following a run: what arrived and what the user should know. */
  readonly live: LiveFollow;
  /** The user has seen the groups that arrived. */
  readonly dismissArrivals: () => void;
  /** Make sure a group's rollouts are parsed (indexed files parse groups on demand). */
  readonly ensureGroup: (groupId: string) => void;
}

/** What following a run from the view server has brought since the user last looked. */
export interface LiveFollow {
  /** Ids of the groups that arrived since the run opened (or since the last dismiss), in order. */
  readonly arrived: readonly string[];
  /** What happened to the run's files that the user should know (read again, left out). */
  readonly notices: readonly string[];
  /** Bytes of half-written last lines not read yet (read once their newline arrives). */
  readonly heldBack: number;
  /** A re-read is in flight. */
  readonly updating: boolean;
}

/** One file given for a run, and its path in the folder it came from (its name when none). */
export interface RunInput {
  readonly file: File;
  readonly path: string;
}

let current: LoadHandle | null = null;
/** The inputs of the last run opened from files, to read it again with another format. */
let lastRunInputs: readonly RunInput[] = [];
/** Groups asked of the load worker and not parsed yet (asked once). */
const pending = new Set<string>();

type SliceSet = Parameters<StateCreator<Store, [], [], DatasetSlice>>[0];
type SliceGet = Parameters<StateCreator<Store, [], [], DatasetSlice>>[1];

/** The load's events into the state: progress, the first group, done, error, cancelled. */
function loadEvents(
  set: SliceSet,
  get: SliceGet,
  file: File,
  runFiles: readonly File[] | undefined,
  remote?: RemoteRun,
): (event: LoadEvent) => void {
  let preview: RolloutGroup | null = null;
  return (event) => {
    if (current?.requestId !== event.requestId) return;
    switch (event.kind) {
      case "progress":
        set({
          load: {
            status: "loading",
            file,
            ...(runFiles === undefined ? {} : { runFiles }),
            phase: event.phase,
            bytes: event.bytes,
            totalBytes: event.totalBytes,
            rows: event.rows ?? null,
            groups: event.groups ?? null,
            preview,
          },
        });
        break;
      case "first-group": {
        preview = event.group;
        const load = get().load;
        if (load.status === "loading") set({ load: { ...load, preview } });
        break;
      }
      case "done": {
        current = null;
        performance.mark("index-done");
        // A loop, not `new Map(groups.map(...))`: no [id, group] pair per group (100k at once).
        const groups = new Map<string, RolloutGroup>();
        for (const g of event.dataset.groups) groups.set(g.id, g);
        set({
          load: {
            status: "ready",
            file,
            ...(runFiles === undefined ? {} : { runFiles }),
            ...(remote === undefined ? {} : { remote }),
            dataset: event.dataset,
            groups,
          },
          selectedGroupId: initialGroup(event.dataset),
          live: { ...LIVE_IDLE, heldBack: event.heldBack ?? 0 },
        });
        // The next file gets a started worker (this one keeps the index for group requests).
        prewarmLoadWorkerWhenIdle();
        break;
      }
      case "error":
        current = null;
        set({
          load: {
            status: "error",
            file,
            ...(runFiles === undefined ? {} : { runFiles }),
            ...(remote === undefined ? {} : { remote }),
            message: event.message,
            candidates: event.candidates ?? [],
            unknownFormat: event.unknownFormat ?? false,
          },
        });
        break;
      case "cancelled":
        current = null;
        set({ load: { status: "idle" } });
        break;
      case "group":
        break;
    }
  };
}

/** Opening files: one file, a run of files, the demo, the same again with another format. */
function fileLoadActions(
  set: SliceSet,
  get: SliceGet,
): Pick<DatasetSlice, "loadFile" | "loadFiles" | "readAs" | "loadDemo" | "cancelLoad"> {
  return {
    loadFile: (file, choice = {}) => {
      current?.cancel();
      pending.clear();
      performance.mark("file-selected");
      const onEvent = loadEvents(set, get, file, undefined);
      set(startState(file, undefined, file.size));
      current = startLoad(file, onEvent, choice);
    },
    loadFiles: (inputs, choice = {}) => {
      if (inputs.length === 1) {
        get().loadFile(inputs[0]!.file, choice);
        return;
      }
      lastRunInputs = inputs;
      const plan = runPlan(inputs);
      current?.cancel();
      pending.clear();
      const runFiles = plan.files.map((f) => f.file);
      const shown = new File([], plan.name);
      if (plan.error !== null) {
        set({
          load: {
            status: "error",
            file: shown,
            runFiles,
            message: plan.error,
            candidates: [],
            unknownFormat: false,
          },
        });
        return;
      }
      performance.mark("file-selected");
      const onEvent = loadEvents(set, get, shown, runFiles);
      set(
        startState(
          shown,
          runFiles,
          runFiles.reduce((n, f) => n + f.size, 0),
        ),
      );
      current = startRunLoad(plan.name, plan.files, onEvent, choice.format, choice.indexThreshold);
    },
    readAs: (format) => {
      const load = get().load;
      if (load.status !== "ready" && load.status !== "error") return;
      if (load.remote !== undefined)
        get().loadRemote({ ...load.remote, listing: { ...load.remote.listing, format } });
      else if (load.runFiles !== undefined) get().loadFiles(lastRunInputs, { format });
      else get().loadFile(load.file, { format });
    },
    loadDemo: () => {
      fetchDemoFile()
        .then((file) => get().loadFile(file))
        .catch((e: unknown) => {
          const file = new File([], DEMO_FILE_NAME);
          set({
            load: {
              status: "error",
              file,
              message: `The demo could not be opened: ${e instanceof Error ? e.message : String(e)}`,
              candidates: [],
              unknownFormat: false,
            },
          });
        });
    },
    cancelLoad: () => {
      current?.cancel();
    },
  };
}

/** Following the view server's run: opening it, reading it again as it changes, the arrivals. */
function remoteLoadActions(
  set: SliceSet,
  get: SliceGet,
): Pick<DatasetSlice, "loadRemote" | "dismissArrivals"> {
  /** A refresh asked for while one is in flight: run once that one ends (reread lists merged). */
  let queued: { remote: RemoteRun; refresh: RemoteRefresh } | null = null;
  let refreshing: LoadHandle | null = null;
  const refreshRemote = (remote: RemoteRun, refresh: RemoteRefresh): void => {
    const before = get().load;
    if (before.status !== "ready" || before.remote === undefined) return;
    if (refreshing !== null) {
      queued = {
        remote,
        refresh: {
          reread: [...new Set([...(queued?.refresh.reread ?? []), ...refresh.reread])],
          notices: [...(queued?.refresh.notices ?? []), ...refresh.notices],
        },
      };
      return;
    }
    set({ live: { ...get().live, updating: true } });
    const job = remoteLoadJob(remote, refresh.reread);
    const handle = startRemoteLoad(
      job,
      (event) => {
        if (refreshing?.requestId !== event.requestId) return;
        if (event.kind === "progress" || event.kind === "first-group" || event.kind === "group")
          return;
        refreshing = null;
        const now = get().load;
        const live = get().live;
        if (now.status === "ready" && now.file === before.file) {
          if (event.kind === "done") {
            const refreshed = refreshedState(
              now,
              live,
              get().selectedGroupId,
              remote,
              refresh,
              event,
            );
            set(refreshed);
            // The open group, read again when it grew (an indexed file's groups parse on demand).
            const open = get().selectedGroupId;
            if (event.dataset.indexed && open !== null && !refreshed.load.groups.has(open))
              get().ensureGroup(open);
          } else if (event.kind === "error") {
            set({
              live: {
                ...live,
                notices: [...live.notices, `The run could not be read again: ${event.message}`],
                updating: false,
              },
            });
          } else set({ live: { ...live, updating: false } });
        }
        const next = queued;
        queued = null;
        if (next !== null) refreshRemote(next.remote, next.refresh);
      },
      true,
    );
    refreshing = handle;
  };
  return {
    dismissArrivals: () => set({ live: { ...get().live, arrived: [], notices: [] } }),
    loadRemote: (remote, refresh) => {
      if (refresh !== undefined) {
        refreshRemote(remote, refresh);
        return;
      }
      current?.cancel();
      refreshing?.cancel();
      refreshing = null;
      queued = null;
      pending.clear();
      const job = remoteLoadJob(remote, []);
      const shown = new File([], job.name);
      performance.mark("file-selected");
      const onEvent = loadEvents(set, get, shown, undefined, remote);
      set(
        startState(
          shown,
          undefined,
          job.files.reduce((n, f) => n + f.run.size, 0),
        ),
      );
      current = startRemoteLoad(job, onEvent, false);
    },
  };
}

/** Parsing an indexed file's groups on demand, at most MAX_LOADED_GROUPS kept. */
function groupParseActions(set: SliceSet, get: SliceGet): Pick<DatasetSlice, "ensureGroup"> {
  return {
    ensureGroup: (groupId) => {
      const load = get().load;
      if (load.status !== "ready" || load.groups.has(groupId) || pending.has(groupId)) return;
      pending.add(groupId);
      const dataset = load.dataset;
      const requested = performance.now();
      requestGroup(groupId, (reply) => {
        pending.delete(groupId);
        // Request to rows parsed, for the lazy-open benchmark (bench/lazyOpen.ts, performance.md T10).
        performance.measure("group-parsed", { start: requested, detail: { groupId } });
        const now = get().load;
        if (now.status !== "ready" || now.file !== load.file) return;
        set({
          load: loadWithParsedGroup(now, groupId, reply, get().selectedGroupId, dataset.file),
        });
      });
    },
  };
}

export const createDatasetSlice: StateCreator<Store, [], [], DatasetSlice> = (set, get) => ({
  load: { status: "idle" },
  live: LIVE_IDLE,
  ...fileLoadActions(set, get),
  ...remoteLoadActions(set, get),
  ...groupParseActions(set, get),
});
