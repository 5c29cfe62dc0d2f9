/**
 * Judge-versus-human agreement. Binary labels: true = pass. Pairs where either side is null
 * (unlabelled, deferred, judge error) are left out and counted.
 */
import { rankAverage } from "../ranking/rank.ts";
import { randomMulberry32 } from "../util/random.ts";
import { CALIBRATION_MIN_N, intervalDegenerate, wilsonInterval } from "./wilson.ts";

export interface Confusion {
  /** judge pass, human pass */
  readonly tp: number;
  /** judge fail, human fail */
  readonly tn: number;
  /** judge pass, human fail */
  readonly fp: number;
  /** judge fail, human pass */
  readonly fn: number;
  /** Pairs left out because a label was missing. */
  readonly skipped: number;
}

/** Confusion matrix of predictions (judge) against truth (human). */
export function calibrationConfusion(
  predicted: readonly (boolean | null)[],
  truth: readonly (boolean | null)[],
): Confusion {
  if (predicted.length !== truth.length) {
    throw new RangeError(
      `predictions (${predicted.length}) and labels (${truth.length}) differ in length`,
    );
  }
  let tp = 0,
    tn = 0,
    fp = 0,
    fn = 0,
    skipped = 0;
  predicted.forEach((p, i) => {
    const t = truth[i];
    if (p === null || t === null || t === undefined) skipped++;
    else if (p && t) tp++;
    else if (!p && !t) tn++;
    else if (p) fp++;
    else fn++;
  });
  return { tp, tn, fp, fn, skipped };
}

export interface AgreementMetrics {
  readonly n: number;
  /** TP / (TP + FN): how often the judge passes what people pass. NaN without human passes. */
  readonly tpr: number;
  /** TN / (TN + FP): how often the judge fails what people fail. NaN without human failures. */
  readonly tnr: number;
  readonly accuracy: number;
  /**
   * Cohen's kappa, `(po - pe) / (1 - pe)`. When pe = 1 (both sides constant and identical) kappa is
   * undefined and NaN is returned, rather than a misleading 0 or 1.
   */
  readonly kappa: number;
}

export function calibrationMetrics(c: Confusion): AgreementMetrics {
  const n = c.tp + c.tn + c.fp + c.fn;
  const po = n === 0 ? NaN : (c.tp + c.tn) / n;
  const judgePass = (c.tp + c.fp) / n;
  const humanPass = (c.tp + c.fn) / n;
  const pe = judgePass * humanPass + (1 - judgePass) * (1 - humanPass);
  return {
    n,
    tpr: c.tp + c.fn === 0 ? NaN : c.tp / (c.tp + c.fn),
    tnr: c.tn + c.fp === 0 ? NaN : c.tn / (c.tn + c.fp),
    accuracy: po,
    kappa: n === 0 || pe >= 1 ? NaN : (po - pe) / (1 - pe),
  };
}

/** The pairs where both values are finite numbers: a missing score is left out, not ranked. */
function finitePairs(xs: readonly number[], ys: readonly number[]): [number[], number[]] {
  const x: number[] = [];
  const y: number[] = [];
  xs.forEach((v, i) => {
    if (Number.isFinite(v) && Number.isFinite(ys[i])) {
      x.push(v);
      y.push(ys[i]!);
    }
  });
  return [x, y];
}

/**
 * Kendall's tau-b between two score lists (ties handled): `(C - D) / sqrt((n0 - n1)(n0 - n2))`.
 * Pairs with a non-finite value are left out. NaN when either list is constant or has fewer than
 * two items.
 */
export function calibrationKendallTauB(xs: readonly number[], ys: readonly number[]): number {
  if (xs.length !== ys.length)
    throw new RangeError("Kendall tau needs two lists of the same length");
  const [x, y] = finitePairs(xs, ys);
  const n = x.length;
  let concordant = 0,
    discordant = 0,
    tiesX = 0,
    tiesY = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) tiesX++;
      else if (dy === 0) tiesY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  const denom = Math.sqrt((concordant + discordant + tiesX) * (concordant + discordant + tiesY));
  return denom === 0 ? NaN : (concordant - discordant) / denom;
}

/** Spearman's rho: Pearson correlation of the average ranks, over pairs where both are finite. NaN when either side is constant. */
export function calibrationSpearman(xs: readonly number[], ys: readonly number[]): number {
  if (xs.length !== ys.length) throw new RangeError("Spearman needs two lists of the same length");
  const [x, y] = finitePairs(xs, ys);
  const rx = rankAverage(x);
  const ry = rankAverage(y);
  const n = rx.length;
  if (n < 2) return NaN;
  const mx = rx.reduce((s, v) => s + v, 0) / n;
  const my = ry.reduce((s, v) => s + v, 0) / n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (rx[i]! - mx) * (ry[i]! - my);
    sxx += (rx[i]! - mx) ** 2;
    syy += (ry[i]! - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? NaN : sxy / Math.sqrt(sxx * syy);
}

/**
 * Rogan-Gladen corrected prevalence: the true pass rate implied by an imperfect judge,
 * `(pObserved + TNR - 1) / (TPR + TNR - 1)`, clipped to [0, 1]. NaN when TPR + TNR <= 1 (the judge
 * is no better than chance, so the correction is undefined).
 */
export function calibrationRoganGladen(pObserved: number, tpr: number, tnr: number): number {
  const denom = tpr + tnr - 1;
  if (!(denom > 0)) return NaN;
  return Math.min(1, Math.max(0, (pObserved + tnr - 1) / denom));
}

export interface CorrectedRate {
  /** The judge's raw pass rate on the unlabelled rollouts. */
  readonly observed: number;
  /** Rogan-Gladen corrected pass rate. */
  readonly corrected: number;
  /**
   * The interval of the corrected rate: the percentile bootstrap, or, on fewer than
   * `CALIBRATION_MIN_N` labelled items or a bootstrap of zero width, the Wilson bounds of TPR and
   * TNR carried through Rogan-Gladen (see `calibrationRoganGladenWilson`).
   */
  readonly lower: number;
  readonly upper: number;
  readonly method: "bootstrap" | "wilson";
  /** Bootstrap draws where TPR + TNR <= 1 (or either is undefined) and no estimate exists. */
  readonly discarded: number;
  /** Resamples drawn (0 without labelled items). */
  readonly samples: number;
}

/**
 * Rogan-Gladen's range over the Wilson intervals of TPR (tp of tp + fn) and TNR (tn of tn + fp):
 * the corrected rate is monotone in each of TPR and TNR while the other is held, so its extremes
 * over the box of the two intervals are at the box's corners. A corner at or below chance
 * (TPR + TNR <= 1) makes the correction unbounded there: the range is then all of [0, 1]. NaN
 * when either rate has no denominator.
 */
export function calibrationRoganGladenWilson(
  observed: number,
  c: Pick<Confusion, "tp" | "tn" | "fp" | "fn">,
  level: number,
): { readonly lower: number; readonly upper: number } {
  const tpr = wilsonInterval(c.tp, c.tp + c.fn, level);
  const tnr = wilsonInterval(c.tn, c.tn + c.fp, level);
  if (![tpr.lower, tpr.upper, tnr.lower, tnr.upper, observed].every(Number.isFinite))
    return { lower: NaN, upper: NaN };
  const corners: number[] = [];
  for (const s of [tpr.lower, tpr.upper])
    for (const t of [tnr.lower, tnr.upper]) {
      if (!(s + t - 1 > 0)) return { lower: 0, upper: 1 };
      corners.push(calibrationRoganGladen(observed, s, t));
    }
  return { lower: Math.min(...corners), upper: Math.max(...corners) };
}

/**
 * The corrected pass rate with a seeded bootstrap CI (the method of Shankar's `judgy`): TPR and TNR
 * come from a labelled set (judge prediction and human truth per item); the labelled set is
 * resampled with replacement, while the observed rate on the unlabelled predictions stays fixed.
 * On fewer than `CALIBRATION_MIN_N` labelled items, or when every defined resample gives the same
 * rate (a perfect judge on a few rows), the interval is Rogan-Gladen over the Wilson intervals of
 * TPR and TNR instead, which has width.
 */
export function calibrationCorrectedRate(
  labelled: readonly { readonly predicted: boolean; readonly truth: boolean }[],
  unlabelledPredictions: readonly boolean[],
  options: { seed: number; samples?: number; level?: number },
): CorrectedRate {
  const samples = options.samples ?? 2000;
  const level = options.level ?? 0.95;
  const observed =
    unlabelledPredictions.length === 0
      ? NaN
      : unlabelledPredictions.filter(Boolean).length / unlabelledPredictions.length;
  const rates = (items: readonly { predicted: boolean; truth: boolean }[]): number => {
    const m = calibrationMetrics(
      calibrationConfusion(
        items.map((x) => x.predicted),
        items.map((x) => x.truth),
      ),
    );
    return calibrationRoganGladen(observed, m.tpr, m.tnr);
  };
  const corrected = rates(labelled);
  const rand = randomMulberry32(options.seed);
  const draws: number[] = [];
  let discarded = 0;
  if (labelled.length > 0) {
    for (let s = 0; s < samples; s++) {
      const resample = labelled.map(() => labelled[Math.floor(rand() * labelled.length)]!);
      const r = rates(resample);
      if (Number.isNaN(r)) discarded++;
      else draws.push(r);
    }
  }
  draws.sort((a, b) => a - b);
  const q = (p: number): number => {
    if (draws.length === 0) return NaN;
    const pos = p * (draws.length - 1);
    const lo = Math.floor(pos);
    return draws[lo]! + (draws[Math.ceil(pos)]! - draws[lo]!) * (pos - lo);
  };
  const alpha = (1 - level) / 2;
  const lower = q(alpha);
  const upper = q(1 - alpha);
  const samplesDrawn = labelled.length > 0 ? samples : 0;
  if (
    Number.isFinite(corrected) &&
    (labelled.length < CALIBRATION_MIN_N || intervalDegenerate(lower, upper))
  ) {
    const c = calibrationConfusion(
      labelled.map((x) => x.predicted),
      labelled.map((x) => x.truth),
    );
    const w = calibrationRoganGladenWilson(observed, c, level);
    return {
      observed,
      corrected,
      lower: Math.min(w.lower, corrected),
      upper: Math.max(w.upper, corrected),
      method: "wilson",
      discarded,
      samples: samplesDrawn,
    };
  }
  return {
    observed,
    corrected,
    lower,
    upper,
    method: "bootstrap",
    discarded,
    samples: samplesDrawn,
  };
}
