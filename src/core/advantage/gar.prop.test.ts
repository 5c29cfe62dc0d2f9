/**
 * Properties of GAR (methods.md 2.1 to 2.3): equation 3 conserves the passes' advantage mass when
 * the cap does not bind, the rank-to-factor map, advantage mode's "subtract the mean to recover
 * equation 3", and order invariance. Golden vectors live in gar.test.ts.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import {
  garFactorsOfKept,
  GAR_DEFAULTS,
  garFactorsFromRanking,
  garGroupFromGrader,
  garRedistribute,
  type GarRanking,
} from "./gar.ts";

const THRESHOLD = GAR_DEFAULTS.passThreshold;

/** Bounded so sums cannot overflow; [-2, 3] covers 0/1 rewards, shaped ones and oddities. */
const anyReward = fc.oneof(
  fc.constantFrom(0, 0.5, 1),
  fc.double({ min: -2, max: 3, noNaN: true, noDefaultInfinity: true }),
);
/**
 * Passes and failures kept apart (failures <= 0.45): order-invariance compares two computations,
 * and a failure a hair below the threshold would make `mass` a rounding-level number whose sign
 * flips.
 */
const separatedReward = fc.oneof(
  fc.constantFrom(0, 1),
  fc.double({ min: 0, max: 0.45, noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: THRESHOLD, max: 1, noNaN: true, noDefaultInfinity: true }),
);
/** Any factor in (0, 1], subnormals included. */
const factor = fc.oneof(
  fc.constantFrom(1, 0.5),
  fc.double({ min: 0, minExcluded: true, max: 1, noNaN: true, noDefaultInfinity: true }),
);
const cap = fc.oneof(
  fc.constant(GAR_DEFAULTS.cap),
  fc.double({ min: 1, max: 100, noNaN: true, noDefaultInfinity: true }),
);

/** Rewards with one aligned factor each (factors at failures are ignored by the function). */
const groupWithFactors = (reward: fc.Arbitrary<number>) =>
  fc
    .array(reward, { minLength: 0, maxLength: 12 })
    .chain((rewards) =>
      fc.tuple(
        fc.constant(rewards),
        fc.array(factor, { minLength: rewards.length, maxLength: rewards.length }),
      ),
    );

const permutation = (n: number) =>
  fc.shuffledSubarray(
    Array.from({ length: n }, (_, i) => i),
    { minLength: n, maxLength: n },
  );

const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);
const maxAbs = (xs: readonly number[]): number => xs.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
/** A = R - mean(R), summed in index order as the implementation does. */
const centred = (rewards: readonly number[]): number[] => {
  const m = sum(rewards) / rewards.length;
  return rewards.map((r) => r - m);
};
/** Rounding budget for sums of n terms of size up to `scale`: a few ulps per term. */
const tolerance = (n: number, scale: number): number => 1e-13 * Math.max(n, 1) * (1 + scale);

describe("garRedistribute", () => {
  test.prop([groupWithFactors(anyReward), cap])(
    "conserves the passes' total and leaves failures alone when the cap does not bind",
    ([rewards, factors], c) => {
      const result = garRedistribute(rewards, factors, { cap: c });
      const a = centred(rewards);
      const out = result.advantages;
      expect(out).toHaveLength(rewards.length);
      const tol = tolerance(rewards.length, c * maxAbs(a));
      if (result.lambda === null) {
        // All-pass, all-fail or no mass: A comes back exactly.
        expect(out).toEqual(a);
        expect(result.capped).toBe(false);
        return;
      }
      expect(result.lambda).toBeLessThanOrEqual(c);
      expect(result.capped).toBe(result.lambdaUncapped! > c);
      if (result.capped) return;
      const passes = rewards.flatMap((r, i) => (r >= THRESHOLD ? [i] : []));
      const passSum = (xs: readonly number[]) => sum(passes.map((i) => xs[i]!));
      expect(Math.abs(passSum(out) - passSum(a))).toBeLessThanOrEqual(tol);
      rewards.forEach((r, i) => {
        if (r < THRESHOLD) expect(Math.abs(out[i]! - a[i]!)).toBeLessThanOrEqual(tol);
      });
    },
  );

  test.prop([groupWithFactors(anyReward), cap])(
    "output has group mean ~0, capped or not",
    ([rewards, factors], c) => {
      const out = garRedistribute(rewards, factors, { cap: c }).advantages;
      if (out.length === 0) return;
      const a = centred(rewards);
      expect(Math.abs(sum(out) / out.length)).toBeLessThanOrEqual(
        tolerance(out.length, c * maxAbs(a)),
      );
    },
  );

  test.prop([
    groupWithFactors(separatedReward).chain(([rewards, factors]) =>
      fc.tuple(fc.constant(rewards), fc.constant(factors), permutation(rewards.length)),
    ),
    cap,
  ])(
    "permuting rollouts (rewards and factors together) permutes the advantages",
    ([rewards, factors, p], c) => {
      const base = garRedistribute(rewards, factors, { cap: c }).advantages;
      const moved = garRedistribute(
        p.map((i) => rewards[i]!),
        p.map((i) => factors[i]!),
        { cap: c },
      ).advantages;
      const tol = tolerance(rewards.length, c * maxAbs(centred(rewards)));
      p.forEach((from, to) => {
        expect(Math.abs(moved[to]! - base[from]!)).toBeLessThanOrEqual(tol);
      });
    },
  );
});

/** Distinct indices split into best-first tiers, in the mixed form a grader returns. */
interface RankingCase {
  /** Normalised tiers, the ground truth for assertions. */
  readonly tiers: number[][];
  /** The same tiers as a GarRanking: singletons sometimes bare, empty tiers sprinkled in. */
  readonly ranking: GarRanking;
}

const tiersOf = (indices: readonly number[], breaks: readonly boolean[]): number[][] => {
  const tiers: number[][] = [];
  indices.forEach((index, p) => {
    if (p === 0 || breaks[p]) tiers.push([index]);
    else tiers[tiers.length - 1]!.push(index);
  });
  return tiers;
};

const rankingOf = (indices: fc.Arbitrary<number[]>): fc.Arbitrary<RankingCase> =>
  indices.chain((ids) =>
    fc
      .tuple(
        fc.array(fc.boolean(), { minLength: ids.length, maxLength: ids.length }),
        fc.array(fc.boolean(), { minLength: ids.length, maxLength: ids.length }),
        fc.array(fc.boolean(), { minLength: ids.length, maxLength: ids.length }),
      )
      .map(([breaks, bare, emptyBefore]) => {
        const tiers = tiersOf(ids, breaks);
        const ranking: (number | readonly number[])[] = [];
        tiers.forEach((tier, t) => {
          if (emptyBefore[t]) ranking.push([]);
          ranking.push(tier.length === 1 && bare[t] ? tier[0]! : tier);
        });
        return { tiers, ranking };
      }),
  );

const anyRanking = rankingOf(fc.uniqueArray(fc.nat({ max: 40 }), { maxLength: 12 }));

/**
 * minFactor is kept at or above 1e-6. Below 2^-53 `1 - (1 - minFactor)` rounds to 0, so the worst
 * rank's factor is 0, outside (0, 1] (see the report: garFactorsFromRanking with minFactor 1e-17).
 */
const minFactor = fc.oneof(
  fc.constantFrom(GAR_DEFAULTS.minFactor, 1),
  fc.double({ min: 1e-6, max: 1, noNaN: true, noDefaultInfinity: true }),
);

const sortedEntries = (m: ReadonlyMap<number, number>) =>
  [...m.entries()].sort(([a], [b]) => a - b);

describe("garFactorsFromRanking", () => {
  test.prop([anyRanking, minFactor])(
    "factors are in (0, 1], shared within a tier, non-increasing down the tiers",
    ({ tiers, ranking }, mf) => {
      const factors = garFactorsFromRanking(ranking, mf);
      const n = tiers.flat().length;
      expect(factors.size).toBe(n);
      let previous = Infinity;
      for (const tier of tiers) {
        const f = factors.get(tier[0]!)!;
        for (const i of tier) expect(factors.get(i)).toBe(f);
        expect(f).toBeGreaterThan(0);
        expect(f).toBeLessThanOrEqual(1);
        expect(f).toBeLessThanOrEqual(previous);
        previous = f;
      }
    },
  );

  test.prop([anyRanking, minFactor])(
    "the best tier gets the top factor: 1.0 when it is one index; a lone worst gets minFactor",
    ({ tiers, ranking }, mf) => {
      fc.pre(tiers.length > 0);
      const factors = garFactorsFromRanking(ranking, mf);
      const best = factors.get(tiers[0]![0]!)!;
      expect(best).toBe(Math.max(...factors.values()));
      // A tied best tier sits at its mean rank, so it gets less than 1 ([[3,0],5] gives 0.875).
      if (tiers[0]!.length === 1 || mf === 1) expect(best).toBe(1);
      const last = tiers[tiers.length - 1]!;
      if (tiers.length > 1 && last.length === 1) {
        expect(Math.abs(factors.get(last[0]!)! - mf)).toBeLessThanOrEqual(1e-15);
      }
    },
  );

  test.prop([
    anyRanking.chain((c) =>
      fc.tuple(
        fc.constant(c),
        fc.tuple(
          ...c.tiers.map((t) =>
            fc.shuffledSubarray(t, { minLength: t.length, maxLength: t.length }),
          ),
        ),
      ),
    ),
    minFactor,
  ])("does not depend on the order a tier's members are listed in", ([{ tiers }, shuffled], mf) => {
    expect(sortedEntries(garFactorsFromRanking(shuffled, mf))).toEqual(
      sortedEntries(garFactorsFromRanking(tiers, mf)),
    );
  });
});

describe("garGroupFromGrader", () => {
  /**
   * A mixed group, a grader ranking that covers every pass (and some failures), and hack marks on
   * any indices; with hackZero off a hack may be left unranked (it then takes minFactor).
   */
  const graded = fc
    .array(anyReward, { minLength: 2, maxLength: 12 })
    .filter((r) => r.some((x) => x >= THRESHOLD) && r.some((x) => x < THRESHOLD))
    .chain((rewards) =>
      fc.record({
        rewards: fc.constant(rewards),
        hacks: fc.subarray(rewards.map((_, i) => i)),
        extra: fc.subarray(rewards.map((_, i) => i)),
        hackZero: fc.boolean(),
        cap,
        minFactor,
      }),
    )
    .chain(({ rewards, hacks, extra, hackZero, cap: c, minFactor: mf }) => {
      const passes = rewards.flatMap((r, i) => (r >= THRESHOLD ? [i] : []));
      const ranked = [
        ...new Set([...passes.filter((i) => hackZero || !hacks.includes(i)), ...extra]),
      ];
      return rankingOf(
        fc.shuffledSubarray(ranked, { minLength: ranked.length, maxLength: ranked.length }),
      ).map(({ ranking }) => ({
        rewards,
        hacks,
        ranking,
        options: { cap: c, minFactor: mf, hackZero, passThreshold: THRESHOLD },
      }));
    });

  test.prop([graded])(
    "output minus mean(effective) recovers garRedistribute's advantages",
    ({ rewards, hacks, ranking, options }) => {
      const outcome = garGroupFromGrader(rewards, { ranking, hacks }, options);
      expect(outcome.status).not.toBe("fallback");
      const passHacks = new Set(hacks.filter((h) => rewards[h]! >= THRESHOLD));
      const effective = rewards.map((r, i) => (options.hackZero && passHacks.has(i) ? 0 : r));
      expect(outcome.effective).toEqual(effective);
      const factors = new Map(garFactorsFromRanking(ranking, options.minFactor));
      for (const h of passHacks) if (!factors.has(h)) factors.set(h, options.minFactor);
      const expected = garRedistribute(effective, factors, {
        cap: options.cap,
        passThreshold: THRESHOLD,
      }).advantages;
      const mean = sum(effective) / effective.length;
      const tol = tolerance(
        rewards.length,
        options.cap * maxAbs(centred(effective)) + Math.abs(mean),
      );
      outcome.output.forEach((o, i) => {
        expect(Math.abs(o - mean - expected[i]!)).toBeLessThanOrEqual(tol);
      });
    },
  );
});

describe("garFactorsOfKept", () => {
  const idsArb = fc.array(
    fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f"), { maxLength: 4 }),
    {
      maxLength: 5,
    },
  );
  const minFactorArb = fc.double({ min: 0.01, max: 1, noNaN: true });

  test.prop([idsArb, fc.subarray(["a", "b", "c", "d", "e", "f"]), minFactorArb])(
    "equals the factors of the kept ids re-ranked, each once, in rank order",
    (ranking, dropped, minFactor) => {
      const keep = (id: string) => !dropped.includes(id);
      const index = new Map<string, number>();
      const tiers: number[][] = [];
      for (const tier of ranking) {
        const t: number[] = [];
        for (const id of tier) {
          if (!keep(id) || index.has(id)) continue;
          index.set(id, index.size);
          t.push(index.get(id)!);
        }
        if (t.length > 0) tiers.push(t);
      }
      const want = [...garFactorsFromRanking(tiers, minFactor).values()];
      const got = garFactorsOfKept(ranking, minFactor, keep);
      expect(got).toEqual(want);
      expect(got).toHaveLength(index.size);
      // Best first: factors never rise down the ranking, and none is under minFactor.
      for (let i = 1; i < got.length; i++) expect(got[i]!).toBeLessThanOrEqual(got[i - 1]!);
      for (const f of got) expect(f).toBeGreaterThanOrEqual(minFactor);
    },
  );
});
