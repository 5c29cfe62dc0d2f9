/**
 * What a group's numbers are over, as the group browser lists them: its rewards (the logged ones
 * or, with reward weights set, each rollout's weighted total) and their pass count, mean, std and
 * flags, in one pass without an array per group (100k groups are listed at once).
 */
import type { Rollout } from "../types.ts";
import { rolloutReward } from "./analyze.ts";

/**
 * A group's rewards: the logged ones (a loader's summary: the reward, or the sum of the
 * components), or with reward weights set and the rollouts at hand, each rollout's weighted total,
 * as the advantages use.
 *
 * @param rollouts the group's rollouts, or undefined while the group is not parsed
 */
export function groupRewards(
  logged: readonly number[],
  rollouts: readonly Rollout[] | undefined,
  weights: Readonly<Record<string, number>> | null,
): readonly number[] {
  if (weights === null || rollouts === undefined) return logged;
  return rollouts.map((r) => rolloutReward(r, weights));
}

export interface GroupRewardStats {
  /** Rewards >= the pass threshold. */
  readonly passes: number;
  /** Mean and population std of the finite rewards; NaN without any. */
  readonly mean: number;
  readonly std: number;
  /** Both passes and failures (`groupFlags`). */
  readonly mixed: boolean;
  /** Every finite reward equal (`groupFlags`: std <= 1e-8); false for an unscored group. */
  readonly zeroStd: boolean;
  /** No finite reward at all: unscored, never zero std. */
  readonly unscored: boolean;
}

/**
 * `groupFlags`, `statsMean` and `statsStd` (population) over a group's finite rewards, in one pass
 * with no array: the same sums in the same order, so the same numbers.
 */
export function groupRewardStats(
  rewards: readonly number[],
  passThreshold: number,
): GroupRewardStats {
  const n = rewards.length;
  let passes = 0;
  let finiteCount = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const r = rewards[i]!;
    if (r >= passThreshold) passes++;
    if (Number.isFinite(r)) {
      finiteCount++;
      sum += r;
    }
  }
  const mean = finiteCount === 0 ? NaN : sum / finiteCount;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const r = rewards[i]!;
    if (Number.isFinite(r)) squares += (r - mean) * (r - mean);
  }
  const std = finiteCount === 0 ? NaN : Math.sqrt(squares / finiteCount);
  return {
    passes,
    mean,
    std,
    mixed: passes > 0 && passes < n,
    zeroStd: finiteCount > 0 && std <= 1e-8,
    unscored: finiteCount === 0,
  };
}
