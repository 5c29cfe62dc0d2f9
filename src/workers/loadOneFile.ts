/**
 * One file's load (runLoad): index a large JSONL file, or read and parse the whole file.
 */
import {
  datasetFromLoad,
  loadBytes,
  INDEX_MIN_BYTES,
  compactIndexedState,
  indexBlobIfPossible,
  LoadCancelled,
  readFileBytes,
  type ByteSource,
  type FormatOptions,
  type IndexedState,
} from "../io/index.ts";

import { errorReply, PROGRESS_EVERY_BYTES } from "./loadReplies.ts";
import type { LoadReply } from "./protocol.ts";

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
