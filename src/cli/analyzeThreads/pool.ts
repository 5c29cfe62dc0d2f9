/**
 * `analyze`'s worker threads (issue 16, point 4): the groups of an indexed file are read, parsed
 * and analysed by ./thread.ts in several threads, a job of a few groups at a time, each job their
 * part of the index packed. The threads may start before the index is done (./speculate.ts);
 * the outcomes are handed back in the file's group order. Only analyses and tallies come back;
 * memory stays bounded.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

import type { AnalysisSettings, ResolvedAnnotations } from "../../core/index.ts";
import { packedIndexTransfer, type PackedIndex } from "../../io/index.ts";
import type { AnalyzedGroup, AnalyzeThreadReply, AnalyzeThreadRequest } from "./protocol.ts";

/** Below this many bytes a file is analysed in the main thread: starting threads costs more. */
export const THREADS_FROM_BYTES = 16 * 1024 * 1024;
/** A job is groups up to this many rows (or MAX_JOB_GROUPS groups), so every thread keeps busy. */
export const JOB_ROWS = 2048;
export const MAX_JOB_GROUPS = 1024;
/**
 * Jobs sent to a thread before it answers: enough that it keeps busy while the main thread is
 * (indexing, then finishing the index: a second and more of a 500 MB file, when two jobs each left
 * the threads idle), few enough that the threads end together (within about a job, ~60 ms).
 */
const JOBS_PER_THREAD = 8;

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

export interface AnalyzePoolSetup {
  readonly path: string;
  readonly name: string;
  readonly size: number;
  readonly settings: AnalysisSettings;
  readonly annotations: ResolvedAnnotations | undefined;
  readonly threads: number;
}

export interface AnalyzePool {
  /**
   * Analyse the groups of `index`, a packed index of just them (its typed arrays are transferred):
   * their outcomes in its group order. Rejects when a thread fails, or the pool is closed first.
   */
  analyze(index: PackedIndex, full: number): Promise<readonly AnalyzedGroup[]>;
  /** Stop every thread; jobs not done are rejected. */
  close(): void;
}

interface Job {
  readonly job: number;
  readonly index: PackedIndex;
  readonly full: number;
  readonly resolve: (groups: readonly AnalyzedGroup[]) => void;
  readonly reject: (error: Error) => void;
}

/** Start `threads` analyze threads, each sent the setup once it is ready. */
export function startAnalyzePool(setup: AnalyzePoolSetup): AnalyzePool {
  const queue: Job[] = [];
  const running = new Map<number, Job>();
  let nextJob = 0;
  let failure: Error | null = null;
  const threads: { readonly worker: Worker; ready: boolean; busy: number }[] = [];
  const stop = (error: Error): void => {
    if (failure !== null) return;
    failure = error;
    for (const t of threads) t.worker.terminate().catch(() => undefined);
    for (const j of [...running.values(), ...queue]) j.reject(error);
    running.clear();
    queue.length = 0;
  };
  const pump = (): void => {
    for (const t of threads)
      while (t.ready && t.busy < JOBS_PER_THREAD && queue.length > 0) {
        const job = queue.shift()!;
        running.set(job.job, job);
        t.busy++;
        t.worker.postMessage(
          {
            kind: "job",
            job: job.job,
            index: job.index,
            full: job.full,
          } satisfies AnalyzeThreadRequest,
          packedIndexTransfer(job.index),
        );
      }
  };
  const request: AnalyzeThreadRequest = {
    kind: "setup",
    path: setup.path,
    name: setup.name,
    size: setup.size,
    settings: setup.settings,
    annotations: [...(setup.annotations?.byGroup ?? new Map())],
  };
  for (let k = 0; k < setup.threads; k++) {
    const thread = { worker: startThread(), ready: false, busy: 0 };
    threads.push(thread);
    thread.worker.on("message", (reply: AnalyzeThreadReply) => {
      if (reply.kind === "ready") {
        thread.worker.postMessage(request);
        thread.ready = true;
      } else if (reply.kind === "error") {
        stop(new Error(`an analyze thread failed: ${reply.message}`));
        return;
      } else {
        const job = running.get(reply.job);
        running.delete(reply.job);
        thread.busy--;
        job?.resolve(reply.groups);
      }
      pump();
    });
    thread.worker.on("error", (e) => stop(e));
    thread.worker.on("exit", (code) => {
      if (code !== 0) stop(new Error(`an analyze thread exited with code ${code}`));
    });
  }
  return {
    analyze(index, full) {
      const done = new Promise<readonly AnalyzedGroup[]>((resolve, reject) => {
        if (failure !== null) reject(failure);
        else queue.push({ job: nextJob++, index, full, resolve, reject });
      });
      // A job waited for later (./speculate.ts) must not be an unhandled rejection meanwhile.
      done.catch(() => undefined);
      pump();
      return done;
    },
    close() {
      stop(new Error("the analyze threads were stopped"));
    },
  };
}

/**
 * The groups `groups` (indices into `index`'s groups, in the order given) as a packed index of
 * just them: their rows numbered from 0, with their places in the file.
 */
export function packedGroups(index: PackedIndex, groups: readonly number[]): PackedIndex {
  let total = 0;
  for (const g of groups) total += index.starts[g + 1]! - index.starts[g]!;
  const offsets = new Float64Array(total);
  const lengths = new Float64Array(total);
  const lines = new Uint32Array(total);
  const starts = new Uint32Array(groups.length + 1);
  const ids: (string | null)[] | null = index.ids === null ? null : [];
  let r = 0;
  groups.forEach((g, k) => {
    starts[k] = r;
    for (let at = index.starts[g]!; at < index.starts[g + 1]!; at++, r++) {
      const row = index.rows[at]!;
      offsets[r] = index.offsets[row]!;
      lengths[r] = index.lengths[row]!;
      lines[r] = index.lines[row]!;
      ids?.push(index.ids![at] ?? null);
    }
  });
  starts[groups.length] = r;
  return {
    format: index.format,
    offsets,
    lengths,
    lines,
    groupIds: groups.map((g) => index.groupIds[g]!),
    starts,
    rows: Uint32Array.from({ length: total }, (_, k) => k),
    ids,
  };
}

/** `groups` (indices into `index`'s groups) cut into consecutive jobs of about JOB_ROWS rows. */
export function jobsOf(index: PackedIndex, groups: readonly number[]): number[][] {
  const jobs: number[][] = [];
  let job: number[] = [];
  let rows = 0;
  for (const g of groups) {
    const size = index.starts[g + 1]! - index.starts[g]!;
    if (job.length > 0 && (rows + size > JOB_ROWS || job.length >= MAX_JOB_GROUPS)) {
      jobs.push(job);
      job = [];
      rows = 0;
    }
    job.push(g);
    rows += size;
  }
  if (job.length > 0) jobs.push(job);
  return jobs;
}

/** Where a group's outcome will be: a job's reply, and the group's place in that job. */
export interface JobPlace {
  readonly job: Promise<readonly AnalyzedGroup[]>;
  readonly at: number;
}

/** What the analysis of groups begun while indexing gives for the index's group g, if it holds. */
export interface EarlyOutcomes {
  take(index: PackedIndex, g: number): JobPlace | null;
}

/**
 * Every group of the finished `index` analysed in the pool: each group's outcome, in the index's
 * group order, with its analysis for the first `keep` groups and its tally only for the others. A
 * group `early` analysed from the very rows the index now gives it is taken from there (and
 * analysed again if it is among the first `keep` but came without its analysis); the others are
 * analysed now. No promise is made per group (2 million groups made 2 million promises and their
 * closures): each group is a job number and a place in its reply.
 */
export async function analyzeIndexInPool(
  pool: AnalyzePool,
  index: PackedIndex,
  early: EarlyOutcomes | null,
  keep: number,
): Promise<AnalyzedGroup[]> {
  const count = index.groupIds.length;
  const jobs: Promise<readonly AnalyzedGroup[]>[] = [];
  const jobNumbers = new Map<Promise<readonly AnalyzedGroup[]>, number>();
  const jobOf = new Int32Array(count);
  const atOf = new Int32Array(count);
  const rest: number[] = [];
  for (let g = 0; g < count; g++) {
    const taken = early?.take(index, g) ?? null;
    if (taken === null) {
      rest.push(g);
      continue;
    }
    let j = jobNumbers.get(taken.job);
    if (j === undefined) {
      j = jobs.push(taken.job) - 1;
      jobNumbers.set(taken.job, j);
    }
    jobOf[g] = j;
    atOf[g] = taken.at;
  }
  const send = (groups: readonly number[]): void => {
    for (const job of jobsOf(index, groups)) {
      let full = 0;
      while (full < job.length && job[full]! < keep) full++;
      const j = jobs.push(pool.analyze(packedGroups(index, job), full)) - 1;
      job.forEach((g, k) => {
        jobOf[g] = j;
        atOf[g] = k;
      });
    }
  };
  send(rest);
  const replies = await Promise.all(jobs);
  const outcomeOf = (g: number): AnalyzedGroup => replies[jobOf[g]!]![atOf[g]!]!;
  // A group among the first `keep` that came back without its analysis is analysed again.
  const again: number[] = [];
  for (let g = 0; g < Math.min(keep, count); g++)
    if (outcomeOf(g).streamed?.analysis === null) again.push(g);
  if (again.length > 0) {
    const from = jobs.length;
    send(again);
    replies.push(...(await Promise.all(jobs.slice(from))));
  }
  const outcomes = new Array<AnalyzedGroup>(count);
  for (let g = 0; g < count; g++) outcomes[g] = outcomeOf(g);
  return outcomes;
}
