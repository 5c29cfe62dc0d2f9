/**
 * Intervals that stay honest on few labels (issue 13, finding 6). A percentile bootstrap of a
 * proportion degenerates on a small sample: 2 of 2 agreeing rows resample to 1.000 every time, and
 * "1.000 [1.000, 1.000]" claims a certainty two labels cannot give. The Wilson score interval does
 * not: 2 of 2 at 95% is [0.342, 1.000]. It is the interval the calibration view shows for TPR, TNR
 * and accuracy below `CALIBRATION_MIN_N` rows or when the bootstrap degenerates.
 */

/**
 * Below this many rows a split (or dev, for the corrected rate) is flagged: "n = 2: too few labels
 * for an interval (at least 10 recommended)", and proportions take the Wilson interval. Ten is the
 * usual floor for a normal-approximation interval to mean anything at all (n p >= 5 needs n >= 10
 * at p = 0.5); the Wilson interval itself stays valid below it.
 */
export const CALIBRATION_MIN_N = 10;

/**
 * The standard normal quantile (inverse CDF) at p in (0, 1), by Acklam's rational approximation
 * (relative error below 1.2e-9). ±Infinity at 0 and 1, NaN outside.
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const a = [
    -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2,
    -3.066479806614716e1, 2.506628277459239,
  ];
  const b = [
    -5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1,
    -1.328068155288572e1,
  ];
  const c = [
    -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734,
    4.374664141464968, 2.938163982698783,
  ];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  const tail = (q: number): number =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
    ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < low) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - low) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

export interface ProportionInterval {
  readonly lower: number;
  readonly upper: number;
}

/**
 * The Wilson score interval of k successes in n trials at a two-sided level:
 * `(p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)`, z the normal quantile at (1 + level)/2.
 * It lies in [0, 1], contains k/n, and has width on every n >= 1 (k = n gives an upper bound of 1
 * and a lower bound below 1). NaN bounds for n = 0.
 *
 * Example: 8 of 10 at 95% gives [0.4902, 0.9433].
 */
export function wilsonInterval(k: number, n: number, level = 0.95): ProportionInterval {
  if (!(n > 0) || !(k >= 0) || k > n) return { lower: NaN, upper: NaN };
  const z = normalQuantile((1 + level) / 2);
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // Exact at the edges (the formula gives 0 and 1 up to rounding there).
  const lower = k === 0 ? 0 : Math.max(0, centre - half);
  const upper = k === n ? 1 : Math.min(1, centre + half);
  return { lower: Math.min(lower, p), upper: Math.max(upper, p) };
}

/** A percentile interval that says nothing: no draw, or every draw equal (zero width). */
export function intervalDegenerate(lower: number, upper: number): boolean {
  return !Number.isFinite(lower) || !Number.isFinite(upper) || upper - lower <= 1e-12;
}
