/**
 * A run's load from local files (runLoadRun): every file in run order, indexed through a pool of
 * threads when the run is large, then merged into one dataset.
 */
import {
  LoadError,
  INDEX_MIN_BYTES,
  isTrajectoryPath,
  LoadCancelled,
  runDatasetMerge,
  withRunHeader,
  type RunHeader,
  type IndexedState,
  type ParseIssue,
  type RunPart,
  type RunReport,
  namedSource,
  runFormatHint,
  unpackIndex,
  type RunFileIndex,
  type RunFormatHint,
} from "../io/index.ts";

import { inThreadIndexPool, type IndexPool } from "./indexPool.ts";
import { errorReply, PROGRESS_EVERY_BYTES } from "./loadReplies.ts";
import { isPart, loadRunPart, runIndexOf, type PartLoad, type RunIndex } from "./loadRunParts.ts";
import type { LoadReply, LoadRequest } from "./protocol.ts";

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
