/**
 * `analyze`'s worker threads (issue 16, point 4): the groups of an indexed file are read, parsed
 * and analysed by ./thread.ts in several threads, a range of groups per job, and handed back here
 * in the file's group order. Only analyses and tallies come back; memory stays bounded.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

import type { AnalysisSettings, ResolvedAnnotations } from "../../core/index.ts";
import type { PackedIndex } from "../../io/index.ts";
import type { AnalyzedGroup, AnalyzeThreadReply, AnalyzeThreadRequest } from "./protocol.ts";

/** Below this many bytes a file is analysed in the main thread: starting threads costs more. */
export const THREADS_FROM_BYTES = 16 * 1024 * 1024;
/** A job is groups up to this many rows (or MAX_JOB_GROUPS groups), so every thread keeps busy. */
const JOB_ROWS = 2048;
const MAX_JOB_GROUPS = 1024;

/**
 * How many threads analyse a file of `size` bytes: ROLLOUT_STUDIO_ANALYZE_THREADS when set (0 or
 * 1: none), else one per core up to four from {@link THREADS_FROM_BYTES}, else none (0).
 */
export function analyzeThreadCount(
  env: Readonly<Record<string, string | undefined>>,
  size: number,
  cores: number = availableParallelism(),
): number {
  const raw = env.ROLLOUT_STUDIO_ANALYZE_THREADS;
  const set = raw === undefined || raw.trim() === "" ? NaN : Number(raw);
  if (Number.isInteger(set) && set >= 0) return set <= 1 ? 0 : set;
  return size >= THREADS_FROM_BYTES && cores >= 2 ? Math.min(cores, 4) : 0;
}

/** The thread's entry: the built one beside the built CLI, else the TypeScript one through tsx. */
function startThread(): Worker {
  const here = import.meta.url;
  if (!here.endsWith(".ts")) {
    for (const relative of ["./analyze-thread.mjs", "../analyze-thread.mjs"]) {
      const url = new URL(relative, here);
      if (existsSync(fileURLToPath(url))) return new Worker(url);
    }
    throw new Error("the analyze thread (analyze-thread.mjs) is missing beside the built CLI");
  }
  const entry = new URL("./thread.ts", here).href;
  // worker_threads cannot load TypeScript by itself: tsx's API imports the entry in the thread.
  return new Worker(
    `import("tsx/esm/api").then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`,
    { eval: true },
  );
}

export interface ThreadedAnalyzeJob {
  readonly path: string;
  readonly name: string;
  readonly size: number;
  readonly index: PackedIndex;
  readonly settings: AnalysisSettings;
  readonly annotations: ResolvedAnnotations | undefined;
  /** Per group of the index's order: 1 when its tally is wanted (see indexedGroupsForCli). */
  readonly fresh: Uint8Array;
  readonly threads: number;
  /** Each group's outcome, in the index's group order. */
  readonly onGroup: (group: AnalyzedGroup) => void;
}

/** The jobs: consecutive ranges of groups of about JOB_ROWS rows each. */
function jobRanges(index: PackedIndex): [number, number][] {
  const ranges: [number, number][] = [];
  const groups = index.groupIds.length;
  let from = 0;
  while (from < groups) {
    let to = from + 1;
    while (
      to < groups &&
      to - from < MAX_JOB_GROUPS &&
      index.starts[to + 1]! - index.starts[from]! <= JOB_ROWS
    )
      to++;
    ranges.push([from, to]);
    from = to;
  }
  return ranges;
}

/** Analyse every group of the index in `threads` threads; resolves once each was handed over. */
export function analyzeInThreads(job: ThreadedAnalyzeJob): Promise<void> {
  const ranges = jobRanges(job.index);
  const results = new Map<number, readonly AnalyzedGroup[]>();
  let nextJob = 0;
  let handed = 0;
  const threads: Worker[] = [];
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null): void => {
      if (settled) return;
      settled = true;
      for (const t of threads) t.terminate().catch(() => undefined);
      if (error === null) resolve();
      else reject(error);
    };
    const handOver = (): void => {
      // In order: job k's groups only once every job before it was handed over.
      for (let r = results.get(handed); r !== undefined; r = results.get(handed)) {
        results.delete(handed);
        for (const g of r) job.onGroup(g);
        handed++;
      }
      if (handed === ranges.length) finish(null);
    };
    const give = (thread: Worker): void => {
      if (nextJob >= ranges.length) return;
      const [from, to] = ranges[nextJob]!;
      thread.postMessage({
        kind: "job",
        job: nextJob++,
        from,
        to,
      } satisfies AnalyzeThreadRequest);
    };
    if (ranges.length === 0) {
      finish(null);
      return;
    }
    const setup: AnalyzeThreadRequest = {
      kind: "setup",
      path: job.path,
      name: job.name,
      size: job.size,
      index: job.index,
      settings: job.settings,
      annotations: [...(job.annotations?.byGroup ?? new Map())],
      fresh: job.fresh,
    };
    for (let t = 0; t < Math.min(job.threads, ranges.length); t++) {
      const thread = startThread();
      threads.push(thread);
      thread.on("message", (reply: AnalyzeThreadReply) => {
        try {
          if (reply.kind === "ready") {
            thread.postMessage(setup);
            // Two jobs each: the next is there when one ends.
            give(thread);
            give(thread);
          } else if (reply.kind === "error") {
            finish(new Error(`an analyze thread failed: ${reply.message}`));
          } else {
            results.set(reply.job, reply.groups);
            give(thread);
            handOver();
          }
        } catch (e) {
          finish(e instanceof Error ? e : new Error(String(e)));
        }
      });
      thread.on("error", (e) => finish(e));
      thread.on("exit", (code) => {
        if (code !== 0) finish(new Error(`an analyze thread exited with code ${code}`));
      });
    }
  });
}
