import { describe, expect, it } from "vitest";
import {
  calibrationRankOverall,
  calibrationRankRow,
  calibrationTierPositions,
} from "./rankAgreement.ts";
import {
  CALIBRATION_METRIC_NAMES,
  calibrationMetricsBootstrap,
  calibrationPercentile,
  type CalibrationInterval,
  type CalibrationMetricName,
} from "./bootstrap.ts";

/** Every interval is ordered, brackets its estimate and lies in the metric's range. */
function expectSaneIntervals(m: Record<CalibrationMetricName, CalibrationInterval>): void {
  for (const name of CALIBRATION_METRIC_NAMES) {
    const { value, lower, upper } = m[name];
    expect(lower).toBeLessThanOrEqual(value);
    expect(upper).toBeGreaterThanOrEqual(value);
    expect(lower).toBeGreaterThanOrEqual(name === "kappa" ? -1 : 0);
    expect(upper).toBeLessThanOrEqual(1);
  }
}

describe("rank agreement", () => {
  const ids = ["a", "b", "c", "d", "e"];

  it("tier positions: 0 = best, ties share, absent ids are NaN", () => {
    expect(calibrationTierPositions([["b"], ["a", "c"]], ids)).toEqual([1, 0, 1, NaN, NaN]);
  });

  it("compares only the rollouts both rank (people rank passes; the judge ranks all)", () => {
    // Human ranks passes a > b > c; the judge's GAR ranking puts c first, then a, b, then fails.
    const row = calibrationRankRow(
      "g",
      ids,
      [["a"], ["b"], ["c"]],
      [["c"], ["a"], ["b"], ["d", "e"]],
    );
    expect(row).toMatchObject({ groupId: "g", n: 3, pairs: 3 });
    // Pairs (a,b) concordant, (a,c) and (b,c) discordant: (1 - 2) / 3.
    expect(row.tau).toBeCloseTo(-1 / 3, 12);
    // Ranks 1,2,3 against 2,3,1: rho = 1 - 6 * (1 + 1 + 4) / (3 * 8) = -0.5.
    expect(row.rho).toBeCloseTo(-0.5, 12);
  });

  it("is undefined with fewer than two common rollouts or a constant side", () => {
    expect(calibrationRankRow("g", ids, [["a"]], [["a"], ["b"]]).tau).toBeNaN();
    const tied = calibrationRankRow("g", ids, [["a", "b", "c"]], [["a"], ["b"], ["c"]]);
    expect(tied.n).toBe(3);
    expect(tied.tau).toBeNaN();
    expect(tied.rho).toBeNaN();
  });

  it("ignores ids in a ranking that are not in the group", () => {
    const row = calibrationRankRow("g", ["a", "b"], [["zz"], ["a"], ["b"]], [["a"], ["b"]]);
    expect(row.n).toBe(2);
    expect(row.tau).toBe(1);
  });

  it("overall: the pair-weighted mean over groups where it is defined", () => {
    const perfect = calibrationRankRow("g1", ids, [["a"], ["b"], ["c"]], [["a"], ["b"], ["c"]]);
    const reversed = calibrationRankRow("g2", ids, [["a"], ["b"]], [["b"], ["a"]]);
    const undefinedRow = calibrationRankRow("g3", ids, [["a"]], [["a"]]);
    const overall = calibrationRankOverall([perfect, reversed, undefinedRow]);
    // (1 x 3 pairs + (-1) x 1 pair) / 4 pairs.
    expect(overall.tau).toBeCloseTo(0.5, 12);
    expect(overall.rho).toBeCloseTo(0.5, 12);
    expect(overall).toMatchObject({ groups: 2, pairs: 4, undefinedGroups: 1 });
    expect(calibrationRankOverall([]).tau).toBeNaN();
  });
});

describe("metrics bootstrap", () => {
  it("percentiles interpolate linearly", () => {
    expect(calibrationPercentile([0, 10], 0.25)).toBe(2.5);
    expect(calibrationPercentile([1, 2, 3], 0.5)).toBe(2);
    expect(calibrationPercentile([], 0.5)).toBeNaN();
  });

  it("is seeded, brackets the estimate and stays in range", () => {
    const c = { tp: 40, tn: 35, fp: 10, fn: 15, skipped: 3 };
    const a = calibrationMetricsBootstrap(c, 7, { samples: 400, level: 0.95 });
    expect(calibrationMetricsBootstrap(c, 7, { samples: 400, level: 0.95 })).toEqual(a);
    expect(calibrationMetricsBootstrap(c, 8, { samples: 400, level: 0.95 })).not.toEqual(a);
    expect(a.tpr.value).toBeCloseTo(40 / 55, 12);
    expect(a.accuracy.value).toBeCloseTo(0.75, 12);
    expectSaneIntervals(a);
    // An accuracy of 0.75 over 100 rows: the 95% interval is about +-0.085 wide on each side.
    expect(a.accuracy.upper - a.accuracy.lower).toBeGreaterThan(0.1);
    expect(a.accuracy.upper - a.accuracy.lower).toBeLessThan(0.25);
  });

  it("counts the draws where a metric is undefined", () => {
    // No human fail at all: TNR is undefined in every resample; kappa too (both sides constant).
    const a = calibrationMetricsBootstrap({ tp: 5, tn: 0, fp: 0, fn: 0, skipped: 0 }, 1, {
      samples: 50,
      level: 0.9,
    });
    expect(a.tnr).toMatchObject({ undefinedDraws: 50 });
    expect(a.tnr.lower).toBeNaN();
    // Every resample gives TPR 1 on 5 rows: not [1, 1] but the Wilson interval of 5 of 5.
    expect(a.tpr).toMatchObject({ value: 1, upper: 1, method: "wilson", undefinedDraws: 0, n: 5 });
    expect(a.tpr.lower).toBeCloseTo(0.6489, 4);
    expect(a.kappa.undefinedDraws).toBe(50);
  });

  it("an empty split has no estimate and no interval", () => {
    const a = calibrationMetricsBootstrap({ tp: 0, tn: 0, fp: 0, fn: 0, skipped: 0 }, 1);
    expect(a.accuracy.value).toBeNaN();
    expect(a.accuracy.lower).toBeNaN();
    expect(a.accuracy.undefinedDraws).toBe(0);
  });
});
