import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
  type Rollout,
  type RolloutGroup,
} from "../../../core/index.ts";
import {
  overviewGroupRewards,
  overviewSubject,
  prepareFactorSpread,
  prepareGroupKinds,
  prepareGroupSizes,
  prepareLengthReward,
  preparePassK,
  prepareRewardOverview,
} from "./prepareOverview.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";

function rollout(
  groupId: string,
  i: number,
  reward: number | null,
  completion: string,
  rewards: Record<string, number | null> = {},
): Rollout {
  return testRollout({
    id: `${groupId}/${i}`,
    groupId,
    index: i,
    completion,
    reward,
    rewards,
  });
}

function group(id: string, rewards: (number | null)[], texts?: string[]): RolloutGroup {
  return {
    id,
    rollouts: rewards.map((r, i) => rollout(id, i, r, texts?.[i] ?? "x".repeat(i + 1))),
  };
}

const groups = [
  group("a", [1, 0, 1, 0]), // mixed
  group("b", [1, 1, 1]), // zero std, all pass
  group("c", [0, 0, null]), // zero std (NaN ignored), all fail
  group("d", [0.2, 0.1]), // one-sided, varied
];
const rewardsOf = (gs: readonly RolloutGroup[]) =>
  overviewGroupRewards(
    gs.map((g) => ({ rewards: g.rollouts.map((r) => r.reward ?? NaN) })),
    gs,
    false,
    null,
  );

describe("reward histogram and pass rate", () => {
  it("counts passes over rollouts with a reward, under the threshold setting", () => {
    const o = prepareRewardOverview(rewardsOf(groups), 0.5);
    expect(o.rollouts).toBe(12);
    expect(o.scored).toBe(11);
    expect(o.unscorable).toBe(1);
    expect(o.passes).toBe(5);
    expect(o.passRate).toBeCloseTo(5 / 11, 12);
    expect(prepareRewardOverview(rewardsOf(groups), 0.15).passes).toBe(6);
    expect(o.how).toContain("R >= 0.5");
    // Few distinct rewards: one bar each, coloured by pass or fail.
    expect(o.rows.map((r) => [r.label, r.count])).toEqual([
      ["0", 4],
      ["0.1", 1],
      ["0.2", 1],
      ["1", 5],
    ]);
    expect(o.rows[0]!.fill).not.toBe(o.rows[3]!.fill);
    expect(o.how).toContain("one bar per distinct value");
  });

  it("bins many distinct rewards into equal widths", () => {
    const many = { rewards: [Array.from({ length: 100 }, (_, i) => i / 99)], source: "" };
    const o = prepareRewardOverview(many, 0.5, 10);
    expect(o.rows).toHaveLength(10);
    expect(o.rows.map((r) => r.count)).toEqual([10, 10, 10, 10, 10, 10, 10, 10, 10, 10]);
    expect(o.rows[9]!.label).toBe("0.90–1.00");
    expect(o.how).toContain("10 equal-width bins");
  });

  test.prop([
    fc.array(
      fc.array(fc.oneof(fc.constant(NaN), fc.double({ min: -5, max: 5, noNaN: true })), {
        maxLength: 8,
      }),
      { maxLength: 30 },
    ),
  ])("the bins add up to the rollouts with a reward", (rs) => {
    const o = prepareRewardOverview({ rewards: rs, source: "" }, 0.5);
    const finite = rs.flat().filter((r) => Number.isFinite(r)).length;
    expect(o.rows.reduce((s, r) => s + r.count, 0)).toBe(finite);
    expect(o.scored + o.unscorable).toBe(rs.flat().length);
  });

  it("uses the reward weights on a whole-file load, the logged reward on an indexed one", () => {
    const g = {
      id: "w",
      rollouts: [rollout("w", 0, 1, "a", { x: 1, y: 0 }), rollout("w", 1, 0, "b", { x: 0, y: 1 })],
    };
    const summaries = [{ rewards: [1, 0] }];
    expect(overviewGroupRewards(summaries, [g], false, { y: 3 }).rewards).toEqual([[1, 3]]);
    const indexed = overviewGroupRewards(summaries, [g], true, { y: 3 });
    expect(indexed.rewards).toEqual([[1, 0]]);
    expect(indexed.source).toContain("indexed");
  });
});

describe("pass^k, group kinds and sizes", () => {
  it("pass^k over groups with at least k rollouts", () => {
    const p = preparePassK(rewardsOf(groups), 0.5);
    expect(p.rows.map((r) => r.k)).toEqual([1, 2, 3, 4]);
    // k = 1: mean of c/n = (2/4 + 3/3 + 0 + 0) / 4
    expect(p.rows[0]!.passK).toBeCloseTo((0.5 + 1) / 4, 12);
    // k = 4: only group a (4 rollouts, 2 passes): C(2,4)/C(4,4) = 0
    expect(p.rows[3]).toEqual({ k: 4, passK: 0, groups: 1 });
    expect(p.rows[2]!.groups).toBe(3);
  });

  it("zero-std, mixed and one-sided groups are disjoint and add up", () => {
    const k = prepareGroupKinds(rewardsOf(groups), 0.5);
    expect(k.rows.map((r) => [r.kind, r.count])).toEqual([
      ["zero std", 2],
      ["mixed", 1],
      ["one-sided, varied", 1],
    ]);
    expect(k.zeroStd).toBe(2);
    expect(k.mixed).toBe(1);
    expect(k.rows.reduce((s, r) => s + r.share, 0)).toBeCloseTo(1, 12);
    // A lower threshold turns group d into a mixed group.
    expect(prepareGroupKinds(rewardsOf(groups), 0.15).mixed).toBe(2);
  });

  it("a group without any reward is unscored, not zero std, and the kinds still add up", () => {
    const k = prepareGroupKinds(
      rewardsOf([...groups, group("e", [null]), group("f", [null, null])]),
      0.5,
    );
    expect(k.rows.map((r) => [r.kind, r.count])).toEqual([
      ["zero std", 2],
      ["mixed", 1],
      ["one-sided, varied", 1],
      ["unscored", 2],
    ]);
    expect(k.rows.reduce((s, r) => s + r.count, 0)).toBe(k.groups);
    expect(k.how).toContain("Unscored");
  });

  it("counts groups per size", () => {
    expect(prepareGroupSizes(rewardsOf(groups)).rows).toEqual([
      { size: "2", count: 1 },
      { size: "3", count: 2 },
      { size: "4", count: 1 },
    ]);
  });
});

describe("length against reward", () => {
  it("fits over every rollout with a reward and subsamples the points, saying so", () => {
    const long = group(
      "l",
      Array.from({ length: 40 }, (_, i) => i / 40),
      Array.from({ length: 40 }, (_, i) => "y".repeat(i * 10)),
    );
    const o = prepareLengthReward([long], 1, false, ANALYSIS_DEFAULTS, 10);
    expect(o.total).toBe(40);
    expect(o.points).toHaveLength(10);
    expect(o.fit.r).toBeCloseTo(1, 9);
    expect(o.line![0].x).toBe(0);
    expect(o.line![1].x).toBe(390);
    expect(o.caveats).toEqual([
      "10 of 40 points shown (evenly spaced in file order); the line and r use all 40.",
    ]);
  });

  it("reads at most maxFit rollouts for the fit, evenly spaced, and says so", () => {
    const long = group(
      "l",
      Array.from({ length: 40 }, (_, i) => i / 40),
      Array.from({ length: 40 }, (_, i) => "y".repeat(i * 10)),
    );
    const o = prepareLengthReward([long], 1, false, ANALYSIS_DEFAULTS, 100, 8);
    expect(o.total).toBe(8);
    expect(o.points.map((p) => p.length)).toEqual([0, 50, 100, 150, 200, 250, 300, 350]);
    expect(o.fit.r).toBeCloseTo(1, 9);
    expect(o.caveats).toEqual([
      "The line and r use 8 of 40 rollouts (evenly spaced in file order).",
    ]);
  });

  it("leaves out rollouts without a reward and names an indexed file's unparsed groups", () => {
    const o = prepareLengthReward([groups[2]!], 4, true, ANALYSIS_DEFAULTS);
    expect(o.total).toBe(2);
    // Equal rewards: no correlation, a flat line.
    expect(o.fit.r).toBeNaN();
    expect(o.line).toEqual([
      { x: 1, y: 0 },
      { x: 2, y: 0 },
    ]);
    expect(o.caveats).toEqual([
      "Indexed file: only the 1 parsed of 4 groups have texts, so only they are shown.",
    ]);
  });
});

describe("spread of grader factors", () => {
  it("says what is needed when nothing is ranked", () => {
    const s = prepareFactorSpread(groups, ANNOTATIONS_EMPTY, ANALYSIS_DEFAULTS);
    expect(s.report).toBeNull();
    expect(s.note).toMatch(/rank the passes/);
  });

  it("collects the non-hack passes' factors of ranked groups and runs the spread check", () => {
    const annotations: Annotations = {
      ...ANNOTATIONS_EMPTY,
      groups: {
        a: { ...GROUP_ANNOTATION_EMPTY, ranking: [["a/2"], ["a/0"]] },
        zz: { ...GROUP_ANNOTATION_EMPTY, ranking: [["zz/0"]] },
      },
    };
    const s = prepareFactorSpread(groups, annotations, ANALYSIS_DEFAULTS);
    expect(s.note).toBeNull();
    expect(s.rankedGroups).toBe(1);
    expect(s.notParsed).toBe(1);
    expect(s.report!.n).toBe(2);
    expect(s.report!.std).toBeCloseTo(0.25, 12);
    expect(s.report!.ok).toBe(true);
    expect(s.rows.reduce((t, r) => t + r.count, 0)).toBe(2);
    expect(s.how).toContain("1 ranked group is not parsed yet");
    // Marking the better pass a hack (zeroing on) leaves one factor: no spread.
    const hacked: Annotations = {
      ...ANNOTATIONS_EMPTY,
      groups: { a: { ...annotations.groups.a!, hacks: ["a/2"] } },
    };
    expect(prepareFactorSpread(groups, hacked, ANALYSIS_DEFAULTS).report!.ok).toBe(false);
  });

  it("names files after the dataset", () => {
    expect(overviewSubject("support-groups.jsonl")).toBe("support-groups");
    expect(overviewSubject("dir/x.tar.gz")).toBe("x.tar");
    expect(overviewSubject(".jsonl")).toBe("dataset");
  });
});
