/**
 * GAR from a person's judgement instead of a grader call: the studio's annotations (a best-first
 * ranking of the passes, and hacks). The rules are the foundation issue's, shared by UI and CLI:
 *
 * - hacks are zeroed first (when hack zeroing is on), in any group, all-pass groups included;
 *   as in whileai, only a hack that is a pass counts;
 * - with zeroing on a hack leaves the ranking before the factors are computed (a tier left empty
 *   vanishes); with zeroing off a hack keeps its place, or takes minFactor when it is unranked;
 * - if the effective group is all-pass or all-fail nothing is redistributed;
 * - a ranking that leaves out a pass that still counts makes the group incomplete: no GAR values;
 * - a failing rollout named in the ranking is reported and ignored.
 */
import {
  garApply,
  garFactorsFromRanking,
  type GarGroupOptions,
  type GarGroupOutcome,
} from "./gar.ts";

export interface GarHumanInput {
  /** Best-first tiers of indices into the group. */
  readonly ranking: readonly (readonly number[])[];
  /** Indices marked as hacks. */
  readonly hacks: readonly number[];
}

export type GarHumanResult =
  | {
      readonly kind: "applied";
      readonly outcome: GarGroupOutcome;
      /** Failing indices that the ranking named; they were ignored. */
      readonly ignoredFailures: readonly number[];
    }
  | {
      readonly kind: "incomplete";
      /** Passes that still count but are missing from the ranking. */
      readonly unranked: readonly number[];
      readonly ignoredFailures: readonly number[];
    };

/**
 * Apply a human ranking and hack marks to one group's rewards.
 *
 * @param rewards the group's rewards, in group order
 * @throws GarError if an index appears twice in the ranking or options are out of range
 */
export function garFromHumanRanking(
  rewards: readonly number[],
  input: GarHumanInput,
  options: GarGroupOptions,
): GarHumanResult {
  const isPass = (i: number): boolean => rewards[i]! >= options.passThreshold;
  const hacks = [...new Set(input.hacks)].filter(isPass).sort((a, b) => a - b);
  const hackSet = new Set(hacks);
  const ignoredFailures: number[] = [];
  const tiers = input.ranking
    .map((tier) =>
      tier.filter((i) => {
        if (!isPass(i)) {
          ignoredFailures.push(i);
          return false;
        }
        return !(options.hackZero && hackSet.has(i));
      }),
    )
    .filter((tier) => tier.length > 0);
  const factors = garFactorsFromRanking(tiers, options.minFactor);
  const stillPassing = rewards
    .map((_, i) => i)
    .filter((i) => isPass(i) && !(options.hackZero && hackSet.has(i)));
  const mixed = stillPassing.length > 0 && stillPassing.length < rewards.length;
  const unranked = stillPassing.filter((i) => !factors.has(i) && !hackSet.has(i));
  if (mixed && unranked.length > 0) return { kind: "incomplete", unranked, ignoredFailures };
  return { kind: "applied", outcome: garApply(rewards, factors, hacks, options), ignoredFailures };
}
