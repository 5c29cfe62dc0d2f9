/**
 * Keeps the store's annotations in IndexedDB: restored when a dataset opens (by its fingerprint),
 * written as every action happens, one group per record. A failed write (a full quota, a browser
 * that refuses storage) is shown at once with an offer to export; nothing is lost silently.
 */
import { ANNOTATIONS_EMPTY, type Annotations } from "../../core/index.ts";
import { yieldTask } from "../yieldTask.ts";
import {
  datasetFingerprint,
  datasetFingerprintSliced,
  FINGERPRINT_SAMPLE,
} from "../../io/fingerprint.ts";
import type { LoadedDataset } from "../../io/dataset.ts";
import type { RemoteRun } from "../remote/viewSession.ts";
import type { AnnotationsDb } from "./annotationsDb.ts";
import { annotationChanges, extrasChanges } from "./annotationsDb.ts";

export type PersistState =
  | { readonly status: "off" }
  | { readonly status: "restoring" }
  | {
      readonly status: "saved";
      readonly at: number;
      /** Groups restored when the dataset opened, and records that failed validation. */
      readonly restored: number;
      readonly rejected: readonly string[];
      /** Writes not finished yet: 0 once every change so far is in storage. */
      readonly pending: number;
    }
  | { readonly status: "error"; readonly message: string };

interface SyncedState {
  readonly load:
    | {
        readonly status: "ready";
        readonly file: File;
        readonly runFiles?: readonly File[];
        readonly remote?: RemoteRun;
        readonly dataset: LoadedDataset;
      }
    | { readonly status: "idle" | "loading" | "error" };
  readonly annotations: Annotations;
  readonly persist: PersistState;
}

interface SyncedStore {
  getState(): Omit<SyncedState, "persist">;
  setState(partial: Partial<Pick<SyncedState, "annotations">>): void;
  subscribe(
    listener: (state: Omit<SyncedState, "persist">, previous: Omit<SyncedState, "persist">) => void,
  ): () => void;
}

/**
 * Where the save status lives. The studio keeps it in a store of its own, so that saving (two
 * status updates per change) never runs the main store's selectors on the keystroke path.
 */
interface StatusStore {
  getState(): Pick<SyncedState, "persist">;
  setState(partial: Pick<SyncedState, "persist">): void;
}

/** What the user reads when a write fails: what happened and what to do. */
export function persistErrorMessage(error: unknown): string {
  const name = error instanceof Error || error instanceof DOMException ? error.name : "";
  const detail = error instanceof Error ? error.message : String(error);
  if (name === "QuotaExceededError")
    return "The browser's storage is full, so your latest annotations are not saved. Export them now (Export annotations), then free some space.";
  return `Annotations could not be saved in this browser (${detail}). Export them now (Export annotations) to keep them.`;
}

/** A file's two ends, what a fingerprint hashes besides the groups. */
async function fileEnds(file: File): Promise<{ head: Uint8Array; tail: Uint8Array }> {
  const head = new Uint8Array(await file.slice(0, FINGERPRINT_SAMPLE).arrayBuffer());
  const tail =
    file.size > FINGERPRINT_SAMPLE
      ? new Uint8Array(
          await file
            .slice(Math.max(FINGERPRINT_SAMPLE, file.size - FINGERPRINT_SAMPLE))
            .arrayBuffer(),
        )
      : new Uint8Array();
  return { head, tail };
}

/**
 * The dataset's fingerprint (io/fingerprint.ts) from the file's two ends: annotations are kept
 * under it. A run of several files (issue 14) combines its files' fingerprints (each file's size
 * and ends, in run order) with the run's groups, so the same files chosen again find their
 * annotations, and one file more or less is another run.
 */
export async function fingerprintOf(
  file: File | readonly File[],
  dataset: LoadedDataset,
): Promise<string> {
  const files = file instanceof File ? [file] : file;
  if (files.length === 1) {
    const one = files[0]!;
    return datasetFingerprintSliced(
      { size: one.size, ...(await fileEnds(one)), dataset },
      yieldTask,
    );
  }
  const each: string[] = [];
  for (const f of files)
    each.push(
      datasetFingerprint({
        size: f.size,
        ...(await fileEnds(f)),
        dataset: { format: "", groupKey: "", summaries: [] },
      }),
    );
  return datasetFingerprintSliced(
    {
      size: files.reduce((n, f) => n + f.size, 0),
      head: new TextEncoder().encode(each.join("\n")),
      tail: new Uint8Array(),
      dataset,
    },
    yieldTask,
  );
}

/**
 * The key of a view session's offline copy (issue 14): the server's annotations file, not the
 * data's bytes, since a run's files grow while it trains and the key must not change.
 */
export function viewFingerprint(remote: RemoteRun): string {
  const path = new TextEncoder().encode(`view:${remote.listing.annotations.path}`);
  const hash = datasetFingerprint({
    size: path.length,
    head: path,
    tail: new Uint8Array(),
    dataset: { format: "view", groupKey: "", summaries: [] },
  });
  return `view:${hash}`;
}

/** What a ready dataset's annotations are kept under: its server's file, or its bytes. */
function loadFingerprint(load: {
  readonly file: File;
  readonly runFiles?: readonly File[];
  readonly remote?: RemoteRun;
  readonly dataset: LoadedDataset;
}): Promise<string> {
  if (load.remote !== undefined) return Promise.resolve(viewFingerprint(load.remote));
  return fingerprintOf(load.runFiles ?? load.file, load.dataset);
}

export interface AnnotationsSync {
  /** The open dataset's fingerprint, once computed. */
  fingerprint(): string | null;
  /** Delete the open dataset's stored annotations and empty them in the studio. */
  clear(): Promise<void>;
  /** Resolves when every write so far has finished (tests, and before export on unload). */
  flushed(): Promise<void>;
  /**
   * True while the stored annotations are being applied to the store: a listener (the view
   * server's sync) can tell the offline copy's restore from the user's change.
   */
  restoring(): boolean;
  stop(): void;
}

/**
 * Tasks that start in the task after the one that asked: writes wait for it, so a keystroke's
 * handler and frame do not pay for them. One that has not started when the page is hidden or
 * unloads starts then, at once.
 */
interface NextTaskGate {
  /** Resolves in the next task (or at once on pagehide, visibilitychange or stop). */
  next(): Promise<void>;
  /** Stop listening to the page, and start every task still waiting. */
  stop(): void;
}

function nextTaskGate(): NextTaskGate {
  const waiting = new Set<() => void>();
  const startWaiting = (): void => {
    for (const start of [...waiting]) start();
  };
  const page = typeof window === "undefined" ? null : window;
  page?.addEventListener("pagehide", startWaiting);
  page?.addEventListener("visibilitychange", startWaiting);
  return {
    next: () =>
      new Promise((resolve) => {
        const start = (): void => {
          clearTimeout(timer);
          waiting.delete(start);
          resolve();
        };
        const timer = setTimeout(start, 0);
        waiting.add(start);
      }),
    stop: () => {
      page?.removeEventListener("pagehide", startWaiting);
      page?.removeEventListener("visibilitychange", startWaiting);
      startWaiting();
    },
  };
}

/** The writes to IndexedDB, one after another, and the save status they keep up to date. */
interface AnnotationsWriter {
  /** Store what changed from `before` to `after` under `fp` (nothing if nothing did). */
  write(fp: string, name: string, before: Annotations, after: Annotations): void;
  /** Delete what is stored under `fp`, after every write so far. */
  clear(fp: string): Promise<void>;
  /** Writes not finished yet. */
  pending(): number;
  /** Resolves when every write so far has finished. */
  flushed(): Promise<void>;
  stop(): void;
}

function annotationsWriter(db: AnnotationsDb, status: StatusStore): AnnotationsWriter {
  const gate = nextTaskGate();
  let writes: Promise<void> = Promise.resolve();
  let pending = 0;

  /** The saved state with the current count of unfinished writes (an error stays shown). */
  const savedState = (): void => {
    const persist = status.getState().persist;
    if (persist.status === "error") return;
    status.setState({
      persist: {
        status: "saved",
        at: Date.now(),
        restored: persist.status === "saved" ? persist.restored : 0,
        rejected: persist.status === "saved" ? persist.rejected : [],
        pending,
      },
    });
  };

  const write = (fp: string, name: string, before: Annotations, after: Annotations): void => {
    const changes = annotationChanges(before, after);
    const extras = extrasChanges(before, after);
    const metaChanged =
      before.annotator !== after.annotator || before.hackReasons !== after.hackReasons;
    if (changes.length === 0 && !metaChanged && Object.keys(extras).length === 0) return;
    const meta = { annotator: after.annotator, hackReasons: after.hackReasons };
    pending++;
    savedState();
    // The write (a structured clone of the group and the IndexedDB request) starts in a task of its
    // own, after the one that made the change: not inside a keystroke's handler and frame.
    const started = gate.next();
    writes = writes
      .then(() => started)
      .then(() => db.save(fp, name, meta, changes, extras))
      .then(
        () => {
          pending--;
          savedState();
        },
        (e: unknown) => {
          pending--;
          status.setState({ persist: { status: "error", message: persistErrorMessage(e) } });
        },
      );
  };

  return {
    write,
    clear: (fp) => {
      writes = writes.then(() => db.clear(fp));
      return writes;
    },
    pending: () => pending,
    flushed: () => writes,
    stop: () => gate.stop(),
  };
}

/**
 * The annotations once the stored ones are restored: annotations made while restoring win over
 * stored ones (group by group, and each extra or file-level field the user changed meanwhile).
 */
function mergeRestored(current: Annotations, stored: Annotations): Annotations {
  // The file-level fields: the stored ones, unless the user changed them while restoring.
  const fresh = current.annotator === "" && current.hackReasons === ANNOTATIONS_EMPTY.hackReasons;
  const untouched = <K extends keyof Annotations>(k: K): boolean =>
    current[k] === ANNOTATIONS_EMPTY[k];
  return {
    ...(fresh ? stored : current),
    groups: { ...stored.groups, ...current.groups },
    // Each extra: the stored one unless it was changed while restoring.
    judgeRuns: untouched("judgeRuns") ? stored.judgeRuns : current.judgeRuns,
    rubrics: untouched("rubrics") ? stored.rubrics : current.rubrics,
    calibration: untouched("calibration") ? stored.calibration : current.calibration,
  };
}

export function startAnnotationsSync(
  store: SyncedStore,
  db: AnnotationsDb,
  status: StatusStore,
): AnnotationsSync {
  const writer = annotationsWriter(db, status);
  let fingerprint: string | null = null;
  let file = "";
  let generation = 0;
  let applyingRestore = false;
  let restoringNow = false;

  const open = (load: Parameters<typeof loadFingerprint>[0]): void => {
    const mine = ++generation;
    fingerprint = null;
    file = load.dataset.file;
    status.setState({ persist: { status: "restoring" } });
    loadFingerprint(load)
      .then(async (fp) => {
        const restored = await db.load(fp);
        if (mine !== generation) return;
        fingerprint = fp;
        // Annotations made while restoring win over stored ones, and are written now.
        const merged = mergeRestored(store.getState().annotations, restored.annotations);
        applyingRestore = true;
        restoringNow = true;
        try {
          store.setState({ annotations: merged });
        } finally {
          applyingRestore = false;
          restoringNow = false;
        }
        status.setState({
          persist: {
            status: "saved",
            at: Date.now(),
            restored: Object.keys(restored.annotations.groups).length,
            rejected: restored.rejected,
            pending: writer.pending(),
          },
        });
        writer.write(fp, file, restored.annotations, merged);
      })
      .catch((e: unknown) => {
        if (mine === generation)
          status.setState({ persist: { status: "error", message: persistErrorMessage(e) } });
      });
  };

  const unsubscribe = store.subscribe((state, previous) => {
    // A new dataset first: its annotations must never be written under the old fingerprint.
    if (state.load !== previous.load) {
      if (state.load.status !== "ready") {
        if (previous.load.status === "ready") {
          generation++;
          fingerprint = null;
          status.setState({ persist: { status: "off" } });
        }
        return;
      }
      if (previous.load.status !== "ready") {
        open(state.load);
        return;
      }
    }
    if (state.annotations !== previous.annotations && !applyingRestore && fingerprint !== null)
      writer.write(fingerprint, file, previous.annotations, state.annotations);
  });

  return {
    fingerprint: () => fingerprint,
    async clear() {
      const fp = fingerprint;
      applyingRestore = true;
      store.setState({ annotations: ANNOTATIONS_EMPTY });
      applyingRestore = false;
      if (fp === null) return;
      await writer.clear(fp);
      status.setState({
        persist: {
          status: "saved",
          at: Date.now(),
          restored: 0,
          rejected: [],
          pending: writer.pending(),
        },
      });
    },
    flushed: () => writer.flushed(),
    restoring: () => restoringNow,
    stop: () => {
      unsubscribe();
      writer.stop();
    },
  };
}
