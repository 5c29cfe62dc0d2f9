/**
 * Seeded percentile bootstrap of the agreement metrics (TPR, TNR, accuracy, Cohen's kappa) of one
 * split, with the Wilson score interval for the proportions where the bootstrap says nothing
 * (fewer than `CALIBRATION_MIN_N` rows behind the proportion, or every resample equal). Each draw resamples the split's (judge, human) pairs with replacement, as many as there
 * are, and recomputes all four metrics from the resampled confusion matrix; the interval of a
 * metric is the two percentiles of its defined draws (a draw without human passes has no TPR, and
 * is counted instead).
 */
import { randomHash01, randomMulberry32 } from "../util/random.ts";
import { calibrationMetrics, type AgreementMetrics, type Confusion } from "./agreement.ts";
import { CALIBRATION_MIN_N, intervalDegenerate, wilsonInterval } from "./wilson.ts";

/**
 * How an interval was made: the percentile bootstrap; the Wilson score interval (a proportion on
 * fewer than `CALIBRATION_MIN_N` rows, or whose bootstrap degenerated to zero width); or none (a
 * metric that is not a proportion, kappa, whose bootstrap degenerated: no honest interval).
 */
export type CalibrationIntervalMethod = "bootstrap" | "wilson" | "none";

/** A point estimate with its interval. */
export interface CalibrationInterval {
  /** The estimate on the whole sample (NaN when undefined there). */
  readonly value: number;
  /**
   * Bootstrap: percentiles (1 - level) / 2 and (1 + level) / 2 of the defined draws (NaN without
   * any); Wilson: the score interval of the proportion; none: NaN.
   */
  readonly lower: number;
  readonly upper: number;
  readonly method: CalibrationIntervalMethod;
  /** Draws where the metric was undefined (e.g. no human fail in the resample for TNR), dropped. */
  readonly undefinedDraws: number;
  /** The resamples drawn (0 for an empty split). */
  readonly samples: number;
  /** The rows the metric's estimate rests on (its denominator: TP + FN for TPR, n for accuracy). */
  readonly n: number;
}

export interface CalibrationBootstrapOptions {
  /** Number of resamples (default 1000). */
  readonly samples: number;
  /** Coverage of the interval (default 0.95). */
  readonly level: number;
}

export const CALIBRATION_BOOTSTRAP_DEFAULTS: CalibrationBootstrapOptions = {
  samples: 1000,
  level: 0.95,
};

/**
 * The value at quantile p of an ascending list, with linear interpolation between neighbours (the
 * same rule as `calibrationCorrectedRate`); NaN for an empty list.
 */
export function calibrationPercentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const pos = Math.min(1, Math.max(0, p)) * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * A 32-bit seed for one use of the state's seed: the same state seed gives each split (and the
 * corrected rate) its own stream, and the same stream on every run.
 */
export function calibrationStreamSeed(seed: number, stream: string): number {
  return Math.floor(randomHash01(stream, seed) * 4294967296) >>> 0;
}

export type CalibrationMetricName = "tpr" | "tnr" | "accuracy" | "kappa";
export const CALIBRATION_METRIC_NAMES: readonly CalibrationMetricName[] = [
  "tpr",
  "tnr",
  "accuracy",
  "kappa",
];

/**
 * The four agreement metrics of a confusion matrix, each with its seeded bootstrap interval. Only
 * the four counts matter (`skipped` is ignored): a resample draws each pair's cell with
 * probability count / n.
 */
export function calibrationMetricsBootstrap(
  confusion: Confusion,
  seed: number,
  options: CalibrationBootstrapOptions = CALIBRATION_BOOTSTRAP_DEFAULTS,
): Record<CalibrationMetricName, CalibrationInterval> {
  const { tp, tn, fp, fn } = confusion;
  const n = tp + tn + fp + fn;
  const point = calibrationMetrics(confusion);
  const draws: Record<CalibrationMetricName, number[]> = {
    tpr: [],
    tnr: [],
    accuracy: [],
    kappa: [],
  };
  const undefinedDraws: Record<CalibrationMetricName, number> = {
    tpr: 0,
    tnr: 0,
    accuracy: 0,
    kappa: 0,
  };
  if (n > 0) {
    const rand = randomMulberry32(seed);
    // Cumulative cell boundaries: a uniform index below tp is a TP, and so on.
    const c1 = tp,
      c2 = tp + tn,
      c3 = tp + tn + fp;
    for (let s = 0; s < options.samples; s++) {
      const cell = [0, 0, 0, 0];
      for (let k = 0; k < n; k++) {
        const j = Math.floor(rand() * n);
        cell[j < c1 ? 0 : j < c2 ? 1 : j < c3 ? 2 : 3]!++;
      }
      const m: AgreementMetrics = calibrationMetrics({
        tp: cell[0]!,
        tn: cell[1]!,
        fp: cell[2]!,
        fn: cell[3]!,
        skipped: 0,
      });
      for (const name of CALIBRATION_METRIC_NAMES) {
        const v = m[name];
        if (Number.isFinite(v)) draws[name].push(v);
        else undefinedDraws[name]++;
      }
    }
  }
  const alpha = (1 - options.level) / 2;
  // The proportions' successes and denominators (kappa is not a proportion).
  const counts: Record<Exclude<CalibrationMetricName, "kappa">, readonly [number, number]> = {
    tpr: [tp, tp + fn],
    tnr: [tn, tn + fp],
    accuracy: [tp + tn, n],
  };
  const interval = (name: CalibrationMetricName): CalibrationInterval => {
    const sorted = draws[name].sort((a, b) => a - b);
    const lower = calibrationPercentile(sorted, alpha);
    const upper = calibrationPercentile(sorted, 1 - alpha);
    const base = {
      value: point[name],
      undefinedDraws: undefinedDraws[name],
      samples: n > 0 ? options.samples : 0,
    };
    if (name === "kappa") {
      // A kappa whose resamples all agree says nothing about its spread: no interval.
      const none = Number.isFinite(point.kappa) && intervalDegenerate(lower, upper);
      return none
        ? { ...base, lower: NaN, upper: NaN, method: "none", n }
        : { ...base, lower, upper, method: "bootstrap", n };
    }
    const [k, of] = counts[name];
    if (of > 0 && (of < CALIBRATION_MIN_N || intervalDegenerate(lower, upper))) {
      const w = wilsonInterval(k, of, options.level);
      return { ...base, lower: w.lower, upper: w.upper, method: "wilson", n: of };
    }
    return { ...base, lower, upper, method: "bootstrap", n: of };
  };
  return {
    tpr: interval("tpr"),
    tnr: interval("tnr"),
    accuracy: interval("accuracy"),
    kappa: interval("kappa"),
  };
}
