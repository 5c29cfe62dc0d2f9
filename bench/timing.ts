/**
 * bench/run.ts's harness: a subject timed against its baseline in interleaved runs (AB BA), medians,
 * one JSON line per metric on stdout, the correctness checks, and a full gc() where V8 allows it.
 */
import v8 from "node:v8";
import vm from "node:vm";

interface MetricLine {
  readonly metric: string;
  /** Median ms of the measured code (or bytes per row, for a memory metric). */
  readonly value: number;
  /** Median of the baseline, measured in the same run on the same data. */
  readonly baseline: number;
  readonly ratio: number;
  readonly unit: "ms" | "bytes/row";
  /** Timed runs of each side (after warm-up). */
  readonly runs: number;
  /** Calls per timed run (value and baseline are per call); 1 unless the call is sub-millisecond. */
  readonly reps: readonly [number, number];
  /** FNV-1a fingerprint of the generated input, to spot a changed generator between runs. */
  readonly data: string;
  readonly note?: string;
}

export const failures: string[] = [];

export function check(condition: boolean, message: string): void {
  if (!condition) {
    failures.push(message);
    console.error(`CHECK FAILED: ${message}`);
  }
}

/**
 * A real full `gc()`, used only by the after-GC metric; null when V8 refuses the flag. Enabling it
 * changes nothing else: the other metrics never call it.
 */
export const forceGc: (() => void) | null = (() => {
  try {
    v8.setFlagsFromString("--expose-gc");
    return vm.runInNewContext("gc") as () => void;
  } catch {
    return null;
  }
})();

/** Results are folded in here so no timed call can be optimised away (an object: modules add to it). */
export const sink = { total: 0 };

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Milliseconds per call over `reps` back-to-back calls. Deliberately no forced `gc()` between runs:
 * on Node 20 a forced full GC lazily deoptimises the exact n-gram code (its hot loop ran 3-9x slower
 * right after one), which measures the GC, not the code. Interleaving plus the median absorbs the
 * ordinary collections instead.
 */
function timeRun(fn: () => number, reps: number): number {
  const start = performance.now();
  for (let r = 0; r < reps; r++) sink.total += fn();
  return (performance.now() - start) / reps;
}

/** Calls per run so that one run lasts at least `targetMs` (1 for calls already that slow). */
function calibrate(fn: () => number, targetMs: number): number {
  let reps = 1;
  for (;;) {
    const ms = timeRun(fn, reps) * reps;
    if (ms >= targetMs) return reps;
    reps = Math.min(reps * 10, Math.ceil((reps * targetMs * 1.2) / Math.max(ms, 1e-3)));
  }
}

export interface PairOptions {
  readonly warmup: number;
  readonly runs: number;
  /** Minimum length of one timed run; sub-millisecond calls are looped to reach it. */
  readonly minRunMs: number;
}

/** Median ms per call of subject and baseline, warm-up first, then runs interleaved (ABBA order). */
export function timePair(
  subject: () => number,
  baseline: () => number,
  options: PairOptions,
): { value: number; baseline: number; runs: number; reps: [number, number] } {
  for (let w = 0; w < options.warmup; w++) {
    timeRun(subject, 1);
    timeRun(baseline, 1);
  }
  const repsS = calibrate(subject, options.minRunMs);
  const repsB = calibrate(baseline, options.minRunMs);
  const s: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < options.runs; r++) {
    if (r % 2 === 0) {
      s.push(timeRun(subject, repsS));
      b.push(timeRun(baseline, repsB));
    } else {
      b.push(timeRun(baseline, repsB));
      s.push(timeRun(subject, repsS));
    }
  }
  return { value: median(s), baseline: median(b), runs: options.runs, reps: [repsS, repsB] };
}

export const round = (x: number): number => Number(x.toPrecision(4));

export function emit(
  metric: string,
  t: ReturnType<typeof timePair>,
  data: string,
  note?: string,
  unit: MetricLine["unit"] = "ms",
): MetricLine {
  const line: MetricLine = {
    metric,
    value: round(t.value),
    baseline: round(t.baseline),
    ratio: round(t.value / t.baseline),
    unit,
    runs: t.runs,
    reps: t.reps,
    data,
    ...(note === undefined ? {} : { note }),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  console.error(
    `  ${metric}: ${line.value} ${unit} vs baseline ${line.baseline} ${unit}, ratio ${line.ratio}`,
  );
  return line;
}

export const mbps = (bytes: number, ms: number): number => Math.round(bytes / 1e6 / (ms / 1000));

/** Like timePair, for async calls: interleaved AB BA runs of one call each, medians. */
export async function timePairAsync(
  subject: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  runs: number,
): Promise<ReturnType<typeof timePair>> {
  const once = async (f: () => Promise<unknown>): Promise<number> => {
    const t = performance.now();
    sink.total += Number(Boolean(await f()));
    return performance.now() - t;
  };
  await subject();
  await baseline();
  const s: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < runs; r++) {
    if (r % 2 === 0) {
      s.push(await once(subject));
      b.push(await once(baseline));
    } else {
      b.push(await once(baseline));
      s.push(await once(subject));
    }
  }
  return { value: median(s), baseline: median(b), runs, reps: [1, 1] };
}
