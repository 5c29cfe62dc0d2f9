/**
 * One load, wherever it runs (worker or main-thread fallback): pick the path (index a large JSONL
 * file, or read and parse the whole file), and report through `emit`.
 */
import {
  AmbiguousFormatError,
  completeLinesSize,
  datasetFromLoad,
  extendIndexedFile,
  httpByteSource,
  LoadError,
  loadBytes,
  INDEX_MIN_BYTES,
  indexBlobIfPossible,
  LoadCancelled,
  readFileBytes,
  runDatasetMerge,
  sourcePrefix,
  type ByteSource,
  type FormatOptions,
  type IndexedState,
  type LoadedDataset,
  type ParseIssue,
  type RunPart,
} from "../io/index.ts";

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
 * Load a run: every file read and parsed whole, in run order, named by its path in the run (so
 * issues name it), then merged into one dataset. Files of a run are not indexed: the worker keeps
 * one index, for one file (see README, "Runs").
 */
export async function runLoadRun(
  job: Extract<LoadRequest, { kind: "load-run" }>,
  emit: (reply: LoadReply) => void,
  isCancelled: () => boolean,
): Promise<void> {
  const { requestId } = job;
  const totalBytes = job.files.reduce((s, f) => s + f.file.size, 0);
  let done = 0;
  try {
    const parts = [];
    for (const { file, run } of job.files) {
      emit({ kind: "progress", requestId, phase: "reading", bytes: done, totalBytes });
      const bytes = await readFileBytes(file, () => undefined, isCancelled);
      emit({
        kind: "progress",
        requestId,
        phase: "parsing",
        bytes: done + bytes.length,
        totalBytes,
      });
      const result = await loadBytes(
        run.path,
        bytes,
        job.format === undefined ? {} : { format: job.format },
      );
      if (isCancelled()) throw new LoadCancelled();
      done += bytes.length;
      parts.push({ file: run, dataset: datasetFromLoad(result) });
    }
    emit({ kind: "done", requestId, dataset: runDatasetMerge(job.name, parts) });
  } catch (e) {
    emit(errorReply(requestId, job.name, e));
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
        return indexed.state;
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
  readonly files: Map<string, { readonly size: number; readonly dataset: LoadedDataset }>;
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
): Promise<IndexedState | null> {
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
    let done = 0;
    const parts: RunPart[] = [];
    const failed: ParseIssue[] = [];
    for (const { ref, source } of sources) {
      const file = { ...ref.run, size: source.size };
      const cached = cache.files.get(ref.id);
      if (cached !== undefined && cached.size === source.size) {
        parts.push({ file, dataset: cached.dataset });
        done += source.size;
        continue;
      }
      emit({ kind: "progress", requestId, phase: "reading", bytes: done, totalBytes });
      try {
        const bytes = await readFileBytes(source, () => undefined, isCancelled);
        const result = await loadBytes(
          ref.run.path,
          bytes,
          job.format === undefined ? {} : { format: job.format },
        );
        const dataset = datasetFromLoad(result);
        cache.files.set(ref.id, { size: source.size, dataset });
        parts.push({ file, dataset });
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
    const merged = runDatasetMerge(job.name, parts);
    emit({
      kind: "done",
      requestId,
      dataset: failed.length === 0 ? merged : { ...merged, issues: [...failed, ...merged.issues] },
      heldBack,
    });
    return null;
  } catch (e) {
    emit(errorReply(requestId, job.name, e));
    return null;
  }
}
