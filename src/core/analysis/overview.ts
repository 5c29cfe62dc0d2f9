/**
 * Dataset-wide distributions for the studio's overview charts: equal-width histograms, integer
 * counts, a least-squares line with Pearson's r, and a deterministic subsample for scatter plots.
 * Pure and linear in the input, so they stay fast on 100k groups.
 */

export interface HistogramBin {
  /** Inclusive lower edge. */
  readonly x0: number;
  /** Upper edge: exclusive, except for the last bin, which includes it. */
  readonly x1: number;
  readonly count: number;
}

export interface Histogram {
  readonly bins: readonly HistogramBin[];
  /** Finite values counted in the bins. */
  readonly counted: number;
  /** Values left out: NaN, infinite, or outside a given range. */
  readonly skipped: number;
}

export interface HistogramOptions {
  /** Number of equal-width bins; default 20. */
  readonly bins?: number;
  /** The range to bin over; default the finite values' min and max. Values outside are skipped. */
  readonly min?: number;
  readonly max?: number;
}

/**
 * Equal-width histogram of the finite values.
 *
 * With no finite value (in range) there are no bins. When min equals max every value lands in one
 * bin `[min, max]`. A value equal to the upper edge belongs to the last bin, so the counts add up
 * to the number of finite values in range.
 */
export function overviewHistogram(
  values: readonly number[],
  options: HistogramOptions = {},
): Histogram {
  let lo = options.min ?? Infinity;
  let hi = options.max ?? -Infinity;
  if (options.min === undefined || options.max === undefined) {
    for (const v of values) {
      if (!Number.isFinite(v)) continue;
      if (options.min === undefined && v < lo) lo = v;
      if (options.max === undefined && v > hi) hi = v;
    }
  }
  const inRange = (v: number): boolean => Number.isFinite(v) && v >= lo && v <= hi;
  if (!(lo <= hi)) return { bins: [], counted: 0, skipped: values.length };
  const k = Math.max(1, Math.floor(options.bins ?? 20));
  const width = (hi - lo) / k;
  // Equal bounds, or a range so narrow (subnormal) that its bins have no width: one bin.
  if (lo === hi || !(width > 0)) {
    const count = values.filter(inRange).length;
    return {
      bins: count === 0 ? [] : [{ x0: lo, x1: hi, count }],
      counted: count,
      skipped: values.length - count,
    };
  }
  const counts = new Array<number>(k).fill(0);
  let counted = 0;
  for (const v of values) {
    if (!inRange(v)) continue;
    const bin = Math.floor((v - lo) / width);
    counts[Math.min(k - 1, Number.isFinite(bin) && bin > 0 ? bin : 0)]! += 1;
    counted += 1;
  }
  return {
    // Clamped: on a subnormal range `lo + i * width` can round past `hi`.
    bins: counts.map((count, i) => ({
      x0: Math.min(hi, lo + i * width),
      x1: i === k - 1 ? hi : Math.min(hi, lo + (i + 1) * width),
      count,
    })),
    counted,
    skipped: values.length - counted,
  };
}

/** How many times each integer occurs, ascending by value: the distribution of group sizes. */
export function overviewCounts(values: readonly number[]): { value: number; count: number }[] {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => a[0] - b[0]).map(([value, count]) => ({ value, count }));
}

export interface LinearFit {
  /** Pairs used: both coordinates finite. */
  readonly n: number;
  /** Least-squares y = slope * x + intercept; NaN with fewer than two distinct x. */
  readonly slope: number;
  readonly intercept: number;
  /** Pearson's correlation; NaN when either coordinate has no variance. */
  readonly r: number;
}

/**
 * Ordinary least squares of y on x and Pearson's r over the pairs where both are finite. Sums are
 * taken around the means (two passes), so large offsets such as text lengths do not lose precision.
 */
export function overviewLinearFit(xs: readonly number[], ys: readonly number[]): LinearFit {
  const m = Math.min(xs.length, ys.length);
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < m; i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    n += 1;
    sx += x;
    sy += y;
  }
  if (n === 0) return { n, slope: NaN, intercept: NaN, r: NaN };
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < m; i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    sxx += (x - mx) * (x - mx);
    syy += (y - my) * (y - my);
    sxy += (x - mx) * (y - my);
  }
  const slope = sxx > 0 ? sxy / sxx : NaN;
  const intercept = sxx > 0 ? my - slope * mx : NaN;
  const r = sxx > 0 && syy > 0 ? Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy))) : NaN;
  return { n, slope, intercept, r };
}

/**
 * At most `max` indices out of 0..n-1, evenly spaced and ascending: `floor(i * n / max)`. The same
 * inputs always give the same sample (no randomness), and all of 0..n-1 when n <= max.
 */
export function overviewSampleIndices(n: number, max: number): number[] {
  const count = Math.max(0, Math.min(n, Math.floor(max)));
  if (count === n) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: count }, (_, i) => Math.floor((i * n) / count));
}
