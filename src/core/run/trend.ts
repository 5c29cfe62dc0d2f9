/**
 * Trend tests over a short series of per-step values, for the run's detectors (./detectors.ts):
 * the least-squares slope with its one-sided t-test, and the onset of a trend (a hinge fit: flat,
 * then a straight line from the onset on). Pure.
 */
import { lgamma } from "./gamma.ts";

/** The least-squares slope of y on x with its t statistic and one-sided p-values. */
export interface SlopeTest {
  /** Points used (both coordinates finite). */
  readonly n: number;
  readonly slope: number;
  readonly intercept: number;
  /** slope / its standard error; ±Infinity when the points lie exactly on a sloped line. */
  readonly t: number;
  /** P(T >= t) under a zero slope (Student's t, n - 2 degrees of freedom): small when rising. */
  readonly pRising: number;
  /** P(T <= t): small when falling. */
  readonly pFalling: number;
}

/**
 * The regularised incomplete beta function I_x(a, b), by its continued fraction (modified Lentz),
 * with the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges slowly.
 */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (!(x > 0)) return 0;
  if (!(x < 1)) return 1;
  const front = Math.exp(
    lgamma(a + b) - lgamma(a) - lgamma(b) + a * Math.log(x) + b * Math.log1p(-x),
  );
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(1 - x, b, a);
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let f = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let num = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    f *= d * c;
    num = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return (front * f) / a;
}

/** P(T >= t) for Student's t with `df` degrees of freedom (df > 0). */
export function studentTUpper(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return NaN;
  if (t === Infinity) return 0;
  if (t === -Infinity) return 1;
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? tail : 1 - tail;
}

/**
 * The least-squares slope of y on x over the pairs where both are finite, and its t-test against
 * a zero slope (n - 2 degrees of freedom). With fewer than three points, or x without spread, the
 * slope or the test is NaN. Sums are taken around the means.
 */
export function slopeTest(xs: readonly number[], ys: readonly number[]): SlopeTest {
  const px: number[] = [];
  const py: number[] = [];
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) {
      px.push(xs[i]!);
      py.push(ys[i]!);
    }
  }
  const n = px.length;
  const none = { n, slope: NaN, intercept: NaN, t: NaN, pRising: NaN, pFalling: NaN };
  if (n < 2) return none;
  const mx = px.reduce((s, v) => s + v, 0) / n;
  const my = py.reduce((s, v) => s + v, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (px[i]! - mx) ** 2;
    sxy += (px[i]! - mx) * (py[i]! - my);
  }
  if (!(sxx > 0)) return none;
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  if (n < 3) return { ...none, slope, intercept };
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (py[i]! - intercept - slope * px[i]!) ** 2;
  // Residuals below rounding of the values: the points lie on the line.
  const scale = Math.max(1e-300, ...py.map((v) => Math.abs(v)));
  const se = Math.sqrt(sse / (n - 2) / sxx);
  let t: number;
  if (se <= 1e-12 * scale) t = slope > 0 ? Infinity : slope < 0 ? -Infinity : 0;
  else t = slope / se;
  const pRising = studentTUpper(t, n - 2);
  return { n, slope, intercept, t, pRising, pFalling: 1 - pRising };
}

/**
 * Where a trend starts: the x of the hinge fit `y = a + b * max(0, x - x_k)` (flat, then a straight
 * line from x_k on) with the least squared error, over the candidate onsets x_0 .. x_{n-2} (a
 * hinge needs two points after it); ties go to the earliest onset. Only fits whose slope has the
 * sign `direction` asks for count. NaN with fewer than three finite points or no such fit.
 */
export function trendOnset(
  xs: readonly number[],
  ys: readonly number[],
  direction: 1 | -1,
): number {
  const pts: [number, number][] = [];
  for (let i = 0; i < Math.min(xs.length, ys.length); i++)
    if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) pts.push([xs[i]!, ys[i]!]);
  pts.sort((p, q) => p[0] - q[0]);
  if (pts.length < 3) return NaN;
  let best = NaN;
  let bestSse = Infinity;
  for (let k = 0; k <= pts.length - 2; k++) {
    const xk = pts[k]![0];
    const h = pts.map(([x]) => Math.max(0, x - xk));
    const fit = slopeTest(
      h,
      pts.map(([, y]) => y),
    );
    if (!Number.isFinite(fit.slope) || Math.sign(fit.slope) !== direction) continue;
    let sse = 0;
    for (let i = 0; i < pts.length; i++)
      sse += (pts[i]![1] - fit.intercept - fit.slope * h[i]!) ** 2;
    // A relative tolerance: equal fits (up to rounding) keep the earlier onset.
    if (sse < bestSse - 1e-9 * Math.max(1, bestSse === Infinity ? 0 : bestSse)) {
      bestSse = sse;
      best = xk;
    }
  }
  return best;
}
