import { describe, expect, it } from "vitest";
import { expectClose } from "../../test/approx.ts";
import {
  arenaAnchor,
  arenaRoundRobin,
  arenaRun,
  arenaSeedOrder,
  arenaSingleElimination,
  type ArenaMatch,
} from "./arena.ts";

/** A judge for players whose strength decreases with their index: lower index scores higher. */
const byIndex = (m: ArenaMatch) => ({ a: 10 - m.a, b: 10 - m.b });

describe("arenaSeedOrder: methods.md 5.1", () => {
  it("n = 8 gives the standard bracket", () => {
    expect(arenaSeedOrder(8)).toEqual([0, 7, 3, 4, 1, 6, 2, 5]);
  });
  it("n = 6 filters to [0,3,4,1,2,5]", () => {
    expect(arenaSeedOrder(6)).toEqual([0, 3, 4, 1, 2, 5]);
  });
  it("small n", () => {
    expect(arenaSeedOrder(0)).toEqual([]);
    expect(arenaSeedOrder(1)).toEqual([0]);
    expect(arenaSeedOrder(3)).toEqual([0, 1, 2]);
  });
});

describe("arenaSingleElimination", () => {
  it("N = 6 with strictly ordered strengths: final ranking 0, 2, 1, 3, 4, 5 (the no-bye quirk)", () => {
    const result = arenaRun(arenaSingleElimination(6), byIndex);
    expect(result.ranking).toEqual([0, 2, 1, 3, 4, 5]);
    const bracket = result.matches.filter((m) => m.phase === "bracket");
    expect(bracket.map((m) => [m.a, m.b, m.round])).toEqual([
      [0, 3, 1],
      [4, 1, 1],
      [2, 5, 1],
      [0, 1, 2],
      [0, 2, 3],
    ]);
  });

  it("costs 2N - 2 judgements: N - 1 seeding plus N - 1 bracket", () => {
    for (const n of [2, 3, 5, 8, 13]) {
      expect(arenaRun(arenaSingleElimination(n), byIndex).matches).toHaveLength(2 * n - 2);
    }
  });

  it("N = 8 advantages are ±1.4289, ±1.0206, ±0.6124, ±0.2041", () => {
    const result = arenaRun(arenaSingleElimination(8), byIndex);
    const sorted = [...result.advantages].sort((a, b) => b - a);
    expectClose(sorted, [1.4289, 1.0206, 0.6124, 0.2041, -0.2041, -0.6124, -1.0206, -1.4289]);
    expect(result.rewards[result.ranking[0]!]).toBe(1);
  });

  it("a tie advances the first-listed player", () => {
    const result = arenaRun(arenaSingleElimination(2), () => ({ a: 5, b: 5 }));
    expect(result.ranking).toEqual([0, 1]);
  });

  it("seeding reorders the bracket: the pivot's strength is its mean score", () => {
    // Player 3 is strongest; the pivot is weakest.
    const strength = [1, 5, 6, 9];
    const result = arenaRun(arenaSingleElimination(4), (m) => ({
      a: strength[m.a]!,
      b: strength[m.b]!,
    }));
    expect(result.ranking[0]).toBe(3);
    expect(result.ranking[result.ranking.length - 1]).toBe(0);
  });

  it("n = 0 and n = 1", () => {
    expect(arenaRun(arenaSingleElimination(0), byIndex).ranking).toEqual([]);
    const one = arenaRun(arenaSingleElimination(1), byIndex);
    expect(one).toMatchObject({ ranking: [0], rewards: [1], advantages: [0], matches: [] });
  });
});

describe("round robin and anchor", () => {
  it("round robin: a win 1, a tie 0.5, min-ranking, then standardised", () => {
    const result = arenaRun(arenaRoundRobin(3), (m) =>
      m.a === 1 && m.b === 2 ? { a: 1, b: 1 } : byIndex(m),
    );
    // wins: 0 -> 2, 1 -> 0.5, 2 -> 0.5; ranks 1, 2, 2; max rank 2; r = [1, 0, 0].
    expect(result.rewards).toEqual([1, 0, 0]);
    expect(result.ranking).toEqual([0, 1, 2]);
    expect(result.matches).toHaveLength(3);
  });
  it("round robin with every rank 1 gives all zeros", () => {
    expect(arenaRun(arenaRoundRobin(3), () => ({ a: 1, b: 1 })).rewards).toEqual([0, 0, 0]);
  });
  it("anchor: each player's score against the pivot, the pivot's mean", () => {
    const result = arenaRun(arenaAnchor(3), (m) => ({ a: 4, b: m.b === 1 ? 6 : 2 }));
    // scores [4, 6, 2]: ranks [2, 1, 3], max 3: r = [0.5, 1, 0].
    expect(result.rewards).toEqual([0.5, 1, 0]);
    expect(result.ranking).toEqual([1, 0, 2]);
  });
});
