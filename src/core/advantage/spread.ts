/**
 * The spread check (whileai `spread`, methods.md section 2.5): before any GPU time is spent, can the
 * grader tell passes apart? A grader whose scores barely vary is erased by group normalisation.
 */
import { statsMedian, statsStd } from "../util/stats.ts";

export interface SpreadOptions {
  /** SPREAD_MIN_STD: the population std must be at least this. */
  readonly minStd: number;
  /** SPREAD_BAND: a score within this distance of the median counts as "clustered". */
  readonly band: number;
  /** SPREAD_CLUSTER_SHARE: at most this share of scores may be clustered at the median. */
  readonly clusterShare: number;
}

export const SPREAD_DEFAULTS: SpreadOptions = { minStd: 0.05, band: 0.05, clusterShare: 0.9 };

export interface SpreadReport {
  readonly n: number;
  readonly groups: number;
  /** Population std (Python `statistics.pstdev`); NaN with no scores. */
  readonly std: number;
  readonly median: number;
  /** Share of scores with |v - median| <= band. */
  readonly withinBand: number;
  /** std >= minStd and withinBand <= clusterShare (both equalities pass); false with n < 2. */
  readonly ok: boolean;
  /** The report, in whileai's wording; the failure line says what to change. */
  readonly text: string;
}

/** The numbers behind the verdict, for two scores or more. */
function spreadMeasure(
  scores: readonly number[],
  options: SpreadOptions,
): { std: number; median: number; within: number; ok: boolean } {
  const std = statsStd(scores, "population");
  const median = statsMedian(scores);
  // No tolerance: the comparison is the float comparison whileai makes, so the verdicts match.
  let near = 0;
  for (const v of scores) if (Math.abs(v - median) <= options.band) near++;
  const within = near / scores.length;
  return { std, median, within, ok: std >= options.minStd && within <= options.clusterShare };
}

/**
 * `spreadCheck(scores, groups, options).ok` without building the report: for checking many groups
 * at once (the group browser's spread column), whose report text is built only when it is shown.
 */
export function spreadOk(
  scores: readonly number[],
  options: SpreadOptions = SPREAD_DEFAULTS,
): boolean {
  return scores.length >= 2 && spreadMeasure(scores, options).ok;
}

/**
 * Spread of grader scores (factors of the non-hack passes in advantage mode, `s*b` in reward mode).
 *
 * @param groups how many groups the scores came from, for the report header
 */
export function spreadCheck(
  scores: readonly number[],
  groups: number,
  options: SpreadOptions = SPREAD_DEFAULTS,
): SpreadReport {
  const n = scores.length;
  if (n < 2) {
    return {
      n,
      groups,
      std: n === 1 ? 0 : NaN,
      median: n === 1 ? scores[0]! : NaN,
      withinBand: n === 1 ? 1 : NaN,
      ok: false,
      text:
        `spread check: ${n} grader score${n === 1 ? "" : "s"} over ${groups} group(s)\n` +
        "no spread (need at least two passes in one group): grade groups with two or more passes, " +
        "or sample more rollouts per prompt.",
    };
  }
  const { std, median, within, ok } = spreadMeasure(scores, options);
  const header =
    `spread check: ${n} grader scores over ${groups} group(s), std ${std.toFixed(3)}, ` +
    `${(within * 100).toFixed(0)}% within ${options.band} of the median ${median.toFixed(2)}`;
  if (ok)
    return {
      n,
      groups,
      std,
      median,
      withinBand: within,
      ok,
      text: `${header}\nspread: yes. The grader tells these passes apart.`,
    };
  const reasons: string[] = [];
  if (std < options.minStd) reasons.push(`std ${std.toFixed(3)} < ${options.minStd}`);
  if (within > options.clusterShare) {
    reasons.push(
      `${(within * 100).toFixed(0)}% > ${(options.clusterShare * 100).toFixed(0)}% within ${options.band} of the median`,
    );
  }
  const text =
    `${header}\nno spread (${reasons.join("; ")}): the grader gives these passes nearly the same ` +
    "score, and group normalisation will erase it. Before spending GPU time: grade multi-turn " +
    "agent tasks where passes differ (extra tool calls, skipped checks, invented ids) rather than " +
    "one-line answers; make the rubric or ranking prompt name concrete differences; use a stronger " +
    "grader model; or rank whole groups (advantage mode) instead of scoring passes one by one.";
  return { n, groups, std, median, withinBand: within, ok, text };
}
