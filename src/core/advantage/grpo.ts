/**
 * GRPO-family advantages, exactly as the trainers compute them (methods.md sections 3.2, 4.1, 5.3, 5.4).
 *
 * Rewards arrive per group. NaN marks an unscorable rollout (TRL: every reward function returned None):
 * it is left out of every mean and std, and its advantage is 0 (TRL's `nan_to_num(A, 0)`).
 */
import { statsFinite, statsMean, statsStd, type StdKind } from "../util/stats.ts";

/** How the advantage is scaled: TRL `scale_rewards` "group" (default), "batch" or "none" (Dr. GRPO). */
export type AdvantageScale = "group" | "batch" | "none";

export interface GrpoOptions {
  readonly scale: AdvantageScale;
  /** Added to the std before dividing. TRL 1e-4, verl and ArenaRL 1e-6, Pref-GRPO 1e-8. */
  readonly eps: number;
  /** TRL, verl, Pref-GRPO and ArenaRL use the sample std (n-1); whileai's spread check the population std. */
  readonly std: StdKind;
}

/** TRL GRPOTrainer's defaults: scale_rewards="group", eps 1e-4, Bessel-corrected std. */
export const GRPO_DEFAULTS: GrpoOptions = { scale: "group", eps: 1e-4, std: "sample" };

/** The std a trainer divides by; fewer usable values than the std needs gives NaN, hence advantage 0. */
function groupStd(finite: readonly number[], kind: StdKind): number {
  return statsStd(finite, kind);
}

function zeroNaN(x: number): number {
  return Number.isNaN(x) ? 0 : x;
}

/**
 * GRPO advantages for a batch of groups.
 *
 * - "group": `A = (R - mean_g) / (std_g + eps)`.
 * - "batch": the mean stays per group, the std is over every scorable reward of the batch (TRL >= 0.23).
 * - "none": `A = R - mean_g` (Dr. GRPO; TRL scale_rewards="none", verl norm_adv_by_std_in_grpo=False).
 *
 * A group of one has advantage 0 (TRL uses std 0 there, so R - mean = 0). A group whose std is NaN
 * (one scorable value) also gives 0. NaN rewards give 0.
 *
 * @param groups rewards per group, NaN for unscorable rollouts
 * @returns advantages with the same shape
 */
export function grpoAdvantages(
  groups: readonly (readonly number[])[],
  options: GrpoOptions = GRPO_DEFAULTS,
): number[][] {
  const batchStd =
    options.scale === "batch" ? groupStd(statsFinite(groups.flat()), options.std) : NaN;
  return groups.map((rewards) => {
    const finite = statsFinite(rewards);
    const mean = statsMean(finite);
    if (options.scale === "none") return rewards.map((r) => zeroNaN(r - mean));
    const std =
      options.scale === "batch" ? batchStd : rewards.length > 1 ? groupStd(finite, options.std) : 0;
    return rewards.map((r) => zeroNaN((r - mean) / (std + options.eps)));
  });
}

/**
 * RLOO (leave-one-out) advantages: `A_i = R_i - mean_{j != i} R_j` over the scorable rollouts of the
 * group, with no std scaling. Equal to `G/(G-1) * (R_i - mean)`. A group with one scorable rollout
 * has no baseline, so its advantage is 0, as are NaN rows.
 */
export function grpoRlooAdvantages(groups: readonly (readonly number[])[]): number[][] {
  return groups.map((rewards) => {
    const finite = statsFinite(rewards);
    const k = finite.length;
    if (k < 2) return rewards.map(() => 0);
    let sum = 0;
    for (const v of finite) sum += v;
    return rewards.map((r) => zeroNaN(r - (sum - r) / (k - 1)));
  });
}

/**
 * TRL's weighted multi-reward sum, `nansum_k(w_k * r_k)`: NaN or missing components are skipped.
 * A row with no usable component is unscorable and returns NaN.
 *
 * @param components one value per reward function (NaN = not applicable)
 * @param weights one weight per function; defaults to all 1 (TRL `reward_weights`)
 */
export function grpoWeightedSum(
  components: readonly number[],
  weights?: readonly number[],
): number {
  if (weights !== undefined && weights.length !== components.length) {
    throw new RangeError(
      `reward weights have ${weights.length} entries but there are ${components.length} reward functions`,
    );
  }
  let sum = 0;
  let usable = 0;
  components.forEach((r, k) => {
    if (Number.isNaN(r)) return;
    sum += (weights?.[k] ?? 1) * r;
    usable++;
  });
  return usable === 0 ? NaN : sum;
}

/** How several reward functions combine into one advantage (TRL `multi_objective_aggregation`). */
export type RewardAggregation = "sum_then_normalize" | "normalize_then_sum";

/**
 * Advantages from several reward functions.
 *
 * - "sum_then_normalize" (TRL default): weighted nansum per row, then {@link grpoAdvantages}.
 * - "normalize_then_sum" (GDPO, TRL >= 0.27): each function is normalised within its group with its
 *   own mean and std, the weighted normalised values are summed (NaN skipped, unscorable rows NaN),
 *   then the sums are normalised over the whole batch. `scale` is ignored in this mode, as in TRL.
 *
 * @param groups `groups[g][i][k]`: reward function k on rollout i of group g, NaN when not applicable
 */
export function grpoMultiRewardAdvantages(
  groups: readonly (readonly (readonly number[])[])[],
  aggregation: RewardAggregation,
  options: GrpoOptions = GRPO_DEFAULTS,
  weights?: readonly number[],
): number[][] {
  if (aggregation === "sum_then_normalize") {
    return grpoAdvantages(
      groups.map((rows) => rows.map((row) => grpoWeightedSum(row, weights))),
      options,
    );
  }
  const k = groups[0]?.[0]?.length ?? 0;
  const sums = groups.map((rows) => {
    const normalised = rows.map((row) => row.map(() => NaN));
    for (let f = 0; f < k; f++) {
      const column = rows.map((row) => row[f] ?? NaN);
      const finite = statsFinite(column);
      const mean = statsMean(finite);
      const std = column.length > 1 ? statsStd(finite, options.std) : 0;
      column.forEach((r, i) => {
        normalised[i]![f] = (r - mean) / (std + options.eps);
      });
    }
    // nansum as torch computes it: all-NaN normalised rows sum to 0 (a group with one scorable value
    // has a NaN std); only rows with no raw component at all are unscorable.
    return normalised.map((row, i) =>
      rows[i]!.every(Number.isNaN) ? NaN : zeroNaN(grpoWeightedSum(row, weights)),
    );
  });
  const finite = statsFinite(sums.flat());
  const mean = statsMean(finite);
  const std = statsStd(finite, options.std);
  return sums.map((rows) => rows.map((r) => zeroNaN((r - mean) / (std + options.eps))));
}
