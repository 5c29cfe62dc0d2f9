import { describe, expect, it } from "vitest";
import { bradleyTerryBootstrap, bradleyTerryFit } from "./bradleyTerry.ts";
import { winRatePairsFromScores, type PairResult } from "./winRate.ts";

describe("bradleyTerryFit", () => {
  it("orders players like a strict total order and converges", () => {
    const fit = bradleyTerryFit(4, winRatePairsFromScores([0.1, 0.9, 0.5, 0.7]));
    expect(fit.converged).toBe(true);
    const order = [0, 1, 2, 3].sort((a, b) => fit.logStrength[b]! - fit.logStrength[a]!);
    expect(order).toEqual([1, 3, 2, 0]);
    expect(fit.logStrength.reduce((s, x) => s + x, 0)).toBeCloseTo(0, 10);
  });

  it("recovers the closed form for two players: p0/p1 = (w0 + prior/2)/(w1 + prior/2)", () => {
    const pairs: PairResult[] = [
      ...new Array<PairResult>(3).fill({ a: 0, b: 1, outcome: "a" }),
      { a: 0, b: 1, outcome: "b" },
    ];
    const fit = bradleyTerryFit(2, pairs, { prior: 0.1 });
    expect(fit.strength[0]! / fit.strength[1]!).toBeCloseTo(3.05 / 1.05, 8);
  });

  it("ties are half a win each, so equal records give equal strengths", () => {
    const fit = bradleyTerryFit(2, [{ a: 0, b: 1, outcome: "tie" }]);
    expect(fit.logStrength[0]).toBeCloseTo(0, 10);
  });

  it("one player has strength 1", () => {
    expect(bradleyTerryFit(1, []).strength).toEqual([1]);
  });
});

describe("bradleyTerryBootstrap", () => {
  it("is seeded and brackets the fit", () => {
    const pairs = winRatePairsFromScores([3, 2, 1, 0]).concat(winRatePairsFromScores([3, 1, 2, 0]));
    const a = bradleyTerryBootstrap(4, pairs, { seed: 7, samples: 50 });
    const b = bradleyTerryBootstrap(4, pairs, { seed: 7, samples: 50 });
    expect(a).toEqual(b);
    a.fit.logStrength.forEach((x, i) => {
      expect(a.lower[i]!).toBeLessThanOrEqual(x + 1e-9);
      expect(a.upper[i]!).toBeGreaterThanOrEqual(x - 1e-9);
    });
  });

  it("counts the resamples it drops instead of averaging them in", () => {
    const pairs = winRatePairsFromScores([3, 2, 1, 0]);
    const kept = bradleyTerryBootstrap(4, pairs, { seed: 1, samples: 40 });
    expect(kept).toMatchObject({ samples: 40, dropped: 0 });
    // One iteration cannot converge: every resample is dropped, and no bound is made up.
    const cut = bradleyTerryBootstrap(4, pairs, { seed: 1, samples: 40, maxIterations: 1 });
    expect(cut).toMatchObject({ samples: 40, dropped: 40 });
    expect(cut.lower.every(Number.isNaN)).toBe(true);
  });
});
