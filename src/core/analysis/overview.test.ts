import { describe, expect, it } from "vitest";
import {
  overviewCounts,
  overviewHistogram,
  overviewLinearFit,
  overviewSampleIndices,
} from "./overview.ts";

describe("overviewHistogram", () => {
  it("bins equal widths over min..max; the max lands in the last bin", () => {
    const h = overviewHistogram([0, 0.1, 0.5, 0.99, 1], { bins: 4 });
    expect(h.bins.map((b) => b.count)).toEqual([2, 0, 1, 2]);
    expect(h.bins.map((b) => [b.x0, b.x1])).toEqual([
      [0, 0.25],
      [0.25, 0.5],
      [0.5, 0.75],
      [0.75, 1],
    ]);
    expect(h.counted).toBe(5);
    expect(h.skipped).toBe(0);
  });

  it("skips NaN and infinities and says how many", () => {
    const h = overviewHistogram([NaN, 1, Infinity, 0], { bins: 2 });
    expect(h.bins.map((b) => b.count)).toEqual([1, 1]);
    expect(h.skipped).toBe(2);
  });

  it("puts equal values in one bin, and has no bins without values", () => {
    expect(overviewHistogram([1, 1, 1]).bins).toEqual([{ x0: 1, x1: 1, count: 3 }]);
    expect(overviewHistogram([NaN]).bins).toEqual([]);
    expect(overviewHistogram([])).toEqual({ bins: [], counted: 0, skipped: 0 });
  });

  it("skips values outside a given range", () => {
    const h = overviewHistogram([-1, 0.2, 0.7, 2], { bins: 2, min: 0, max: 1 });
    expect(h.bins.map((b) => b.count)).toEqual([1, 1]);
    expect(h.skipped).toBe(2);
  });
});

describe("overviewCounts", () => {
  it("counts each value, ascending", () => {
    expect(overviewCounts([8, 4, 8, 8, 5])).toEqual([
      { value: 4, count: 1 },
      { value: 5, count: 1 },
      { value: 8, count: 3 },
    ]);
  });
});

describe("overviewLinearFit", () => {
  it("fits an exact line with r = 1, and a falling one with r = -1", () => {
    const up = overviewLinearFit([0, 1, 2, 3], [1, 3, 5, 7]);
    expect(up.slope).toBeCloseTo(2, 12);
    expect(up.intercept).toBeCloseTo(1, 12);
    expect(up.r).toBeCloseTo(1, 12);
    expect(overviewLinearFit([0, 1, 2], [2, 1, 0]).r).toBeCloseTo(-1, 12);
  });

  it("matches a hand-computed Pearson r", () => {
    // x = 1..5, y = 2,4,5,4,5: sxy = 6, sxx = 10, syy = 6  ->  r = 6 / sqrt(60)
    const fit = overviewLinearFit([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]);
    expect(fit.r).toBeCloseTo(6 / Math.sqrt(60), 12);
    expect(fit.slope).toBeCloseTo(0.6, 12);
    expect(fit.intercept).toBeCloseTo(2.2, 12);
  });

  it("uses only pairs with both coordinates finite; NaN without variance", () => {
    const fit = overviewLinearFit([1, NaN, 2, 3], [1, 5, NaN, 3]);
    expect(fit.n).toBe(2);
    expect(fit.r).toBeCloseTo(1, 12);
    expect(overviewLinearFit([1, 1, 1], [0, 1, 2]).r).toBeNaN();
    expect(overviewLinearFit([1, 2, 3], [1, 1, 1]).r).toBeNaN();
    expect(overviewLinearFit([1, 2, 3], [1, 1, 1]).slope).toBe(0);
    expect(overviewLinearFit([], []).n).toBe(0);
  });

  it("keeps precision with large offsets", () => {
    const xs = [1e9, 1e9 + 1, 1e9 + 2];
    expect(overviewLinearFit(xs, [0, 1, 2]).r).toBeCloseTo(1, 9);
  });
});

describe("overviewSampleIndices", () => {
  it("keeps everything up to max, then evenly spaced indices", () => {
    expect(overviewSampleIndices(3, 5)).toEqual([0, 1, 2]);
    expect(overviewSampleIndices(10, 4)).toEqual([0, 2, 5, 7]);
    expect(overviewSampleIndices(0, 4)).toEqual([]);
  });
});

describe("overviewHistogram on a subnormal range", () => {
  it("keeps every value when the bins would have no width", () => {
    const h = overviewHistogram([5e-324, 1e-323, 0], { bins: 50 });
    expect(h.counted).toBe(3);
    expect(h.bins.reduce((s, b) => s + b.count, 0)).toBe(3);
    // Bins whose bounds would round past the top of the range (fast-check found [0, 2e-323]).
    for (const b of overviewHistogram([0, 2e-323], { bins: 6 }).bins)
      expect(b.x0).toBeLessThanOrEqual(b.x1);
  });
});
