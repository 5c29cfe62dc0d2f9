import { describe, expect, it } from "vitest";
import { batchSplit } from "./batch.ts";
import { groupFlags, passHatK, passTauSuccess } from "./passk.ts";
import { randomHash01, randomMulberry32 } from "./random.ts";
import { statsMean, statsMedian, statsStd } from "./stats.ts";

describe("stats", () => {
  it("mean, sample and population std, median", () => {
    expect(statsMean([])).toBeNaN();
    expect(statsStd([1, 1, 0, 0])).toBeCloseTo(0.57735, 5);
    expect(statsStd([1, 1, 0, 0], "population")).toBe(0.5);
    expect(statsStd([3])).toBeNaN();
    expect(statsStd([3], "population")).toBe(0);
    expect(statsMedian([3, 1, 2])).toBe(2);
    expect(statsMedian([0.5, 1, 1, 0.5])).toBe(0.75);
    expect(statsMedian([])).toBeNaN();
  });
});

describe("pass^k (tau-bench display_metrics)", () => {
  it("mean over tasks of C(c,k)/C(n,k)", () => {
    const tasks = [
      { n: 4, c: 4 },
      { n: 4, c: 2 },
      { n: 4, c: 0 },
    ];
    expect(passHatK(tasks, 1)).toBeCloseTo((1 + 0.5 + 0) / 3, 12);
    expect(passHatK(tasks, 2)).toBeCloseTo((1 + 1 / 6 + 0) / 3, 12);
    expect(passHatK(tasks, 4)).toBeCloseTo(1 / 3, 12);
  });
  it("leaves out tasks with fewer than k trials; NaN when none remain", () => {
    expect(
      passHatK(
        [
          { n: 1, c: 1 },
          { n: 2, c: 0 },
        ],
        2,
      ),
    ).toBe(0);
    expect(passHatK([{ n: 1, c: 1 }], 2)).toBeNaN();
  });
  it("tau-bench success is |r - 1| <= 1e-6", () => {
    expect(passTauSuccess(1 - 1e-7)).toBe(true);
    expect(passTauSuccess(0.99)).toBe(false);
  });
  it("group flags", () => {
    expect(groupFlags([0, 1, 0, 0], [false, true, false, false])).toEqual({
      passes: 1,
      mixed: true,
      zeroStd: false,
      unscored: false,
    });
    expect(groupFlags([1, 1], [true, true])).toEqual({
      passes: 2,
      mixed: false,
      zeroStd: true,
      unscored: false,
    });
    expect(groupFlags([NaN, 0], [false, false]).zeroStd).toBe(true);
    // No reward at all is unscored, not zero std: there is nothing equal to speak of.
    expect(groupFlags([NaN], [false])).toEqual({
      passes: 0,
      mixed: false,
      zeroStd: false,
      unscored: true,
    });
  });
});

describe("seeded randomness", () => {
  it("mulberry32 is deterministic per seed", () => {
    const a = randomMulberry32(42);
    const b = randomMulberry32(42);
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    xs.forEach((x) => expect(x >= 0 && x < 1).toBe(true));
  });
  it("hash01 depends on key and seed only", () => {
    expect(randomHash01("r1", 0)).toBe(randomHash01("r1", 0));
    expect(randomHash01("r1", 0)).not.toBe(randomHash01("r1", 1));
    expect(randomHash01("r1", 0)).not.toBe(randomHash01("r2", 0));
  });
});

describe("batchSplit (whileai shape's layout)", () => {
  it("splits consecutive groups", () => {
    expect(batchSplit([1, 0, 0, 0, 1, 1, 0, 1], 4)).toEqual([
      [1, 0, 0, 0],
      [1, 1, 0, 1],
    ]);
  });
  it('raises "do not split" when the length is not a multiple', () => {
    expect(() => batchSplit([1, 0, 1], 2)).toThrow(/do not split/);
    expect(() => batchSplit([1], 0)).toThrow(/positive integer/);
  });
});
