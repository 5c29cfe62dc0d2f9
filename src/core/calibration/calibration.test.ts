import { describe, expect, it } from "vitest";
import {
  calibrationConfusion,
  calibrationCorrectedRate,
  calibrationKendallTauB,
  calibrationMetrics,
  calibrationRoganGladen,
  calibrationSpearman,
} from "./agreement.ts";
import { SPLIT_DEFAULTS, splitAssign } from "./splits.ts";

describe("confusion and agreement", () => {
  const judge = [true, true, false, false, true, null];
  const human = [true, false, false, true, true, true];
  it("counts the matrix and skips missing labels", () => {
    expect(calibrationConfusion(judge, human)).toEqual({ tp: 2, tn: 1, fp: 1, fn: 1, skipped: 1 });
  });
  it("TPR, TNR, accuracy and Cohen's kappa", () => {
    const m = calibrationMetrics(calibrationConfusion(judge, human));
    expect(m.tpr).toBeCloseTo(2 / 3, 12);
    expect(m.tnr).toBeCloseTo(1 / 2, 12);
    expect(m.accuracy).toBeCloseTo(3 / 5, 12);
    // po = .6, judge pass 3/5, human pass 3/5: pe = .36 + .16 = .52; kappa = .08/.48.
    expect(m.kappa).toBeCloseTo(0.08 / 0.48, 12);
  });
  it("perfect agreement is kappa 1; constant identical raters are undefined (NaN)", () => {
    expect(calibrationMetrics(calibrationConfusion([true, false], [true, false])).kappa).toBe(1);
    expect(calibrationMetrics(calibrationConfusion([true, true], [true, true])).kappa).toBeNaN();
    expect(calibrationMetrics(calibrationConfusion([], [])).accuracy).toBeNaN();
  });
  it("rejects lists of different lengths", () => {
    expect(() => calibrationConfusion([true], [])).toThrow(/length/);
  });
});

describe("rank agreement", () => {
  it("Kendall tau-b: perfect, reversed, and with ties", () => {
    expect(calibrationKendallTauB([1, 2, 3], [10, 20, 30])).toBe(1);
    expect(calibrationKendallTauB([1, 2, 3], [3, 2, 1])).toBe(-1);
    // x = [1,2,2,3], y = [1,3,2,4]: C = 5, D = 0, ties in x only = 1: 5 / sqrt(5 * 6).
    expect(calibrationKendallTauB([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(5 / Math.sqrt(30), 12);
    expect(calibrationKendallTauB([1, 1], [1, 2])).toBeNaN();
  });
  it("Spearman uses average ranks", () => {
    expect(calibrationSpearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1, 12);
    // ranks x = [1,2.5,2.5,4], y = [1,2,3,4]: r = 4.5 / sqrt(4.5 * 5).
    expect(calibrationSpearman([1, 2, 2, 3], [1, 2, 3, 4])).toBeCloseTo(4.5 / Math.sqrt(22.5), 12);
    expect(calibrationSpearman([1, 1, 1], [1, 2, 3])).toBeNaN();
  });
  it("leaves out pairs with a missing score", () => {
    expect(calibrationSpearman([1, NaN, 2, 3], [1, 5, 2, 3])).toBeCloseTo(1, 12);
    expect(calibrationKendallTauB([1, 2, NaN], [3, 2, 1])).toBe(-1);
  });
});

describe("Rogan-Gladen", () => {
  it("corrects the observed rate and clips to [0, 1]", () => {
    expect(calibrationRoganGladen(0.6, 0.9, 0.8)).toBeCloseTo(0.4 / 0.7, 12);
    expect(calibrationRoganGladen(0.05, 0.9, 0.8)).toBe(0);
    expect(calibrationRoganGladen(0.99, 0.9, 0.99)).toBe(1);
    expect(calibrationRoganGladen(0.5, 0.5, 0.5)).toBeNaN();
  });
  it("bootstrap CI is seeded and brackets the estimate", () => {
    const many = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x);
    const labelled = [
      ...many(40, { predicted: true, truth: true }),
      ...many(5, { predicted: false, truth: true }),
      ...many(45, { predicted: false, truth: false }),
      ...many(10, { predicted: true, truth: false }),
    ];
    const unlabelled = [...many(60, true), ...many(40, false)];
    const a = calibrationCorrectedRate(labelled, unlabelled, { seed: 1, samples: 500 });
    const b = calibrationCorrectedRate(labelled, unlabelled, { seed: 1, samples: 500 });
    expect(a).toEqual(b);
    expect(a.observed).toBe(0.6);
    // TPR = 40/45, TNR = 45/55.
    expect(a.corrected).toBeCloseTo((0.6 + 45 / 55 - 1) / (40 / 45 + 45 / 55 - 1), 12);
    expect(a.lower).toBeLessThanOrEqual(a.corrected);
    expect(a.upper).toBeGreaterThanOrEqual(a.corrected);
    expect(a.upper - a.lower).toBeGreaterThan(0.01);
  });
});

describe("splitAssign", () => {
  const rows = Array.from({ length: 200 }, (_, i) => ({
    key: `r${i}`,
    stratum: i % 4 === 0 ? "fail" : "pass",
  }));
  it("defaults to 15/42.5/42.5 within each stratum", () => {
    const out = splitAssign(rows, SPLIT_DEFAULTS);
    for (const stratum of ["pass", "fail"]) {
      const members = rows.filter((r) => r.stratum === stratum);
      const count = (s: string) => members.filter((r) => out.get(r.key) === s).length;
      expect(Math.abs(count("train") - 0.15 * members.length)).toBeLessThanOrEqual(1);
      expect(Math.abs(count("dev") - 0.425 * members.length)).toBeLessThanOrEqual(1);
      expect(Math.abs(count("test") - 0.425 * members.length)).toBeLessThanOrEqual(1);
    }
  });
  it("keeps earlier assignments when rows are added", () => {
    const before = splitAssign(rows.slice(0, 100));
    const after = splitAssign(rows, SPLIT_DEFAULTS, before);
    for (const [key, split] of before) expect(after.get(key)).toBe(split);
  });
  it("is seeded", () => {
    const a = splitAssign(rows, { ...SPLIT_DEFAULTS, seed: 1 });
    const b = splitAssign(rows, { ...SPLIT_DEFAULTS, seed: 2 });
    expect(rows.map((r) => a.get(r.key))).not.toEqual(rows.map((r) => b.get(r.key)));
    expect(splitAssign(rows, { ...SPLIT_DEFAULTS, seed: 1 })).toEqual(a);
  });
  it("rejects fractions that do not sum to 1", () => {
    expect(() =>
      splitAssign(rows, { seed: 0, fractions: { train: 0.5, dev: 0.5, test: 0.5 } }),
    ).toThrow(/sum to 1/);
  });
});
