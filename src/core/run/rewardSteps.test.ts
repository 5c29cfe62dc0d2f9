/**
 * Covers: a run's reward numbers per step from the rewards alone (rewardStepHealth) are
 * runHealth's for the same groups: on a hand-made run with unscored rollouts, zero-std and mixed
 * groups and a step-less group, and, as a property, on random runs (fast-check): the pass rate,
 * mean reward and shares are the same numbers, NaN where runHealth's are.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { ANALYSIS_DEFAULTS } from "../analysis/analysisSettings.ts";
import { rolloutReward } from "../analysis/advantages.ts";
import type { RolloutGroup } from "../types.ts";
import { rewardStepHealth } from "./rewardSteps.ts";
import { runHealth } from "./runHealth.ts";

const REWARD_KEYS = [
  "step",
  "groups",
  "rollouts",
  "passes",
  "passRate",
  "meanReward",
  "zeroStdGroups",
  "zeroStdShare",
  "mixedGroups",
  "mixedShare",
] as const;

function group(id: string, rewards: readonly (number | null)[]): RolloutGroup {
  return {
    id,
    rollouts: rewards.map((reward, index) =>
      testRollout({ id: `${id}/${index}`, groupId: id, index, reward, completion: `a${index}` }),
    ),
  };
}

/** runHealth's reward numbers, and rewardStepHealth's over the same groups' totals. */
function both(run: readonly { group: RolloutGroup; step: number | null }[]) {
  const health = runHealth(run, ANALYSIS_DEFAULTS, { clusterSample: 0 });
  const expected = health.steps.map((s) => Object.fromEntries(REWARD_KEYS.map((k) => [k, s[k]])));
  const actual = rewardStepHealth(
    run.map(({ group: g, step }) => ({
      step,
      rewards: g.rollouts.map((r) => rolloutReward(r, null)),
    })),
    ANALYSIS_DEFAULTS.passThreshold,
  );
  return { expected, actual };
}

describe("rewardStepHealth", () => {
  it("gives runHealth's reward numbers on a hand-made run", () => {
    const run = [
      { group: group("a", [1, 0, 1, 0]), step: 2 },
      { group: group("b", [1, 1, 1, 1]), step: 2 },
      { group: group("c", [0, 0, null, 0]), step: 1 },
      { group: group("d", [null, null]), step: 1 },
      { group: group("e", [0.5, 1]), step: null },
    ];
    const { expected, actual } = both(run);
    expect(actual).toEqual(expected);
    expect(actual.map((s) => s.step)).toEqual([null, 1, 2]);
    // Step 1: 6 rollouts, no pass, one zero-std group (c; d has no reward at all).
    expect(actual[1]).toMatchObject({ groups: 2, rollouts: 6, passes: 0, zeroStdGroups: 1 });
    expect(actual[1]!.meanReward).toBe(0);
    expect(actual[2]).toMatchObject({ passRate: 6 / 8, zeroStdShare: 0.5, mixedShare: 0.5 });
  });

  it("gives runHealth's reward numbers on random runs", () => {
    const reward = fc.oneof(
      fc.constant(null),
      fc.constantFrom(0, 0.5, 1),
      fc.double({ min: -2, max: 2, noNaN: true }),
    );
    const run = fc.array(
      fc.record({
        step: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 5 })),
        rewards: fc.array(reward, { minLength: 1, maxLength: 6 }),
      }),
      { minLength: 1, maxLength: 12 },
    );
    fc.assert(
      fc.property(run, (groups) => {
        const { expected, actual } = both(
          groups.map((g, i) => ({ group: group(`g${i}`, g.rewards), step: g.step })),
        );
        expect(actual).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
