/**
 * One group's contribution to its step's health (issue 19): counts and sums that add up across the
 * groups of a step (./runHealth.ts), so a run is tallied one group (or one file) at a time and
 * never held whole. Pure.
 */
import { rolloutReward } from "../analysis/advantages.ts";
import type { AnalysisSettings } from "../analysis/analysisSettings.ts";
import type { GroupAnnotation } from "../analysis/annotations.ts";
import { rankingSpreadScores, spreadVerdict, type SpreadVerdict } from "../analysis/groupSpread.ts";
import { rolloutText, rolloutToolCalls } from "../analysis/text.ts";
import type { Rollout, RolloutGroup } from "../types.ts";
import { groupFlags } from "../util/passk.ts";

/** Rollouts marked as hacks in a group, by who marked them. */
export interface HackMarks {
  readonly human: number;
  readonly heuristic: number;
  readonly judge: number;
}

export const NO_HACK_MARKS: HackMarks = { human: 0, heuristic: 0, judge: 0 };

/** A reward component over a group's rollouts: how it moves with the total within the group. */
export interface ComponentTally {
  /** Sum of the component over the rollouts where it applies, and how many those are. */
  readonly sum: number;
  readonly count: number;
  /**
   * Σ w·(c_i - c̄)(t_i - t̄) over the rollouts with a finite total (a component that does not apply
   * counts 0, as the weighted sum skips it): the component's part of the total's within-group
   * variance, Σ (t_i - t̄)², when the total is the weighted sum of the components.
   */
  readonly covariance: number;
}

/** How a group's rollouts compare with the rollouts people marked as hacks (./hackSpread.ts). */
export interface HackLikeTally {
  /** Rollouts that are marked hacks or within the similarity threshold of one. */
  readonly like: number;
  /**
   * The rollouts a person judged for hacks (a reviewed group's, a marked or labelled one's): how
   * the similarity test (leave one out: a marked hack against the other marked hacks) agreed.
   */
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly tn: number;
  /** The rollouts no one judged, and how many of them the similarity test calls hack-like. */
  readonly unlabelled: number;
  readonly unlabelledLike: number;
}

export const NO_HACK_LIKE: HackLikeTally = {
  like: 0,
  tp: 0,
  fp: 0,
  fn: 0,
  tn: 0,
  unlabelled: 0,
  unlabelledLike: 0,
};

/** One group's numbers for the run's health. */
export interface GroupHealth {
  readonly id: string;
  readonly step: number | null;
  /** The prompt's identity across steps: the group's id without its step (./lineage.ts). */
  readonly prompt: string;
  readonly n: number;
  readonly passes: number;
  /** Sum and count of the finite total rewards. */
  readonly rewardSum: number;
  readonly rewarded: number;
  /** Population std of the finite totals; NaN when there are none. */
  readonly std: number;
  readonly zeroStd: boolean;
  readonly mixed: boolean;
  /** Characters of the rollouts' texts (`rolloutText` under the completion rule), summed. */
  readonly chars: number;
  /** Assistant turns, summed (a plain completion is one turn). */
  readonly turns: number;
  readonly toolCalls: number;
  readonly components: Readonly<Record<string, ComponentTally>>;
  /** Σ (t_i - t̄)² of the finite totals: the group's part of the within-group variance. */
  readonly variance: number;
  /** Diversity clusters under the n-gram settings; null when the group is not in the sample. */
  readonly clusters: number | null;
  readonly spread: SpreadVerdict;
  readonly hacks: HackMarks;
  readonly hackLike: HackLikeTally;
}

/** A rollout's assistant turns: its assistant messages, or 1 for a plain completion. */
export function rolloutTurns(rollout: Rollout): number {
  let turns = 0;
  for (const m of rollout.messages) if (m.role === "assistant") turns++;
  return turns === 0 && rollout.completion !== null ? 1 : turns;
}

/**
 * A group's prompt identity across steps: its id without the step it carries (`<step>/<id>`, as
 * TRL's and verl's ids and a run's merged ids are written), else its id.
 */
export function groupPromptKey(id: string, step: number | null): string {
  if (step === null) return id;
  const prefix = `${step}/`;
  return id.startsWith(prefix) ? id.slice(prefix.length) : id;
}

function componentTallies(
  group: RolloutGroup,
  totals: readonly number[],
  weights: Readonly<Record<string, number>> | null,
): Record<string, ComponentTally> {
  const names = new Set<string>();
  for (const r of group.rollouts) for (const k in r.rewards) names.add(k);
  const out: Record<string, ComponentTally> = {};
  if (names.size === 0) return out;
  const scored = group.rollouts.map((_, i) => i).filter((i) => Number.isFinite(totals[i]));
  const tMean = scored.reduce((s, i) => s + totals[i]!, 0) / Math.max(1, scored.length);
  for (const name of names) {
    let sum = 0;
    let count = 0;
    for (const r of group.rollouts) {
      const v = r.rewards[name];
      if (typeof v === "number" && Number.isFinite(v)) {
        sum += v;
        count++;
      }
    }
    const w = weights?.[name] ?? 1;
    const value = (i: number): number => {
      const v = group.rollouts[i]!.rewards[name];
      return typeof v === "number" && Number.isFinite(v) ? w * v : 0;
    };
    const cMean = scored.reduce((s, i) => s + value(i), 0) / Math.max(1, scored.length);
    let covariance = 0;
    for (const i of scored) covariance += (value(i) - cMean) * (totals[i]! - tMean);
    out[name] = { sum, count, covariance };
  }
  return out;
}

/**
 * One group's health numbers under the settings. `clusters` is the group's diversity cluster
 * count when it is in the step's sample (computed by the caller), `hacks` and `hackLike` what the
 * annotations and the hack similarity say of it.
 */
export function groupHealth(
  group: RolloutGroup,
  step: number | null,
  settings: AnalysisSettings,
  extra: {
    readonly annotation?: Pick<GroupAnnotation, "ranking" | "hacks"> | undefined;
    readonly clusters?: number | null;
    readonly hacks?: HackMarks;
    readonly hackLike?: HackLikeTally;
  } = {},
): GroupHealth {
  const totals = group.rollouts.map((r) => rolloutReward(r, settings.rewardWeights));
  const flags = groupFlags(
    totals,
    totals.map((t) => t >= settings.passThreshold),
  );
  let rewardSum = 0;
  let rewarded = 0;
  for (const t of totals)
    if (Number.isFinite(t)) {
      rewardSum += t;
      rewarded++;
    }
  const mean = rewarded === 0 ? NaN : rewardSum / rewarded;
  let variance = 0;
  for (const t of totals) if (Number.isFinite(t)) variance += (t - mean) ** 2;
  let chars = 0;
  let turns = 0;
  let toolCalls = 0;
  for (const r of group.rollouts) {
    chars += rolloutText(r, settings.completionRule).length;
    turns += rolloutTurns(r);
    toolCalls += rolloutToolCalls(r);
  }
  const ranked = extra.annotation !== undefined && extra.annotation.ranking.length > 0;
  const spread = spreadVerdict(
    ranked
      ? rankingSpreadScores(extra.annotation, group.rollouts, settings)
      : totals.filter(Number.isFinite),
  );
  return {
    id: group.id,
    step,
    prompt: groupPromptKey(group.id, step),
    n: group.rollouts.length,
    passes: flags.passes,
    rewardSum,
    rewarded,
    std: rewarded === 0 ? NaN : Math.sqrt(variance / rewarded),
    zeroStd: flags.zeroStd,
    mixed: flags.mixed,
    chars,
    turns,
    toolCalls,
    components: componentTallies(group, totals, settings.rewardWeights),
    variance,
    clusters: extra.clusters ?? null,
    spread,
    hacks: extra.hacks ?? NO_HACK_MARKS,
    hackLike: extra.hackLike ?? NO_HACK_LIKE,
  };
}
