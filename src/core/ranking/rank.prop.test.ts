/**
 * Properties of the in-group rank transforms (methods.md 1.7). rankTransform breaks ties by index,
 * so it is order-invariant only for distinct scores; that is what is tested. Golden vectors live in
 * rank.test.ts.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { rankAverage, rankPlaces, rankTransform, rankTransformTies } from "./rank.ts";

const score = fc.oneof(
  fc.constantFrom(0, 0.5, 1),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
/** Scores with ties made likely by drawing from a small pool. */
const scores = fc
  .array(score, { minLength: 1, maxLength: 4 })
  .chain((pool) => fc.array(fc.oneof(fc.constantFrom(...pool), score), { maxLength: 12 }));

const permutation = (n: number) =>
  fc.shuffledSubarray(
    Array.from({ length: n }, (_, i) => i),
    { minLength: n, maxLength: n },
  );

describe("rankTransform", () => {
  test.prop([fc.oneof(scores, fc.array(fc.oneof(score, fc.constant(NaN)), { maxLength: 12 }))])(
    "outputs are a permutation of {i / (n - 1)} (NaN scores included); [1] for n = 1",
    (s) => {
      const ranks = rankTransform(s);
      const n = s.length;
      if (n === 1) {
        expect(ranks).toEqual([1]);
        return;
      }
      const expected = Array.from({ length: n }, (_, i) => i / (n - 1));
      expect([...ranks].sort((a, b) => a - b)).toEqual(expected);
    },
  );

  test.prop([scores])("ranks follow the scores; equal scores rank by index", (s) => {
    const ranks = rankTransform(s);
    for (let i = 0; i < s.length; i++)
      for (let j = i + 1; j < s.length; j++) {
        if (s[i]! < s[j]!) expect(ranks[i]).toBeLessThan(ranks[j]!);
        else if (s[i]! > s[j]!) expect(ranks[i]).toBeGreaterThan(ranks[j]!);
        else expect(ranks[i]).toBeLessThan(ranks[j]!);
      }
  });

  test.prop([
    // SameValueZero: 0 and -0 compare equal, so they would be a tie.
    fc
      .uniqueArray(score, { comparator: "SameValueZero", maxLength: 12 })
      .chain((s) => fc.tuple(fc.constant(s), permutation(s.length))),
  ])("with distinct scores, permuting the rollouts permutes the ranks", ([s, p]) => {
    const base = rankTransform(s);
    expect(rankTransform(p.map((i) => s[i]!))).toEqual(p.map((i) => base[i]!));
  });
});

describe("rankTransformTies average", () => {
  const withNaN = fc.oneof(scores, fc.array(fc.oneof(score, fc.constant(NaN)), { maxLength: 12 }));
  const same = (a: number, b: number): boolean => a === b || (Number.isNaN(a) && Number.isNaN(b));

  test.prop([withNaN])(
    "the index rule's ranks averaged over each group of equal scores (NaN lowest)",
    (s) => {
      const byIndex = rankTransform(s);
      const avg = rankTransformTies(s, "average");
      for (let i = 0; i < s.length; i++) {
        const tied = s.map((_, j) => j).filter((j) => same(s[i]!, s[j]!));
        const mean = tied.reduce((sum, j) => sum + byIndex[j]!, 0) / tied.length;
        expect(avg[i]).toBeCloseTo(mean, 12);
      }
    },
  );

  test.prop([withNaN.chain((s) => fc.tuple(fc.constant(s), permutation(s.length)))])(
    "permuting the rollouts permutes the ranks, ties included",
    ([s, p]) => {
      const base = rankTransformTies(s, "average");
      expect(
        rankTransformTies(
          p.map((i) => s[i]!),
          "average",
        ),
      ).toEqual(p.map((i) => base[i]!));
    },
  );
});

describe("rankAverage", () => {
  test.prop([scores])("ranks sum to n(n + 1)/2, and equal values share a rank", (s) => {
    const ranks = rankAverage(s);
    const n = s.length;
    // Average ranks are multiples of 0.5, so the sum is exact.
    expect(ranks.reduce((a, b) => a + b, 0)).toBe((n * (n + 1)) / 2);
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        if (s[i] === s[j]) expect(ranks[i]).toBe(ranks[j]);
        else expect(ranks[i]! < ranks[j]!).toBe(s[i]! < s[j]!);
      }
  });

  test.prop([scores.chain((s) => fc.tuple(fc.constant(s), permutation(s.length)))])(
    "permuting the values permutes the ranks (ties included)",
    ([s, p]) => {
      const base = rankAverage(s);
      expect(rankAverage(p.map((i) => s[i]!))).toEqual(p.map((i) => base[i]!));
    },
  );
});

describe("rankPlaces (best = 1)", () => {
  const withNaN = fc.oneof(scores, fc.array(fc.oneof(score, fc.constant(NaN)), { maxLength: 12 }));
  test.prop([withNaN, fc.constantFrom("average" as const, "index" as const)])(
    "the rank transform's order: place = n - rank (n - 1); places sum to n(n + 1)/2",
    (s, ties) => {
      const n = s.length;
      const places = rankPlaces(s, ties);
      const ranks = rankTransformTies(s, ties);
      places.forEach((p, i) => {
        expect(p).toBeGreaterThanOrEqual(1);
        expect(p).toBeLessThanOrEqual(n);
        expect(p).toBeCloseTo(n === 1 ? 1 : n - ranks[i]! * (n - 1), 9);
      });
      expect(places.reduce((a, b) => a + b, 0)).toBeCloseTo((n * (n + 1)) / 2, 9);
    },
  );
  test.prop([scores])(
    "a higher score never places worse; equal scores share under average",
    (s) => {
      const places = rankPlaces(s, "average");
      s.forEach((x, i) =>
        s.forEach((y, j) => {
          if (x > y) expect(places[i]!).toBeLessThan(places[j]!);
          if (x === y) expect(places[i]).toBe(places[j]);
        }),
      );
    },
  );
});
