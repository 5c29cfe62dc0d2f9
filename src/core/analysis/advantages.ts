/**
 * A rollout's total reward under the settings, and the trainer's advantages of every group
 * (GRPO or RLOO, summed or normalised per component).
 */
import {
  grpoAdvantages,
  grpoMultiRewardAdvantages,
  grpoRlooAdvantages,
  grpoWeightedSum,
} from "../advantage/grpo.ts";
import type { Rollout } from "../types.ts";
import type { AnalysisSettings } from "./analysisSettings.ts";

/** What a rollout's total reward and the trainer's advantages are computed from. */
export type RewardInputs = Pick<Rollout, "reward" | "rewards">;

/** A group as the advantages see it: its rollouts' rewards. */
export interface AdvantageGroup {
  readonly rollouts: readonly RewardInputs[];
}

/** The names of every reward component in the groups, in first-seen order. */
export function rewardComponentNames(groups: Iterable<AdvantageGroup>): string[] {
  const names = new Set<string>();
  // for-in over own keys: Object.keys' names in its order, without an array per rollout (400k
  // rollouts when the settings mount with a 100k-group file).
  for (const g of groups)
    for (const r of g.rollouts)
      for (const k in r.rewards) if (Object.hasOwn(r.rewards, k)) names.add(k);
  return [...names];
}

/**
 * A rollout's total reward: with weights set, the weighted sum of its components (NaN ones skipped,
 * missing weights 1); otherwise its given reward, or the plain sum of its components when it has no
 * reward. NaN when nothing is usable.
 */
export function rolloutReward(
  rollout: RewardInputs,
  weights: Readonly<Record<string, number>> | null,
): number {
  const names = Object.keys(rollout.rewards);
  const components = (): number =>
    grpoWeightedSum(
      names.map((k) => rollout.rewards[k] ?? NaN),
      names.map((k) => weights?.[k] ?? 1),
    );
  if (weights !== null && names.length > 0) return components();
  if (rollout.reward !== null) return rollout.reward;
  return names.length > 0 ? components() : NaN;
}

/** Trainer advantages for every group, under the settings (batch scaling needs the whole dataset). */
export function analysisAdvantages(
  groups: readonly AdvantageGroup[],
  settings: AnalysisSettings,
): number[][] {
  const totals = groups.map((g) => g.rollouts.map((r) => rolloutReward(r, settings.rewardWeights)));
  if (settings.estimator === "rloo") return grpoRlooAdvantages(totals);
  const options = { scale: settings.scale, eps: settings.eps, std: settings.std };
  if (settings.aggregation === "normalize_then_sum") {
    const names = rewardComponentNames(groups);
    if (names.length > 0) {
      const matrix = groups.map((g) =>
        g.rollouts.map((r) => names.map((k) => r.rewards[k] ?? NaN)),
      );
      const weights = names.map((k) => settings.rewardWeights?.[k] ?? 1);
      return grpoMultiRewardAdvantages(matrix, "normalize_then_sum", options, weights);
    }
  }
  return grpoAdvantages(totals, options);
}

/**
 * Whether each group's trainer advantages follow from the group alone: every estimator and scale
 * but GRPO's batch std, and the summed total (normalize-then-sum takes the component names of the
 * whole dataset).
 */
export function advantagesAreGroupwise(
  settings: Pick<AnalysisSettings, "estimator" | "scale" | "aggregation">,
): boolean {
  return (
    settings.estimator === "rloo" ||
    (settings.scale !== "batch" && settings.aggregation === "sum_then_normalize")
  );
}
