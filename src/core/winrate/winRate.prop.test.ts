/**
 * Properties of pairwise win rates (methods.md 1.7 and 5.2): bounded, zero-sum once ties count 0.5,
 * and invariant to the order of the rollouts. Golden vectors live in winRate.test.ts.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import {
  winRateCycles,
  winRateAllPairs,
  winRateFromPairs,
  winRateMatrix,
  winRatePairsFromScores,
  winRatePairsFromTiers,
  type PairOutcome,
  type PairResult,
  type TieCredit,
} from "./winRate.ts";

const tie = fc.constantFrom<TieCredit>(0, 0.5);
const outcome = fc.constantFrom<PairOutcome>("a", "b", "tie", null);
const score = fc.oneof(
  fc.constantFrom(0, 0.5, 1),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const permutation = (n: number) =>
  fc.shuffledSubarray(
    Array.from({ length: n }, (_, i) => i),
    { minLength: n, maxLength: n },
  );

/**
 * Every pair i < j judged exactly once, with any verdict, written either way round ({a: j, b: i}
 * with the verdict mirrored) and in any order.
 */
const allPairsOnce = fc.integer({ min: 0, max: 10 }).chain((n) => {
  const schedule = winRateAllPairs(n);
  return fc
    .tuple(
      fc.array(outcome, { minLength: schedule.length, maxLength: schedule.length }),
      fc.array(fc.boolean(), { minLength: schedule.length, maxLength: schedule.length }),
      permutation(schedule.length),
    )
    .map(([verdicts, flip, order]) => {
      const pairs = order.map((s): PairResult => {
        const [a, b] = schedule[s]!;
        const v = verdicts[s]!;
        if (!flip[s]) return { a, b, outcome: v };
        return { a: b, b: a, outcome: v === "a" ? "b" : v === "b" ? "a" : v };
      });
      return { n, pairs };
    });
});

/** Pairs from scores or from best-first tiers (some indices unranked), as the studio builds. */
const derivedPairs = fc.oneof(
  fc
    .array(score, { maxLength: 10 })
    .map((s) => ({ n: s.length, pairs: winRatePairsFromScores(s) })),
  fc
    .array(fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }), { maxLength: 10 })
    .map((tierOf) => {
      const tiers: number[][] = [[], [], [], []];
      tierOf.forEach((t, i) => {
        if (t !== null) tiers[t]!.push(i);
      });
      return { n: tierOf.length, pairs: winRatePairsFromTiers(tiers, tierOf.length) };
    }),
);

describe("winRateFromPairs", () => {
  test.prop([fc.oneof(allPairsOnce, derivedPairs), tie])(
    "win rates are in [0, 1] when every pair is judged once",
    ({ n, pairs }, t) => {
      const rates = winRateFromPairs(n, pairs, t);
      expect(rates).toHaveLength(n);
      for (const w of rates) {
        expect(w).toBeGreaterThanOrEqual(0);
        expect(w).toBeLessThanOrEqual(1);
      }
    },
  );

  test.prop([fc.oneof(allPairsOnce, derivedPairs)])(
    "with tie credit 0.5, sum of win rates * (n - 1) = n(n - 1)/2",
    ({ n, pairs }) => {
      fc.pre(n >= 2);
      const total = winRateFromPairs(n, pairs, 0.5).reduce((s, w) => s + w, 0);
      expect(Math.abs(total * (n - 1) - (n * (n - 1)) / 2)).toBeLessThanOrEqual(1e-12 * n * n);
    },
  );

  test.prop([
    fc
      .array(score, { maxLength: 10 })
      .chain((s) => fc.tuple(fc.constant(s), permutation(s.length))),
    tie,
  ])("with pairs from scores, permuting the rollouts permutes the win rates", ([scores, p], t) => {
    const base = winRateFromPairs(scores.length, winRatePairsFromScores(scores), t);
    const moved = p.map((i) => scores[i]!);
    // Wins are sums of 1 and 0.5: exact, so the rates are the same doubles.
    expect(winRateFromPairs(moved.length, winRatePairsFromScores(moved), t)).toEqual(
      p.map((i) => base[i]!),
    );
  });
});

describe("winRateMatrix", () => {
  /** Any subset of the pairs, each judged once: pairs that never met stay NaN both ways. */
  const somePairsOnce = allPairsOnce.chain(({ n, pairs }) =>
    fc.subarray(pairs).map((subset) => ({ n, pairs: subset })),
  );

  test.prop([somePairsOnce])(
    "with tie credit 0.5, w(a, b) + w(b, a) = 1 for every pair that met; NaN when they did not",
    ({ n, pairs }) => {
      const m = winRateMatrix(n, pairs, 0.5);
      const met = new Set(pairs.map(({ a, b }) => `${Math.min(a, b)},${Math.max(a, b)}`));
      for (let i = 0; i < n; i++) {
        expect(m[i]![i]).toBeNaN();
        for (let j = i + 1; j < n; j++) {
          if (met.has(`${i},${j}`)) {
            expect(m[i]![j]! + m[j]![i]!).toBe(1);
            expect(m[i]![j]).toBeGreaterThanOrEqual(0);
            expect(m[i]![j]).toBeLessThanOrEqual(1);
          } else {
            expect(m[i]![j]).toBeNaN();
            expect(m[j]![i]).toBeNaN();
          }
        }
      }
    },
  );

  test.prop([allPairsOnce])(
    "every pair judged once: row sums / (n - 1) equal winRateFromPairs (tie credit 0.5)",
    ({ n, pairs }) => {
      fc.pre(n >= 2);
      const m = winRateMatrix(n, pairs, 0.5);
      const rates = winRateFromPairs(n, pairs, 0.5);
      m.forEach((row, i) => {
        const points = row.reduce((s, x, j) => (j === i ? s : s + x), 0);
        expect(points / (n - 1)).toBe(rates[i]);
      });
    },
  );
});

describe("winRateCycles", () => {
  /** The definition: every (i, j, k), j and k above i, with i > j > k > i. */
  function naiveCycles(matrix: readonly (readonly number[])[]): [number, number, number][] {
    const n = matrix.length;
    const beats = (i: number, j: number): boolean => {
      const m = matrix[i]![j]!;
      return !Number.isNaN(m) && m > 0.5;
    };
    const out: [number, number, number][] = [];
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++)
        for (let k = i + 1; k < n; k++)
          if (k !== j && beats(i, j) && beats(j, k) && beats(k, i)) out.push([i, j, k]);
    return out;
  }

  test.prop([
    fc
      .integer({ min: 0, max: 70 })
      .chain((n) =>
        fc.array(
          fc.array(fc.constantFrom(NaN, 0, 0.25, 0.5, 0.75, 1), { minLength: n, maxLength: n }),
          { minLength: n, maxLength: n },
        ),
      ),
  ])("finds exactly the definition's triples, in its order (across 32-bit words)", (matrix) => {
    expect(winRateCycles(matrix)).toEqual(naiveCycles(matrix));
  });
});
