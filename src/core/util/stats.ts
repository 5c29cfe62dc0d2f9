/** Sample (n-1, Bessel) or population (n) standard deviation. */
export type StdKind = "sample" | "population";

/** Arithmetic mean; NaN for an empty list. */
export function statsMean(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * Standard deviation. Sample std of fewer than two values is NaN (torch and TRL's `nanstd`);
 * population std of one value is 0 and of none is NaN (Python's `statistics.pstdev` raises there).
 */
export function statsStd(values: readonly number[], kind: StdKind = "sample"): number {
  const n = values.length;
  if (n === 0 || (kind === "sample" && n < 2)) return NaN;
  const m = statsMean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) * (v - m);
  return Math.sqrt(ss / (kind === "sample" ? n - 1 : n));
}

/** Median as Python's `statistics.median`: the mean of the two middle values for even n; NaN if empty. */
export function statsMedian(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The finite values of a list (NaN, null and infinities removed). */
export function statsFinite(values: readonly (number | null | undefined)[]): number[] {
  const out: number[] = [];
  for (const v of values) if (typeof v === "number" && Number.isFinite(v)) out.push(v);
  return out;
}
