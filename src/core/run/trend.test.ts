import { describe, expect, it } from "vitest";
import { fc, test } from "@fast-check/vitest";
import { lgamma } from "./gamma.ts";
import { incompleteBeta, slopeTest, studentTUpper, trendOnset } from "./trend.ts";

// Reference values from SciPy 1.17 (stats.t.sf, special.betainc, special.gammaln, stats.linregress).
describe("the distributions behind the slope test", () => {
  it("ln Γ matches SciPy's gammaln", () => {
    expect(lgamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(lgamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(lgamma(0.1)).toBeCloseTo(2.252712651734206, 10);
    expect(lgamma(7.5)).toBeCloseTo(7.534364236758734, 10);
    expect(lgamma(100)).toBeCloseTo(359.1342053695754, 8);
  });

  it("the regularised incomplete beta matches SciPy's betainc", () => {
    expect(incompleteBeta(0.5, 2, 3)).toBeCloseTo(0.6875, 12);
    expect(incompleteBeta(0.3, 0.5, 0.5)).toBeCloseTo(0.36901011956554536, 10);
    expect(incompleteBeta(0.4, 10, 20)).toBeCloseTo(0.7853183897628262, 10);
    expect(incompleteBeta(0, 2, 3)).toBe(0);
    expect(incompleteBeta(1, 2, 3)).toBe(1);
  });

  it("Student's t upper tail matches SciPy's t.sf and the closed forms", () => {
    expect(studentTUpper(2, 10)).toBeCloseTo(0.03669401738537018, 10);
    expect(studentTUpper(-1.5, 4)).toBeCloseTo(0.896, 10);
    expect(studentTUpper(0.3, 30)).toBeCloseTo(0.3831230526421764, 10);
    expect(studentTUpper(8, 7)).toBeCloseTo(4.557460585437679e-5, 12);
    // df = 1 is Cauchy: P(T >= 1) = 1/4; df = 2: 1/2 - t / (2 sqrt(2 + t^2)).
    expect(studentTUpper(1, 1)).toBeCloseTo(0.25, 12);
    expect(studentTUpper(1, 2)).toBeCloseTo(0.5 - 1 / (2 * Math.sqrt(3)), 12);
    expect(studentTUpper(0, 5)).toBeCloseTo(0.5, 12);
    expect(studentTUpper(Infinity, 5)).toBe(0);
    expect(studentTUpper(-Infinity, 5)).toBe(1);
  });

  test.prop([fc.double({ min: -50, max: 50, noNaN: true }), fc.integer({ min: 1, max: 200 })])(
    "the two tails of t add up to 1 and the upper tail falls as t grows",
    (t, df) => {
      expect(studentTUpper(t, df) + studentTUpper(-t, df)).toBeCloseTo(1, 9);
      expect(studentTUpper(t + 0.5, df)).toBeLessThanOrEqual(studentTUpper(t, df) + 1e-12);
    },
  );
});

describe("slopeTest", () => {
  it("matches SciPy's linregress (slope, intercept) and t.sf for the one-sided p", () => {
    const r = slopeTest([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]);
    expect(r.n).toBe(5);
    expect(r.slope).toBeCloseTo(0.6, 12);
    expect(r.intercept).toBeCloseTo(2.2, 12);
    expect(r.t).toBeCloseTo(0.6 / 0.28284271247461895, 10);
    // linregress's two-sided p is 0.12402706265755445: half of it is the rising tail.
    expect(r.pRising).toBeCloseTo(0.0620135313287773, 10);
    expect(r.pFalling).toBeCloseTo(1 - 0.0620135313287773, 10);
  });

  it("is certain on an exact line and undecided on a flat one", () => {
    const up = slopeTest([1, 2, 3, 4], [10, 20, 30, 40]);
    expect(up.t).toBe(Infinity);
    expect(up.pRising).toBe(0);
    const flat = slopeTest([1, 2, 3, 4], [7, 7, 7, 7]);
    expect(flat.slope).toBe(0);
    expect(flat.pRising).toBeCloseTo(0.5, 12);
  });

  it("skips pairs that are not finite and needs three points for a test", () => {
    const r = slopeTest([1, 2, NaN, 4], [1, 2, 3, NaN]);
    expect(r.n).toBe(2);
    expect(r.slope).toBeCloseTo(1, 12);
    expect(r.pRising).toBeNaN();
    expect(slopeTest([1, 1, 1], [1, 2, 3]).slope).toBeNaN();
  });
});

describe("trendOnset", () => {
  it("finds the last flat point of a flat-then-linear series", () => {
    const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const ys = xs.map((x) => (x <= 6 ? 100 : 100 + 15 * (x - 6)));
    expect(trendOnset(xs, ys, 1)).toBe(6);
    expect(trendOnset(xs, ys, -1)).toBeNaN();
    expect(
      trendOnset(
        xs,
        ys.map((y) => -y),
        -1,
      ),
    ).toBe(6);
  });

  it("gives the first point for a line that rises throughout", () => {
    expect(trendOnset([1, 2, 3, 4, 5], [1, 2, 3, 4, 5], 1)).toBe(1);
  });

  test.prop([
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 3, max: 12 }),
    fc.double({ min: 0.5, max: 50, noNaN: true }),
  ])("recovers a planted onset exactly without noise", (flat, ramp, rate) => {
    const xs = Array.from({ length: flat + ramp }, (_, i) => i + 1);
    const ys = xs.map((x) => 1000 + rate * Math.max(0, x - flat));
    expect(trendOnset(xs, ys, 1)).toBe(flat);
  });
});
