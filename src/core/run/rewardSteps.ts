/**
 * A run's reward numbers per step from the rewards alone (issue 19): groups, rollouts, passes,
 * pass rate, mean reward, zero-std and mixed groups, from each group's list of total rewards.
 * The studio reads an indexed run's groups as summaries (their logged rewards, no text) until it
 * parses them: these are the same numbers runHealth (./runHealth.ts) gives for those steps when
 * the totals are the same, so the reward series can cover every group while the text series wait
 * for parsed ones. Pure.
 */
import { groupFlags } from "../util/passk.ts";
import type { StepHealth } from "./runHealth.ts";

/** The reward part of a step's health. Shares and means are NaN on a 0 denominator. */
export type RewardStepHealth = Pick<
  StepHealth,
  | "step"
  | "groups"
  | "rollouts"
  | "passes"
  | "passRate"
  | "meanReward"
  | "zeroStdGroups"
  | "zeroStdShare"
  | "mixedGroups"
  | "mixedShare"
>;

/** A group as these numbers read it: its step and its rollouts' total rewards (NaN: none). */
export interface RewardGroup {
  readonly step: number | null;
  readonly rewards: readonly number[];
}

interface Tally {
  groups: number;
  rollouts: number;
  passes: number;
  rewardSum: number;
  rewarded: number;
  zeroStd: number;
  mixed: number;
}

const div = (a: number, b: number): number => (b === 0 ? NaN : a / b);

/**
 * Each step's reward numbers, ascending by step with a step-less group's (null) first, as
 * runHealth orders them: a rollout passes at `passThreshold` or above, as groupHealth decides.
 */
export function rewardStepHealth(
  groups: Iterable<RewardGroup>,
  passThreshold: number,
): RewardStepHealth[] {
  const bySteps = new Map<number | null, Tally>();
  for (const g of groups) {
    let t = bySteps.get(g.step);
    if (t === undefined)
      bySteps.set(
        g.step,
        (t = {
          groups: 0,
          rollouts: 0,
          passes: 0,
          rewardSum: 0,
          rewarded: 0,
          zeroStd: 0,
          mixed: 0,
        }),
      );
    const flags = groupFlags(
      g.rewards,
      g.rewards.map((r) => r >= passThreshold),
    );
    t.groups++;
    t.rollouts += g.rewards.length;
    t.passes += flags.passes;
    // The group's sum first, then the step's, as groupHealth and runHealth add them: the same
    // order of additions gives the same floating-point mean.
    let groupSum = 0;
    for (const r of g.rewards)
      if (Number.isFinite(r)) {
        groupSum += r;
        t.rewarded++;
      }
    t.rewardSum += groupSum;
    if (flags.zeroStd) t.zeroStd++;
    if (flags.mixed) t.mixed++;
  }
  const keys = [...bySteps.keys()].sort((a, b) => (a === null ? -1 : b === null ? 1 : a - b));
  return keys.map((step) => {
    const t = bySteps.get(step)!;
    return {
      step,
      groups: t.groups,
      rollouts: t.rollouts,
      passes: t.passes,
      passRate: div(t.passes, t.rollouts),
      meanReward: div(t.rewardSum, t.rewarded),
      zeroStdGroups: t.zeroStd,
      zeroStdShare: div(t.zeroStd, t.groups),
      mixedGroups: t.mixed,
      mixedShare: div(t.mixed, t.groups),
    };
  });
}
