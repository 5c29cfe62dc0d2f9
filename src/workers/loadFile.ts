/**
 * One load, wherever it runs (worker or main-thread fallback): pick the path (index a large JSONL
 * file, or read and parse the whole file), and report through `emit`.
 */
import {
  AmbiguousFormatError,
  datasetFromLoad,
  LoadError,
  loadBytes,
  INDEX_MIN_BYTES,
  indexBlobIfPossible,
  LoadCancelled,
  readFileBytes,
  runDatasetMerge,
  type FormatOptions,
  type IndexedState,
} from "../io/index.ts";

import type { LoadReply, LoadRequest } from "./protocol.ts";

const PROGRESS_EVERY_BYTES = 8 << 20;

export interface LoadJob {
  readonly requestId: number;
  readonly file: File;
  readonly format?: string;
  readonly options?: FormatOptions;
  readonly indexThreshold?: number;
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
      const indexed = await indexBlobIfPossible(file, job.format, {
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
      });
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
