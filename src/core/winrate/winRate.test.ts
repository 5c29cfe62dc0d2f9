import { describe, expect, it } from "vitest";
import { expectClose } from "../../test/approx.ts";
import { grpoAdvantages } from "../advantage/grpo.ts";
import {
  winRateAllPairs,
  winRateCycles,
  winRateFromPairs,
  winRateMatrix,
  winRatePairsFromScores,
  winRatePairsFromTiers,
  type PairResult,
} from "./winRate.ts";

describe("winRateFromPairs", () => {
  it("the benchmax seed: a tie or no verdict counts 0, wins / (n - 1)", () => {
    const pairs: PairResult[] = [
      { a: 0, b: 1, outcome: "a" },
      { a: 0, b: 2, outcome: "tie" },
      { a: 1, b: 2, outcome: null },
    ];
    expect(winRateFromPairs(3, pairs, 0)).toEqual([0.5, 0, 0]);
    expect(winRateFromPairs(3, pairs, 0.5)).toEqual([0.75, 0.25, 0.5]);
  });

  it("guards n = 1", () => {
    expect(winRateFromPairs(1, [])).toEqual([0]);
  });

  it("Pref-GRPO (methods.md 5.2): wins [2, 1.5, 0, 2.5] over 3 give [.667,.5,0,.833] and advantages", () => {
    // 0 beats 2 and 3... construct pairs giving exactly those win counts with ties worth 0.5.
    const pairs: PairResult[] = [
      { a: 0, b: 1, outcome: "a" }, // 0: 1
      { a: 0, b: 2, outcome: "a" }, // 0: 2
      { a: 0, b: 3, outcome: "b" }, // 3: 1
      { a: 1, b: 2, outcome: "a" }, // 1: 1
      { a: 1, b: 3, outcome: "tie" }, // 1: 1.5, 3: 1.5
      { a: 2, b: 3, outcome: "b" }, // 3: 2.5
    ];
    const rates = winRateFromPairs(4, pairs, 0.5).map((w) => Math.round(w * 1000) / 1000);
    expect(rates).toEqual([0.667, 0.5, 0, 0.833]);
    const [adv] = grpoAdvantages([rates], { scale: "group", eps: 1e-8, std: "sample" });
    expectClose(adv!, [0.4639, 0, -1.3889, 0.925]);
  });
});

describe("pairs and the matrix", () => {
  it("all pairs in order", () => {
    expect(winRateAllPairs(3)).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
  });
  it("pairs from scores and from tiers", () => {
    expect(winRatePairsFromScores([1, 0, 1]).map((p) => p.outcome)).toEqual(["a", "tie", "b"]);
    expect(winRatePairsFromTiers([[2], [0]], 3).map((p) => p.outcome)).toEqual([null, "b", null]);
  });
  it("matrix: shares, with NaN gaps for pairs that never met", () => {
    const m = winRateMatrix(
      3,
      [
        { a: 0, b: 1, outcome: "a" },
        { a: 0, b: 1, outcome: "tie" },
      ],
      0.5,
    );
    expect(m[0]![1]).toBe(0.75);
    expect(m[1]![0]).toBe(0.25);
    expect(m[0]![2]).toBeNaN();
  });
  it("flags intransitive cycles", () => {
    const pairs: PairResult[] = [
      { a: 0, b: 1, outcome: "a" },
      { a: 1, b: 2, outcome: "a" },
      { a: 0, b: 2, outcome: "b" },
    ];
    expect(winRateCycles(winRateMatrix(3, pairs))).toEqual([[0, 1, 2]]);
    expect(winRateCycles(winRateMatrix(3, winRatePairsFromScores([3, 2, 1])))).toEqual([]);
  });
});
