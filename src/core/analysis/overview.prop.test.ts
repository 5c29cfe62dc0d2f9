/** Properties of the overview distributions; examples live in overview.test.ts. */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { overviewHistogram, overviewLinearFit, overviewSampleIndices } from "./overview.ts";

const value = fc.oneof(
  fc.constantFrom(0, 0.5, 1, NaN, Infinity),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
);

describe("overviewHistogram", () => {
  test.prop([fc.array(value, { maxLength: 200 }), fc.integer({ min: 1, max: 50 })])(
    "the bins' counts add up to the number of finite values",
    (values, bins) => {
      const h = overviewHistogram(values, { bins });
      const finite = values.filter((v) => Number.isFinite(v)).length;
      expect(h.bins.reduce((s, b) => s + b.count, 0)).toBe(finite);
      expect(h.counted).toBe(finite);
      expect(h.counted + h.skipped).toBe(values.length);
      for (const b of h.bins) expect(b.x0).toBeLessThanOrEqual(b.x1);
    },
  );
});

describe("overviewLinearFit", () => {
  test.prop([
    fc.array(
      fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 })),
      {
        maxLength: 60,
      },
    ),
  ])("r is in [-1, 1] or NaN, and symmetric in x and y", (pairs) => {
    const xs = pairs.map((p) => p[0]);
    const ys = pairs.map((p) => p[1]);
    const a = overviewLinearFit(xs, ys);
    const b = overviewLinearFit(ys, xs);
    if (Number.isNaN(a.r)) expect(b.r).toBeNaN();
    else {
      expect(Math.abs(a.r)).toBeLessThanOrEqual(1);
      expect(b.r).toBeCloseTo(a.r, 9);
    }
  });
});

describe("overviewSampleIndices", () => {
  test.prop([fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 6000 })])(
    "gives min(n, max) distinct ascending indices in range",
    (n, max) => {
      const s = overviewSampleIndices(n, max);
      expect(s).toHaveLength(Math.min(n, max));
      for (let i = 1; i < s.length; i++) expect(s[i]!).toBeGreaterThan(s[i - 1]!);
      if (s.length > 0) expect(s[s.length - 1]!).toBeLessThan(n);
    },
  );
});
