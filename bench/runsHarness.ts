/**
 * bench/runs.ts's harness: `--quick`, the checks, interleaved timing (AB BA ...) of async subjects,
 * and one JSON line per metric in bench/run.ts's shape.
 */
import { emitLine, round } from "./emitLine.ts";

export const QUICK = process.argv.includes("--quick");
export const RUNS = QUICK ? 1 : 3;

export const MB = 1e6;
let failed = false;

/** Whether any check failed (the exit code is then 1). */
export function checksFailed(): boolean {
  return failed;
}

export function check(ok: boolean, message: string): void {
  if (ok) return;
  failed = true;
  console.error(`CHECK FAILED: ${message}`);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

export { round };

/** One result line, with this run's repetitions. */
export function emit(
  metric: string,
  value: number,
  baseline: number,
  data: string,
  note: string,
  extra: Record<string, unknown> = {},
  unit = "ms",
): void {
  emitLine(metric, value, baseline, RUNS, data, note, extra, unit);
}

/** Interleaved timing (AB BA ...) of async subjects; each entry's runs in ms. */
export async function interleaved(
  subjects: readonly (() => Promise<void> | void)[],
  runs: number,
  /** Untimed set-up before subject `i`'s every run. */
  prepare?: (i: number) => Promise<void>,
): Promise<number[][]> {
  const times = subjects.map((): number[] => []);
  for (let r = 0; r < runs; r++) {
    const order = subjects.map((_, i) => i);
    if (r % 2 === 1) order.reverse();
    for (const i of order) {
      await prepare?.(i);
      const start = performance.now();
      await subjects[i]!();
      times[i]!.push(performance.now() - start);
    }
  }
  return times;
}

export const mbps = (bytes: number, ms: number): string =>
  `${((bytes / MB) * (1000 / ms)).toFixed(0)} MB/s`;
