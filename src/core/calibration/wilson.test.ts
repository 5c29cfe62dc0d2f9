/**
 * Honest intervals (issue 13, finding 6): Wilson golden values, fast-check properties (the
 * interval holds the estimate, lies in [0, 1], has width), and the calibration bootstrap falling
 * back to Wilson (and to no kappa interval) where it degenerates, with the dropped resamples
 * counted.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  calibrationCorrectedRate,
  calibrationRoganGladen,
  calibrationRoganGladenWilson,
} from "./agreement.ts";
import { calibrationMetricsBootstrap } from "./bootstrap.ts";
import { CALIBRATION_MIN_N, normalQuantile, wilsonInterval } from "./wilson.ts";

const near = (x: number, want: number, digits = 4) => expect(x).toBeCloseTo(want, digits);

describe("normalQuantile", () => {
  it("gives the usual critical values", () => {
    near(normalQuantile(0.975), 1.959964, 6);
    near(normalQuantile(0.95), 1.644854, 6);
    near(normalQuantile(0.995), 2.575829, 6);
    near(normalQuantile(0.5), 0, 12);
    near(normalQuantile(0.01), -2.326348, 6);
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(normalQuantile(1.5)).toBeNaN();
  });
});

describe("wilsonInterval: golden values", () => {
  it("8 of 10 at 95% is [0.4902, 0.9433]", () => {
    const w = wilsonInterval(8, 10);
    near(w.lower, 0.4902);
    near(w.upper, 0.9433);
  });
  it("2 of 2 at 95% is [0.3424, 1] and 0 of 2 is [0, 0.6576]", () => {
    const all = wilsonInterval(2, 2);
    near(all.lower, 0.3424);
    expect(all.upper).toBe(1);
    const none = wilsonInterval(0, 2);
    expect(none.lower).toBe(0);
    near(none.upper, 0.6576);
  });
  it("1 of 1 at 95% is [0.2065, 1]; 50 of 100 at 90% is [0.4188, 0.5812]", () => {
    near(wilsonInterval(1, 1).lower, 0.2065);
    const w = wilsonInterval(50, 100, 0.9);
    near(w.lower, 0.4188);
    near(w.upper, 0.5812);
  });
  it("is undefined without trials", () => {
    expect(wilsonInterval(0, 0).lower).toBeNaN();
    expect(wilsonInterval(0, 0).upper).toBeNaN();
  });
});

describe("wilsonInterval: properties", () => {
  const trials = fc
    .integer({ min: 1, max: 500 })
    .chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)));
  const level = fc.double({ min: 0.5, max: 0.999, noNaN: true });

  test.prop([trials, level])("holds k/n, lies in [0, 1] and has width", ([k, n], l) => {
    const w = wilsonInterval(k, n, l);
    expect(w.lower).toBeGreaterThanOrEqual(0);
    expect(w.upper).toBeLessThanOrEqual(1);
    expect(w.lower).toBeLessThanOrEqual(k / n);
    expect(w.upper).toBeGreaterThanOrEqual(k / n);
    expect(w.upper - w.lower).toBeGreaterThan(0);
  });

  test.prop([trials])("a higher level gives a wider interval", ([k, n]) => {
    const narrow = wilsonInterval(k, n, 0.8);
    const wide = wilsonInterval(k, n, 0.99);
    expect(wide.lower).toBeLessThanOrEqual(narrow.lower + 1e-12);
    expect(wide.upper).toBeGreaterThanOrEqual(narrow.upper - 1e-12);
  });
});

describe("the calibration bootstrap where it degenerates", () => {
  const options = { samples: 1000, level: 0.95 };

  it("2 agreeing labels: Wilson, not 1.000 [1.000, 1.000]; kappa's undefined resamples counted", () => {
    const m = calibrationMetricsBootstrap({ tp: 1, tn: 1, fp: 0, fn: 0, skipped: 0 }, 7, options);
    expect(m.accuracy).toMatchObject({ value: 1, method: "wilson", upper: 1, n: 2, samples: 1000 });
    near(m.accuracy.lower, 0.3424);
    expect(m.tpr).toMatchObject({ value: 1, method: "wilson", n: 1 });
    near(m.tpr.lower, 0.2065);
    // Half the resamples of two rows hold one class only: kappa is undefined there.
    expect(m.kappa.undefinedDraws).toBeGreaterThan(400);
    expect(m.kappa.undefinedDraws).toBeLessThan(600);
    // Every defined resample gives kappa 1: no interval rather than [1, 1].
    expect(m.kappa).toMatchObject({ value: 1, method: "none" });
    expect(m.kappa.lower).toBeNaN();
  });

  it(`keeps the bootstrap from ${CALIBRATION_MIN_N} rows on when it has width`, () => {
    const m = calibrationMetricsBootstrap({ tp: 20, tn: 15, fp: 5, fn: 4, skipped: 0 }, 3, options);
    expect(m.accuracy.method).toBe("bootstrap");
    expect(m.tpr.method).toBe("bootstrap");
    expect(m.kappa.method).toBe("bootstrap");
    expect(m.accuracy.lower).toBeLessThan(m.accuracy.upper);
  });

  it("uses Wilson on many rows when every resample agrees (a perfect judge)", () => {
    const m = calibrationMetricsBootstrap({ tp: 30, tn: 0, fp: 0, fn: 0, skipped: 0 }, 1, options);
    expect(m.tpr).toMatchObject({ value: 1, method: "wilson", upper: 1 });
    expect(m.tpr.lower).toBeLessThan(1);
    expect(m.tnr.value).toBeNaN();
  });

  it("an empty split has no interval and draws nothing", () => {
    const m = calibrationMetricsBootstrap({ tp: 0, tn: 0, fp: 0, fn: 0, skipped: 0 }, 1, options);
    expect(m.accuracy).toMatchObject({ samples: 0, method: "bootstrap" });
    expect(m.accuracy.lower).toBeNaN();
  });
});

describe("the corrected rate where the bootstrap degenerates", () => {
  const item = (predicted: boolean, truth: boolean) => ({ predicted, truth });

  it("a perfect judge on 2 dev rows: a Rogan-Gladen interval with width, drops counted", () => {
    const dev = [item(true, true), item(false, false)];
    const judged = [true, true, false, false, true];
    const c = calibrationCorrectedRate(dev, judged, { seed: 5, samples: 1000 });
    expect(c.corrected).toBeCloseTo(0.6, 12);
    expect(c.method).toBe("wilson");
    expect(c.lower).toBeLessThan(c.upper);
    expect(c.samples).toBe(1000);
    // A resample of two rows with one class has no TPR or no TNR: about half are dropped.
    expect(c.discarded).toBeGreaterThan(400);
    expect(c.discarded).toBeLessThan(600);
    // Wilson's TPR and TNR of 1 of 1 reach 0.2065: their sum can be at chance, so [0, 1].
    expect([c.lower, c.upper]).toEqual([0, 1]);
  });

  it("Rogan-Gladen over Wilson bounds: the corners of the box", () => {
    const c = { tp: 40, fn: 2, tn: 30, fp: 3 };
    const w = calibrationRoganGladenWilson(0.5, c, 0.95);
    const tpr = wilsonInterval(40, 42);
    const tnr = wilsonInterval(30, 33);
    const corners = [tpr.lower, tpr.upper].flatMap((s) =>
      [tnr.lower, tnr.upper].map((t) => calibrationRoganGladen(0.5, s, t)),
    );
    expect(w.lower).toBeCloseTo(Math.min(...corners), 12);
    expect(w.upper).toBeCloseTo(Math.max(...corners), 12);
    const point = calibrationRoganGladen(0.5, 40 / 42, 30 / 33);
    expect(w.lower).toBeLessThan(point);
    expect(w.upper).toBeGreaterThan(point);
  });

  test.prop([
    fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 30 }),
    fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
    fc.integer({ min: 0, max: 1000 }),
  ])("the interval holds the estimate and lies in [0, 1]", (pairs, judged, seed) => {
    const c = calibrationCorrectedRate(
      pairs.map(([p, t]) => item(p, t)),
      judged,
      { seed, samples: 60 },
    );
    if (!Number.isFinite(c.corrected)) return;
    if (!Number.isFinite(c.lower)) return;
    expect(c.lower).toBeGreaterThanOrEqual(0);
    expect(c.upper).toBeLessThanOrEqual(1);
    if (c.method === "wilson") {
      expect(c.lower).toBeLessThanOrEqual(c.corrected + 1e-12);
      expect(c.upper).toBeGreaterThanOrEqual(c.corrected - 1e-12);
    }
    expect(c.discarded).toBeLessThanOrEqual(c.samples);
  });

  test.prop([
    fc.record({
      tp: fc.integer({ min: 0, max: 30 }),
      tn: fc.integer({ min: 0, max: 30 }),
      fp: fc.integer({ min: 0, max: 30 }),
      fn: fc.integer({ min: 0, max: 30 }),
    }),
    fc.integer({ min: 0, max: 100 }),
  ])("every Wilson proportion holds its estimate, in [0, 1]", (c, seed) => {
    const m = calibrationMetricsBootstrap({ ...c, skipped: 0 }, seed, { samples: 50, level: 0.95 });
    for (const name of ["tpr", "tnr", "accuracy"] as const) {
      const i = m[name];
      if (i.method !== "wilson") continue;
      expect(i.lower).toBeGreaterThanOrEqual(0);
      expect(i.upper).toBeLessThanOrEqual(1);
      expect(i.lower).toBeLessThanOrEqual(i.value);
      expect(i.upper).toBeGreaterThanOrEqual(i.value);
      expect(i.lower).toBeLessThan(i.upper);
    }
    expect(m.kappa.undefinedDraws).toBeLessThanOrEqual(50);
  });
});
