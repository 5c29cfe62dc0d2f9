import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { groupFlags } from "../util/passk.ts";
import { statsFinite, statsMean, statsStd } from "../util/stats.ts";
import { groupRewards, groupRewardStats } from "./groupRewards.ts";

describe("groupRewards", () => {
  const rollouts = [
    testRollout({ id: "a", reward: 1, rewards: { x: 1, y: 0 } }),
    testRollout({ id: "b", reward: 0, rewards: { x: 0.5, y: 1 } }),
  ];

  it("is the logged rewards (the same array) without weights or without the rollouts", () => {
    const logged = [1, 0];
    expect(groupRewards(logged, rollouts, null)).toBe(logged);
    expect(groupRewards(logged, undefined, { x: 2 })).toBe(logged);
  });

  it("is each rollout's weighted total with weights and the rollouts", () => {
    expect(groupRewards([1, 0], rollouts, { x: 2, y: 0.5 })).toEqual([2, 1.5]);
  });
});

describe("groupRewardStats", () => {
  it("counts passes at the threshold and flags a mixed group", () => {
    expect(groupRewardStats([1, 0.5, 0], 0.5)).toEqual({
      passes: 2,
      mean: 0.5,
      std: Math.sqrt(1 / 6),
      mixed: true,
      zeroStd: false,
      unscored: false,
    });
  });

  it("leaves NaN rewards out of the numbers; none at all is unscored, not zero std", () => {
    expect(groupRewardStats([NaN, 1, 1], 0.5)).toMatchObject({
      passes: 2,
      mean: 1,
      std: 0,
      mixed: true,
      zeroStd: true,
    });
    expect(groupRewardStats([NaN, NaN], 0.5)).toMatchObject({
      passes: 0,
      mixed: false,
      zeroStd: false,
      unscored: true,
    });
    expect(groupRewardStats([], 0.5).mean).toBeNaN();
  });

  const reward = fc.oneof(
    fc.constantFrom(0, 0.5, 1, NaN),
    fc.double({ min: -2, max: 2, noNaN: true, noDefaultInfinity: true }),
  );

  test.prop([fc.array(reward, { maxLength: 12 }), fc.double({ min: -1, max: 2, noNaN: true })])(
    "gives the numbers of groupFlags, statsMean and statsStd (population) exactly",
    (rewards, threshold) => {
      const stats = groupRewardStats(rewards, threshold);
      const flags = groupFlags(
        rewards,
        rewards.map((r) => r >= threshold),
      );
      const finite = statsFinite(rewards);
      expect(stats).toEqual({
        passes: flags.passes,
        mean: statsMean(finite),
        std: statsStd(finite, "population"),
        mixed: flags.mixed,
        zeroStd: flags.zeroStd,
        unscored: flags.unscored,
      });
    },
  );
});
