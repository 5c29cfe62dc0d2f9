/**
 * One load, wherever it runs (worker or main-thread fallback): pick the path (index a large JSONL
 * file, or read and parse the whole file), and report through `emit`.
 */
import {
  AmbiguousFormatError,
  chooseFormat,
  datasetFromLoad,
  decodeRecord,
  formatIndexFor,
  LoadError,
  loadBytes,
  sniffContainer,
  splitJsonlBytes,
  type FormatOptions,
} from "../io/index.ts";
import { indexJsonlFile, type IndexedState } from "./indexedLoad.ts";
import type { LoadReply } from "./protocol.ts";
import { LoadCancelled, readFileBytes } from "./readFile.ts";

/** Below this, reading and parsing the whole file is simplest and fast enough. */
export const INDEX_MIN_BYTES = 32 << 20;
const HEAD_BYTES = 4 << 20;
const PROGRESS_EVERY_BYTES = 8 << 20;

export interface LoadJob {
  readonly requestId: number;
  readonly file: File;
  readonly format?: string;
  readonly options?: FormatOptions;
  readonly indexThreshold?: number;
}

/** The first records of a large JSONL file, for format detection without reading it all. */
async function sampleHead(
  file: File,
): Promise<{ container: ReturnType<typeof sniffContainer>; sample: unknown[] }> {
  const head = new Uint8Array(await file.slice(0, Math.min(file.size, HEAD_BYTES)).arrayBuffer());
  const container = sniffContainer(file.name, head);
  if (container !== "jsonl") return { container, sample: [] };
  const { records } = splitJsonlBytes(head);
  // The last line of a cut head may be incomplete.
  const whole = file.size > head.length ? records.slice(0, -1) : records;
  const sample: unknown[] = [];
  for (const r of whole.slice(0, 50)) {
    const decoded = decodeRecord(head.subarray(r.start, r.end));
    if (!decoded.ok) continue;
    try {
      sample.push(JSON.parse(decoded.text));
    } catch {
      // Detection skips lines it cannot parse; the full load reports them.
    }
  }
  return { container, sample };
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
      const { container, sample } = await sampleHead(file);
      if (container === "jsonl") {
        const { spec, candidates } = chooseFormat(
          file.name,
          container,
          sample,
          undefined,
          job.format,
        );
        const index = formatIndexFor(spec.id);
        if (index !== undefined) {
          emit({
            kind: "progress",
            requestId,
            phase: "indexing",
            bytes: 0,
            totalBytes: file.size,
            rows: 0,
            groups: 0,
          });
          const { dataset, state } = await indexJsonlFile(file, spec, index, candidates, {
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
          emit({ kind: "done", requestId, dataset });
          return state;
        }
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
    if (e instanceof LoadCancelled) emit({ kind: "cancelled", requestId });
    else if (e instanceof AmbiguousFormatError)
      emit({ kind: "error", requestId, message: e.message, candidates: e.candidates });
    else if (e instanceof LoadError)
      emit({
        kind: "error",
        requestId,
        message: e.message,
        unknownFormat: /no known format/.test(e.message),
      });
    else
      emit({
        kind: "error",
        requestId,
        message: `${file.name}: ${e instanceof Error ? e.message : String(e)}`,
      });
    return null;
  }
}
