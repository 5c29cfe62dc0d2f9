/**
 * One load, wherever it runs (worker or main-thread fallback): pick the path (index a large JSONL
 * file, or read and parse the whole file), and report through `emit`.
 */
import {
  AmbiguousFormatError,
  completeLinesSize,
  datasetFromLoad,
  extendIndexedFile,
  readIndexedGroup,
  httpByteSource,
  LoadError,
  loadBytes,
  INDEX_MIN_BYTES,
  compactIndexedState,
  indexBlobIfPossible,
  isTrajectoryPath,
  LoadCancelled,
  readFileBytes,
  runDatasetMerge,
  runFileInstead,
  withRunHeader,
  type RunHeader,
  sourcePrefix,
  type ByteSource,
  type FormatOptions,
  type IndexedState,
  type LoadedDataset,
  type ParseIssue,
  type RunGroupOrigin,
  type RunPart,
  type RunReport,
  namedSource,
  runFormatHint,
  unpackIndex,
  type RunFileIndex,
  type RunFormatHint,
} from "../io/index.ts";
import type { RolloutGroup } from "../core/index.ts";

import { inThreadIndexPool, type IndexPool } from "./indexPool.ts";
import type { LoadReply, LoadRequest } from "./protocol.ts";

const PROGRESS_EVERY_BYTES = 8 << 20;

export interface LoadJob {
  readonly requestId: number;
  /** A File, or a remote file's range-request source. */
  readonly file: ByteSource;
  readonly format?: string;
  readonly options?: FormatOptions;
  readonly indexThreshold?: number;
  /** The file is being written (a followed remote file): keep its index open to extend it. */
  readonly follow?: boolean;
}

/** The error reply for a failed load: the format choice, the mapping offer, or the message. */
function errorReply(requestId: number, name: string, e: unknown): LoadReply {
  if (e instanceof LoadCancelled) return { kind: "cancelled", requestId };
  if (e instanceof AmbiguousFormatError)
    return { kind: "error", requestId, message: e.message, candidates: e.candidates };
  if (e instanceof LoadError)
    return {
      kind: "error",
      requestId,
      message: e.message,
      unknownFormat: /no known format/.test(e.message),
    };
  return {
    kind: "error",
    requestId,
    message: `${name}: ${e instanceof Error ? e.message : String(e)}`,
  };
}

/**
 * A run's indexes, for the groups of its files that were indexed: each file's state (null for a
 * file read whole), and where each run group came from (io's runDatasetMerge origins).
 */
export interface RunIndex {
  readonly parts: readonly (IndexedState | null)[];
  readonly origins: ReadonlyMap<string, RunGroupOrigin>;
}

/** What the worker keeps to parse groups on demand: one file's index, or a run's. */
export type WorkerIndex = IndexedState | RunIndex;

const isRunIndex = (index: WorkerIndex): index is RunIndex => "origins" in index;

const QUIET = { onProgress: () => undefined, onFirstGroup: () => undefined };

/**
 * One file of a run: indexed when asked and its format can be (its groups then parse on demand),
 * else read and parsed whole. A run of `INDEX_MIN_BYTES` or more is indexed file by file, whatever
 * each file's size: a run of a hundred 20 MB steps is as large as one 2 GB file.
 */
async function loadRunPart(
  path: string,
  source: ByteSource,
  format: string | undefined,
  index: boolean,
  follow: boolean,
  isCancelled: () => boolean,
  runKind = "files",
): Promise<{ dataset: LoadedDataset; state: IndexedState | null } | RunPartInstead> {
  const file = namedSource(source, path);
  if (index) {
    const indexed = await indexBlobIfPossible(file, format, { ...QUIET, isCancelled }, follow);
    if (indexed !== null)
      return { ...indexed, state: compactIndexedState(indexed.state, indexed.dataset) };
  }
  const bytes = await readFileBytes(file, () => undefined, isCancelled);
  try {
    const result = await loadBytes(path, bytes, format === undefined ? {} : { format });
    return { dataset: datasetFromLoad(result), state: null };
  } catch (e) {
    if (e instanceof LoadError) {
      const instead = runFileInstead(path, runKind, bytes, e);
      if (instead !== null) return instead;
    }
    throw e;
  }
}

/**
 * A run file that holds no rollouts: an evaluation report, the run's header (verifiers'
 * metadata.json), or a file left out with an issue.
 */
type RunPartInstead =
  { readonly report: RunReport } | { readonly header: RunHeader } | { readonly issue: ParseIssue };

const isPart = (
  p: { dataset: LoadedDataset; state: IndexedState | null } | RunPartInstead,
): p is { dataset: LoadedDataset; state: IndexedState | null } => "dataset" in p;

/** The run's index, when any file of it was indexed; else null. */
function runIndexOf(
  states: readonly (IndexedState | null)[],
  dataset: { readonly run: { readonly origins: ReadonlyMap<string, RunGroupOrigin> } },
): RunIndex | null {
  return states.some((s) => s !== null) ? { parts: states, origins: dataset.run.origins } : null;
}

/** Parse one group of an indexed file or run, under its id in the dataset. */
export async function readWorkerGroup(
  index: WorkerIndex,
  groupId: string,
): Promise<{ group: RolloutGroup | null; issues: ParseIssue[] }> {
  if (!isRunIndex(index)) return readIndexedGroup(index, groupId);
  const origin = index.origins.get(groupId);
  const state = origin === undefined ? null : (index.parts[origin.file] ?? null);
  if (origin === undefined || state === null) return { group: null, issues: [] };
  const { group, issues } = await readIndexedGroup(state, origin.localId);
  if (group === null || group.id === groupId) return { group, issues };
  // The run's id is the file's with a prefix (`<step>/`, or `<file>:` for a collision).
  const prefix = groupId.slice(0, groupId.length - origin.localId.length);
  return {
    group: {
      id: groupId,
      rollouts: group.rollouts.map((r) => ({ ...r, id: `${prefix}${r.id}`, groupId })),
    },
    issues,
  };
}

/** One run file's load: its dataset (and index, when indexed), or what it holds instead. */
type PartLoad = { dataset: LoadedDataset; state: IndexedState | null } | RunPartInstead;

/**
 * Index a large run's files through `pool` (several at once in worker threads, or one after another
 * here), with the format detected once on the first file. A file the pool cannot index is read
 * here instead, as before: whole when its format has no index, or indexed again here after a
 * failure, which reports the same error an in-thread load would. The loads come back in run order.
 */
async function indexRunParts(
  job: Extract<LoadRequest, { kind: "load-run" }>,
  pool: IndexPool,
  isCancelled: () => boolean,
  kind: string,
  onBytes: (bytes: number) => void,
): Promise<PartLoad[]> {
  const first = job.files[0];
  let hint: RunFormatHint | null = null;
  try {
    if (first !== undefined)
      hint = await runFormatHint(namedSource(first.file, first.run.path), job.format);
  } catch {
    // The first file's own load reports why its format is not known.
  }
  let done = 0;
  const inFlight = new Map<number, number>();
  const report = (): void => {
    let bytes = done;
    for (const b of inFlight.values()) bytes += b;
    onBytes(bytes);
  };
  const loads = job.files.map(async ({ file, run }, k): Promise<PartLoad> => {
    let result: RunFileIndex | null;
    try {
      result = await pool.index(
        {
          file,
          path: run.path,
          hint,
          ...(job.format === undefined ? {} : { format: job.format }),
        },
        {
          isCancelled,
          onProgress: (bytes) => {
            inFlight.set(k, bytes);
            report();
          },
        },
      );
    } catch (e) {
      if (e instanceof LoadCancelled) throw e;
      result = null;
    }
    const load: PartLoad =
      result?.kind === "indexed"
        ? { dataset: result.dataset, state: unpackIndex(result.index, namedSource(file, run.path)) }
        : await loadRunPart(run.path, file, job.format, result === null, false, isCancelled, kind);
    inFlight.delete(k);
    done += file.size;
    report();
    return load;
  });
  // Awaited in run order, so the first file that fails is the one reported, as in a sequential load.
  for (const load of loads) load.catch(() => undefined);
  const out: PartLoad[] = [];
  for (const load of loads) out.push(await load);
  return out;
}

/**
 * Load a run: every file in run order, named by its path in the run (so issues name it), then
 * merged into one dataset. A run of 32 MB or more (`indexThreshold`) is indexed file by file where
 * its format allows, through the pool `indexPool` gives (null: in this thread; indexRunParts); the
 * returned index parses its groups on demand.
 */
export async function runLoadRun(
  job: Extract<LoadRequest, { kind: "load-run" }>,
  emit: (reply: LoadReply) => void,
  isCancelled: () => boolean,
  indexPool: () => IndexPool | null = () => null,
): Promise<RunIndex | null> {
  const { requestId } = job;
  const totalBytes = job.files.reduce((s, f) => s + f.file.size, 0);
  const index = totalBytes >= (job.indexThreshold ?? INDEX_MIN_BYTES);
  const phase = index ? "indexing" : "reading";
  const progress = (bytes: number): void =>
    emit({ kind: "progress", requestId, phase, bytes, totalBytes });
  try {
    const parts: RunPart[] = [];
    const states: (IndexedState | null)[] = [];
    const reports: RunReport[] = [];
    const headers: RunHeader[] = [];
    const leftOut: ParseIssue[] = [];
    const kind = job.files.some((f) => isTrajectoryPath(f.run.path))
      ? "agent-trajectories"
      : "files";
    progress(0);
    let loads: PartLoad[];
    if (index) {
      let reported = 0;
      const pool = indexPool() ?? inThreadIndexPool();
      loads = await indexRunParts(job, pool, isCancelled, kind, (bytes) => {
        if (bytes - reported < PROGRESS_EVERY_BYTES && bytes < totalBytes) return;
        reported = bytes;
        progress(bytes);
      });
    } else {
      loads = [];
      let done = 0;
      for (const { file, run } of job.files) {
        if (done > 0) progress(done);
        loads.push(await loadRunPart(run.path, file, job.format, false, false, isCancelled, kind));
        if (isCancelled()) throw new LoadCancelled();
        done += file.size;
      }
    }
    if (isCancelled()) throw new LoadCancelled();
    job.files.forEach(({ run }, k) => {
      const part = loads[k]!;
      if (!isPart(part)) {
        if ("report" in part) reports.push(part.report);
        else if ("header" in part) headers.push(part.header);
        else leftOut.push(part.issue);
        return;
      }
      parts.push({ file: run, dataset: part.dataset });
      states.push(part.state);
    });
    if (parts.length === 0)
      throw new LoadError(job.name, "no file of the run holds rollouts (only evaluation reports)");
    const merged = withRunHeader(runDatasetMerge(job.name, parts, reports), headers);
    const dataset =
      leftOut.length === 0 ? merged : { ...merged, issues: [...leftOut, ...merged.issues] };
    emit({ kind: "done", requestId, dataset });
    return runIndexOf(states, dataset);
  } catch (e) {
    emit(errorReply(requestId, job.name, e));
    return null;
  }
}

/**
 * Run a load. Returns the indexed state when the file was indexed (the caller keeps it to parse
 * groups later), else null.
 */
export async function runLoad(
  job: LoadJob,
  emit: (reply: LoadReply) => void,
  isCancelled: () => boolean,
): Promise<IndexedState | null> {
  const { requestId, file } = job;
  try {
    if (file.size >= (job.indexThreshold ?? INDEX_MIN_BYTES) && job.options === undefined) {
      emit({
        kind: "progress",
        requestId,
        phase: "indexing",
        bytes: 0,
        totalBytes: file.size,
        rows: 0,
        groups: 0,
      });
      const indexed = await indexBlobIfPossible(
        file,
        job.format,
        {
          isCancelled,
          onProgress: (bytes, rows, groups) =>
            emit({
              kind: "progress",
              requestId,
              phase: "indexing",
              bytes,
              totalBytes: file.size,
              rows,
              groups,
            }),
          onFirstGroup: (group) => emit({ kind: "first-group", requestId, group }),
        },
        job.follow ?? false,
      );
      if (indexed !== null) {
        emit({ kind: "done", requestId, dataset: indexed.dataset });
        return compactIndexedState(indexed.state, indexed.dataset);
      }
    }
    let lastReported = -Infinity;
    emit({ kind: "progress", requestId, phase: "reading", bytes: 0, totalBytes: file.size });
    const bytes = await readFileBytes(
      file,
      (n) => {
        if (n - lastReported < PROGRESS_EVERY_BYTES && n < file.size) return;
        lastReported = n;
        emit({ kind: "progress", requestId, phase: "reading", bytes: n, totalBytes: file.size });
      },
      isCancelled,
    );
    emit({
      kind: "progress",
      requestId,
      phase: "parsing",
      bytes: bytes.length,
      totalBytes: file.size,
    });
    const result = await loadBytes(file.name, bytes, {
      ...(job.format === undefined ? {} : { format: job.format }),
      ...(job.options === undefined ? {} : { options: job.options }),
    });
    if (isCancelled()) throw new LoadCancelled();
    emit({ kind: "done", requestId, dataset: datasetFromLoad(result) });
    return null;
  } catch (e) {
    emit(errorReply(requestId, file.name, e));
    return null;
  }
}

/**
 * What a worker keeps of a remote run between reads: each file's dataset by id, and a single
 * indexed file's open index (extended with what was appended instead of indexed again).
 */
export interface RemoteCache {
  readonly files: Map<
    string,
    {
      readonly size: number;
      readonly dataset: LoadedDataset;
      /** The file's open index, when it was indexed (extended when it grows). */
      readonly state: IndexedState | null;
    }
  >;
  indexed: { readonly id: string; readonly state: IndexedState } | null;
}

export const remoteCacheEmpty = (): RemoteCache => ({ files: new Map(), indexed: null });

/**
 * Load a run from the view server (issue 14, points 4 and 5). Each file is read by range requests
 * up to its last complete line (a half-written line is held back, not an issue: io's
 * completeLinesSize). One file loads as a local File would (indexed when large); several are read
 * and merged as a run, and on a later call the files whose complete size did not change come from
 * `cache` instead of being read again. A file that does not load (a Parquet file half written, a
 * file gone since the listing) is one issue naming it; the run's other files still load.
 *
 * @returns the indexed state when the one file was indexed, else null
 */
export async function runLoadRemote(
  job: Extract<LoadRequest, { kind: "load-remote" }>,
  emit: (reply: LoadReply) => void,
  isCancelled: () => boolean,
  cache: RemoteCache,
): Promise<WorkerIndex | null> {
  const { requestId } = job;
  try {
    const sources = await Promise.all(
      job.files.map(async (ref) => {
        const full = httpByteSource({
          url: ref.url,
          name: ref.run.path,
          size: ref.run.size,
          headers: job.headers,
        });
        const { size, heldBack } = await completeLinesSize(full);
        return { ref, source: sourcePrefix(full, size), heldBack };
      }),
    );
    const heldBack = sources.reduce((n, s) => n + s.heldBack, 0);
    if (sources.length === 1) {
      const only = sources[0]!;
      cache.files.clear();
      const previous = cache.indexed;
      cache.indexed = null;
      if (
        previous !== null &&
        previous.id === only.ref.id &&
        !(job.reread ?? []).includes(only.ref.id)
      ) {
        const dataset = await extendIndexedFile(previous.state, only.source, {
          isCancelled,
          onProgress: () => undefined,
          onFirstGroup: () => undefined,
        });
        if (dataset !== null) {
          cache.indexed = previous;
          emit({ kind: "done", requestId, dataset, heldBack });
          return previous.state;
        }
      }
      let indexed: IndexedState | null = null;
      await runLoad(
        {
          requestId,
          file: only.source,
          follow: true,
          ...(job.format === undefined ? {} : { format: job.format }),
          ...(job.indexThreshold === undefined ? {} : { indexThreshold: job.indexThreshold }),
        },
        (reply) => emit(reply.kind === "done" ? { ...reply, heldBack } : reply),
        isCancelled,
      ).then((state) => (indexed = state));
      if (indexed !== null) cache.indexed = { id: only.ref.id, state: indexed };
      return indexed;
    }
    cache.indexed = null;
    for (const id of job.reread ?? []) cache.files.delete(id);
    const live = new Set(job.files.map((f) => f.id));
    for (const id of [...cache.files.keys()]) if (!live.has(id)) cache.files.delete(id);
    const totalBytes = sources.reduce((n, s) => n + s.source.size, 0);
    const index = totalBytes >= (job.indexThreshold ?? INDEX_MIN_BYTES);
    let done = 0;
    const parts: RunPart[] = [];
    const states: (IndexedState | null)[] = [];
    const failed: ParseIssue[] = [];
    const reports: RunReport[] = [];
    const headers: RunHeader[] = [];
    const kind = sources.some((s) => isTrajectoryPath(s.ref.run.path))
      ? "agent-trajectories"
      : "files";
    for (const { ref, source } of sources) {
      const file = { ...ref.run, size: source.size };
      const cached = cache.files.get(ref.id);
      if (cached !== undefined && cached.size === source.size) {
        parts.push({ file, dataset: cached.dataset });
        states.push(cached.state);
        done += source.size;
        continue;
      }
      emit({
        kind: "progress",
        requestId,
        phase: index ? "indexing" : "reading",
        bytes: done,
        totalBytes,
      });
      try {
        // A followed indexed file that grew is indexed from where its last read stopped.
        const grown =
          cached?.state?.progress !== undefined
            ? await extendIndexedFile(cached.state, namedSource(source, ref.run.path), {
                ...QUIET,
                isCancelled,
              })
            : null;
        const loaded =
          grown !== null && cached?.state !== undefined && cached.state !== null
            ? { dataset: grown, state: cached.state }
            : await loadRunPart(ref.run.path, source, job.format, index, true, isCancelled, kind);
        if (!isPart(loaded)) {
          if ("report" in loaded) reports.push(loaded.report);
          else if ("header" in loaded) headers.push(loaded.header);
          else failed.push(loaded.issue);
          done += source.size;
          continue;
        }
        const part = loaded;
        cache.files.set(ref.id, { size: source.size, ...part });
        parts.push({ file, dataset: part.dataset });
        states.push(part.state);
      } catch (e) {
        if (e instanceof LoadCancelled) throw e;
        cache.files.delete(ref.id);
        failed.push({
          file: ref.run.path,
          line: 0,
          message: `${e instanceof Error ? e.message : String(e)} (the file is left out of the run; it is read again when it changes)`,
        });
      }
      if (isCancelled()) throw new LoadCancelled();
      done += source.size;
    }
    if (parts.length === 0)
      throw new LoadError(
        job.name,
        `no file of the run could be read: ${failed.map((i) => `${i.file}: ${i.message}`).join("; ")}`,
      );
    const merged = withRunHeader(runDatasetMerge(job.name, parts, reports), headers);
    emit({
      kind: "done",
      requestId,
      dataset: failed.length === 0 ? merged : { ...merged, issues: [...failed, ...merged.issues] },
      heldBack,
    });
    return runIndexOf(states, merged);
  } catch (e) {
    emit(errorReply(requestId, job.name, e));
    return null;
  }
}
