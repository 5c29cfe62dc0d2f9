/**
 * The browser benchmark's shared run state and output: loads per file, the correctness checks that
 * failed, progress on stderr, and one JSON line per metric (medians against a baseline) on stdout.
 */

export const MB = 1e6;

/** Loads per file, each in a new context (cold worker start adds 75-100 ms: take the median). */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** The correctness checks that failed in this run: any makes the exit code 1 (bench/browser.ts). */
export const failures: string[] = [];

export function check(condition: boolean, message: string): void {
  if (!condition) {
    failures.push(message);
    console.error(`CHECK FAILED: ${message}`);
  }
}

export const log = (message: string): void => console.error(message);
export const mb = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;
export const round = (x: number): number => Number(x.toPrecision(4));

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? NaN;
}

interface MetricLine {
  readonly metric: string;
  readonly value: number;
  readonly baseline: number;
  readonly ratio: number;
  readonly unit: "ms" | "bytes" | "rows";
  readonly runs: number;
  /** Every run's value and baseline, in run order. */
  readonly values: readonly number[];
  readonly baselines: readonly number[];
  readonly data: string;
  readonly note?: string;
  readonly [extra: string]: unknown;
}

export function emit(
  metric: string,
  values: readonly number[],
  baselines: readonly number[],
  unit: MetricLine["unit"],
  data: string,
  note: string,
  extra: Record<string, unknown> = {},
): void {
  if (values.length === 0 || baselines.length === 0) {
    log(`  ${metric}: no successful run`);
    return;
  }
  const value = median(values);
  const baseline = median(baselines);
  const line: MetricLine = {
    metric,
    value: round(value),
    baseline: round(baseline),
    ratio: round(value / baseline),
    unit,
    runs: values.length,
    values: values.map(round),
    baselines: baselines.map(round),
    data,
    note,
    ...extra,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  log(
    `  ${metric}: ${line.value} ${unit} vs baseline ${line.baseline} ${unit}, ratio ${line.ratio}`,
  );
}

export const defined = <T>(xs: readonly (T | null)[]): T[] => xs.filter((x): x is T => x !== null);
export const mbps = (bytes: number, ms: number): number => Math.round(bytes / MB / (ms / 1000));
