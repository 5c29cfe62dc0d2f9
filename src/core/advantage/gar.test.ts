import { describe, expect, it } from "vitest";
import { expectClose } from "../../test/approx.ts";
import { batchSplit } from "../util/batch.ts";
import { GRPO_DEFAULTS, grpoAdvantages } from "./grpo.ts";
import {
  GAR_GROUP_DEFAULTS,
  GAR_STATS_EMPTY,
  garFactorsFromRanking,
  garGroupFromGrader,
  garRedistribute,
  garStatsAdd,
  garStatsSummary,
  garTiers,
} from "./gar.ts";

const obj = (m: Map<number, number>): Record<number, number> => Object.fromEntries(m);

describe("garRedistribute: methods.md 2.1 golden vectors", () => {
  it.each<{ r: number[]; f: Record<number, number>; cap: number; out: number[]; d?: number }>([
    { r: [1, 1, 0, 0], f: { 0: 1.0, 1: 0.5 }, cap: 3, out: [0.6667, 0.3333, -0.5, -0.5] },
    {
      r: [1, 1, 1, 0, 0, 0, 0, 0],
      f: { 0: 1, 1: 0.75, 2: 0.5 },
      cap: 3,
      out: [0.8333, 0.625, 0.4167, -0.375, -0.375, -0.375, -0.375, -0.375],
    },
    {
      r: [1, 1, 0, 0],
      f: { 0: 1, 1: 0.01 },
      cap: 1.5,
      out: [0.810625, 0.068125, -0.439375, -0.439375],
      d: 6,
    },
    {
      r: [1, 1, 0, 0],
      f: { 0: 1, 1: 0.01 },
      cap: 100,
      out: [0.990099, 0.009901, -0.5, -0.5],
      d: 6,
    },
    { r: [1, 0, 1, 0], f: { 0: 0.6, 2: 0.6 }, cap: 3, out: [0.5, -0.5, 0.5, -0.5] },
    { r: [1, 1, 1], f: {}, cap: 3, out: [0, 0, 0] },
    { r: [0, 0, 0], f: {}, cap: 3, out: [0, 0, 0] },
  ])("redistribute($r, $f, cap=$cap)", ({ r, f, cap, out, d }) => {
    expectClose(garRedistribute(r, f, { cap }).advantages, out, d ?? 4);
  });

  it("lambda is 4/3 in the first two vectors, and the cap binds in the third", () => {
    expect(garRedistribute([1, 1, 0, 0], { 0: 1, 1: 0.5 }).lambda).toBeCloseTo(4 / 3, 12);
    const capped = garRedistribute([1, 1, 0, 0], { 0: 1, 1: 0.01 }, { cap: 1.5 });
    expect(capped.lambdaUncapped).toBeCloseTo(1.98, 3);
    expect(capped.lambda).toBe(1.5);
    expect(capped.capped).toBe(true);
  });

  it("conserves the passes' total when the cap does not bind", () => {
    const out = garRedistribute([1, 1, 0, 0], { 0: 1, 1: 0.01 }, { cap: 100 }).advantages;
    expect(out[0]! + out[1]!).toBeCloseTo(1.0, 12);
  });

  it("errors: no factor, factor out of range, cap < 1", () => {
    expect(() => garRedistribute([1, 0], {})).toThrow(/no quality factor/);
    expect(() => garRedistribute([1, 0], { 0: 1.5 })).toThrow(/in \(0, 1\]/);
    expect(() => garRedistribute([1, 0], { 0: 0 })).toThrow(/in \(0, 1\]/);
    expect(() => garRedistribute([1, 0], { 0: 1 }, { cap: 0.5 })).toThrow(/cap must be at least 1/);
  });

  it("an empty group returns []", () => {
    expect(garRedistribute([], {}).advantages).toEqual([]);
  });

  it("a sequence of factors equals the mapping, entries at failures ignored", () => {
    const seq = garRedistribute([1, 0, 1, 0], [1.0, 0.0, 0.5, 0.0]).advantages;
    const map = garRedistribute([1, 0, 1, 0], { 0: 1.0, 2: 0.5 }).advantages;
    expect(seq).toEqual(map);
    expect(
      garRedistribute(
        [1, 0, 1, 0],
        new Map([
          [0, 1.0],
          [2, 0.5],
        ]),
      ).advantages,
    ).toEqual(map);
  });

  it("group of 8 ranked [2,0,5]", () => {
    const f = garFactorsFromRanking([2, 0, 5]);
    expect(obj(f)).toEqual({ 2: 1, 0: 0.75, 5: 0.5 });
    expectClose(
      garRedistribute([1, 0, 1, 0, 0, 1, 0, 0], f).advantages,
      [0.625, -0.375, 0.8333, -0.375, -0.375, 0.4167, -0.375, -0.375],
    );
  });

  it("uses the pass threshold", () => {
    // With threshold 0.9 the 0.6 is a failure and needs no factor.
    expectClose(
      garRedistribute([1, 0.6, 0], { 0: 1 }, { passThreshold: 0.9 }).advantages,
      [1 - 1.6 / 3, 0.6 - 1.6 / 3, -1.6 / 3],
      10,
    );
  });
});

describe("garFactorsFromRanking: methods.md 2.2 golden vectors", () => {
  it.each([
    { ranking: [3, 0, 5], min: 0.5, f: { 3: 1.0, 0: 0.75, 5: 0.5 } },
    { ranking: [[3, 0], 5], min: 0.5, f: { 3: 0.875, 0: 0.875, 5: 0.5 } },
    { ranking: [7], min: 0.5, f: { 7: 1.0 } },
    { ranking: [], min: 0.5, f: {} },
    { ranking: [1, 2], min: 1.0, f: { 1: 1, 2: 1 } },
    { ranking: [0, [1, 2], 3], min: 0.5, f: { 0: 1, 1: 0.75, 2: 0.75, 3: 0.5 } },
  ])("$ranking (min_factor $min)", ({ ranking, min, f }) => {
    expect(obj(garFactorsFromRanking(ranking, min))).toEqual(f);
  });

  it("[[0,1],[2,3]] gives 0.9167 and 0.5833", () => {
    const f = garFactorsFromRanking([
      [0, 1],
      [2, 3],
    ]);
    expectClose([f.get(0)!, f.get(1)!, f.get(2)!, f.get(3)!], [0.9167, 0.9167, 0.5833, 0.5833]);
  });

  it("8 singletons step by 1/14 from 1.0 to 0.5", () => {
    const f = garFactorsFromRanking([0, 1, 2, 3, 4, 5, 6, 7]);
    expectClose(
      [...f.values()],
      [0, 1, 2, 3, 4, 5, 6, 7].map((i) => 1 - i / 14),
      12,
    );
  });

  it("a tiny min_factor still gives factors in (0, 1]", () => {
    expect(garFactorsFromRanking([0, 1], 1e-17).get(1)).toBe(1e-17);
  });

  it("rejects min_factor outside (0, 1] and duplicate indices", () => {
    expect(() => garFactorsFromRanking([0], 0)).toThrow(/min_factor/);
    expect(() => garFactorsFromRanking([0], 1.5)).toThrow(/min_factor/);
    expect(() => garFactorsFromRanking([0, [1, 0]])).toThrow(/twice/);
  });

  it("garTiers drops empty tiers", () => {
    expect(garTiers([1, [], [2, 3]])).toEqual([[1], [2, 3]]);
  });
});

describe("garGroupFromGrader: methods.md 2.3 golden vectors", () => {
  const R = [1, 1, 0, 0];
  it("ranking [0,1]", () => {
    const o = garGroupFromGrader(R, { ranking: [0, 1] });
    expect(o.status).toBe("redistributed");
    expectClose(o.output, [1.1667, 0.8333, 0, 0]);
    expect(o.output.reduce((s, x) => s + x, 0) / 4).toBeCloseTo(0.5, 12);
  });
  it("ranking [0], hacks [1]: effective [1,0,0,0] and output [1,0,0,0]", () => {
    const o = garGroupFromGrader(R, { ranking: [0], hacks: [1] });
    expect(o.effective).toEqual([1, 0, 0, 0]);
    expectClose(o.output, [1, 0, 0, 0], 12);
    expect(o.hacksZeroed).toEqual([1]);
    const mean = 0.25;
    expectClose(
      o.output.map((x) => x - mean),
      [0.75, -0.25, -0.25, -0.25],
      12,
    );
  });
  it("the same with hack_zero off: the hack takes min_factor, mean stays 0.5, no hacks counted", () => {
    const o = garGroupFromGrader(
      R,
      { ranking: [0], hacks: [1] },
      { ...GAR_GROUP_DEFAULTS, hackZero: false },
    );
    expect(o.effective).toEqual(R);
    expect(o.hacksZeroed).toEqual([]);
    expect(o.factors.get(1)).toBe(0.5);
    expectClose(o.output, [1.1667, 0.8333, 0, 0]);
  });
  it("factors {0:1, 1:.05} with cap 1.5 counts lambda_capped", () => {
    const o = garGroupFromGrader(
      R,
      { factors: { 0: 1, 1: 0.05 } },
      { ...GAR_GROUP_DEFAULTS, cap: 1.5 },
    );
    expect(o.capped).toBe(true);
    expect(o.lambda).toBe(1.5);
    expect(o.output.reduce((s, x) => s + x, 0) / 4).toBeCloseTo(0.5, 12);
    const stats = garStatsAdd(GAR_STATS_EMPTY, o, true, true);
    expect(stats.lambdaCapped).toBe(1);
  });
  it("accepts factors as a list", () => {
    const o = garGroupFromGrader(R, { factors: [1, 0.5, null, null] });
    expectClose(o.output, [1.1667, 0.8333, 0, 0]);
  });
  it("hacks that are failures do not count", () => {
    const o = garGroupFromGrader(R, { ranking: [0, 1], hacks: [2] });
    expect(o.hacksZeroed).toEqual([]);
  });
  it.each([
    ["not a mapping", [0, 1]],
    ["neither ranking nor factors", { hacks: [] }],
    ["a pass without a factor", { ranking: [0] }],
    ["a factor out of range", { factors: { 0: 1, 1: 2 } }],
    ["a bad ranking entry", { ranking: ["x"] }],
    ["a null result", null],
  ])("falls back to the original rewards on %s", (_label, result) => {
    const o = garGroupFromGrader(R, result);
    expect(o.status).toBe("fallback");
    expect(o.output).toEqual(R);
    expect(o.error).toBeTruthy();
    expect(garStatsAdd(GAR_STATS_EMPTY, o, true, true).failures).toBe(1);
  });
  it("unmixed groups come back unchanged and need no grader", () => {
    expect(garGroupFromGrader([1, 1], undefined).status).toBe("unmixed");
    expect(garGroupFromGrader([0, 0], undefined).output).toEqual([0, 0]);
  });
});

describe("GAR stats: the seed's stats line (methods.md 2.5)", () => {
  it("3 groups, 2 mixed, 3 grader calls, 0 failed, 1 hacks zeroed; factors mean 0.750 std 0.250", () => {
    const options = GAR_GROUP_DEFAULTS;
    let stats = GAR_STATS_EMPTY;
    // check_spread: refund-17 (mixed) ranked [1, 0]; refund-22 (all pass) ranked [0, 1], hack 2.
    const refund17 = garGroupFromGrader([1, 1, 0], { ranking: [1, 0] }, options);
    stats = garStatsAdd(stats, refund17, true, true);
    // check_spread grades all-pass groups too: apply the ranking to the all-pass group directly.
    const refund22 = garGroupFromGrader([1, 1, 1, 0], { ranking: [0, 1], hacks: [2] }, options);
    stats = garStatsAdd(
      stats,
      {
        ...refund22,
        factors: new Map([
          [0, 1],
          [1, 0.5],
        ]),
      },
      false,
      true,
    );
    // trl_reward: [1,1,0,0] ranked [0,1].
    stats = garStatsAdd(
      stats,
      garGroupFromGrader([1, 1, 0, 0], { ranking: [0, 1] }, options),
      true,
      true,
    );
    expect(stats.factors).toEqual([0.5, 1, 1, 0.5, 1, 0.5]);
    expect(garStatsSummary(stats)).toBe(
      "groupwise grading (advantage): 3 groups, 2 mixed, 3 grader calls, 0 failed (fell back), 1 hacks zeroed; factors mean 0.750 std 0.250",
    );
  });
});

describe("TRL caveat (methods.md 2.6)", () => {
  it("the seed's trl_reward output and the batch vector", () => {
    expectClose(
      garGroupFromGrader([1, 1, 0, 0], { ranking: [0, 1] }).output,
      [1.1667, 0.8333, 0, 0],
    );
    // R = [1,0,0,0 | 1,1,0,1], G = 4, the grader ranks passes in index order.
    const output = batchSplit([1, 0, 0, 0, 1, 1, 0, 1], 4).flatMap((group) => {
      const ranking = group.flatMap((r, i) => (r >= 0.5 ? [i] : []));
      return garGroupFromGrader(group, { ranking }).output;
    });
    expectClose(output, [1, 0, 0, 0, 1.0833, 1.0, 0.0, 0.9167]);
  });
  it("under TRL scale_rewards='group' the 2:1 ratio holds but the moved mass changes", () => {
    const [group] = grpoAdvantages([garGroupFromGrader([1, 1, 0, 0], { ranking: [0, 1] }).output]);
    expectClose(group!, [1.1237, 0.5619, -0.8428, -0.8428]);
    const [none] = grpoAdvantages([garGroupFromGrader([1, 1, 0, 0], { ranking: [0, 1] }).output], {
      ...GRPO_DEFAULTS,
      scale: "none",
    });
    expectClose(none!, [0.6667, 0.3333, -0.5, -0.5]);
  });
});
