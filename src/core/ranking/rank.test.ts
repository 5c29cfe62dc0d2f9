import { describe, expect, it } from "vitest";
import {
  rankAverage,
  rankPlaces,
  rankTierMidpoints,
  rankTierScores,
  rankTiersFromScores,
  rankTransform,
  rankTransformTies,
} from "./rank.ts";

describe("rankTransform: methods.md 1.7", () => {
  it("[0.2, 0.9, 0.5, 0.9] gives [0, 2/3, 1/3, 1]: ties by index, not averaged", () => {
    expect(rankTransform([0.2, 0.9, 0.5, 0.9])).toEqual([0, 2 / 3, 1 / 3, 1]);
  });
  it("n = 1 gives 1.0 and n = 0 gives []", () => {
    expect(rankTransform([3])).toEqual([1]);
    expect(rankTransform([])).toEqual([]);
  });
  it("NaN sorts below every number", () => {
    expect(rankTransform([NaN, -5, NaN])).toEqual([0, 1, 0.5]);
  });
});

describe("rankTransformTies: the studio's rank tie rule (methods.md 1.7 and 9)", () => {
  it('"index" is the seed\'s rank transform', () => {
    expect(rankTransformTies([0.2, 0.9, 0.5, 0.9], "index")).toEqual([0, 2 / 3, 1 / 3, 1]);
  });
  it('"average": the tied 0.9s share positions 2 and 3, so 2.5 / 3', () => {
    expect(rankTransformTies([0.2, 0.9, 0.5, 0.9], "average")).toEqual([0, 5 / 6, 1 / 3, 5 / 6]);
  });
  it("four passes and two failures: every pass 0.7, every failure 0.1", () => {
    const ranks = rankTransformTies([0, 1, 1, 0, 1, 1], "average");
    expect(ranks.map((r) => Math.round(r * 1e9) / 1e9)).toEqual([0.1, 0.7, 0.7, 0.1, 0.7, 0.7]);
  });
  it("NaN scores are lowest and tie with each other; 0 and -0 tie; n = 1 and n = 0", () => {
    expect(rankTransformTies([NaN, -5, NaN], "average")).toEqual([0.25, 1, 0.25]);
    expect(rankTransformTies([0, -0, 1], "average")).toEqual([0.25, 0.25, 1]);
    expect(rankTransformTies([3], "average")).toEqual([1]);
    expect(rankTransformTies([], "average")).toEqual([]);
  });
  it("all equal: every rank is 0.5", () => {
    expect(rankTransformTies([1, 1, 1, 1, 1], "average")).toEqual([0.5, 0.5, 0.5, 0.5, 0.5]);
  });
});

describe("rubric tier scores (benchmax rubric.py)", () => {
  it("tiers take the midpoint of the ranks they span", () => {
    expect(rankTierScores([[0, 1], [2]], 3)).toEqual([0.75, 0.75, 0]);
    expect(rankTierScores([[2], [0], [1]], 3)).toEqual([0.5, 0, 1]);
  });
  it("unranked (empty) responses score 0; a single ranked item scores 1", () => {
    expect(rankTierScores([[1]], 3)).toEqual([0, 1, 0]);
  });
  it("midpoint ranks", () => {
    expect(rankTierMidpoints([[3], [0, 1]], 4)).toEqual([1.5, 1.5, null, 0]);
  });
});

describe("rankAverage and rankTiersFromScores", () => {
  it("averages tied ranks", () => {
    expect(rankAverage([10, 20, 10, 30])).toEqual([1.5, 3, 1.5, 4]);
    expect(rankAverage([2, NaN, 1, NaN])).toEqual([2, 3.5, 1, 3.5]);
    expect(rankAverage([0, -0])).toEqual([1.5, 1.5]);
  });
  it("groups equal scores into best-first tiers", () => {
    expect(rankTiersFromScores([0.2, 0.9, 0.5, 0.9])).toEqual([[1, 3], [2], [0]]);
  });
});

describe("rankPlaces: one convention, best = 1", () => {
  it("[0.2, 0.9, 0.5, 0.9] places [4, 1.5, 3, 1.5] (average) and [4, 2, 3, 1] (index)", () => {
    expect(rankPlaces([0.2, 0.9, 0.5, 0.9], "average")).toEqual([4, 1.5, 3, 1.5]);
    expect(rankPlaces([0.2, 0.9, 0.5, 0.9], "index")).toEqual([4, 2, 3, 1]);
  });
  it("NaN places last; n = 1 places 1", () => {
    expect(rankPlaces([NaN, 1, NaN], "average")).toEqual([2.5, 1, 2.5]);
    expect(rankPlaces([7], "index")).toEqual([1]);
    expect(rankPlaces([], "average")).toEqual([]);
  });
});
