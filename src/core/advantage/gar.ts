/**
 * Groupwise Advantage Redistribution (GAR, MiMo-V2.6 section 4.3.2, equation 3), as whileai's
 * GroupwiseGrading implements it (methods.md sections 2.1 to 2.3).
 *
 * Indices are positions within one group. Rewards are the *effective* rewards (hacks already zeroed).
 */
import { capValid, minFactorValid } from "../settings/rules.ts";
import { statsMean, statsStd } from "../util/stats.ts";

/** whileai defaults (whileai/simulations/defaults.py). */
export const GAR_DEFAULTS = {
  /** Upper bound on lambda: "convention, untested" in whileai. */
  cap: 3.0,
  /** The worst-ranked pass keeps this share of its advantage: "convention, untested". */
  minFactor: 0.5,
  /** whileai PASS_THRESHOLD: a reward >= 0.5 is a pass. */
  passThreshold: 0.5,
  /** A confirmed hack is reset to 0 and treated as a failure before the statistics. */
  hackZero: true,
} as const;

/** A best-first ranking: each element is an index, or a list of tied indices (one tier). */
export type GarRanking = readonly (number | readonly number[])[];

/** An error in the inputs of a GAR function, with whileai's wording so messages match the docs. */
export class GarError extends Error {
  override name = "GarError";
}

/** Normalise a ranking to tiers: `[3, [0, 1]]` becomes `[[3], [0, 1]]`. Empty tiers vanish. */
export function garTiers(ranking: GarRanking): number[][] {
  return ranking
    .map((tier) => (typeof tier === "number" ? [tier] : [...tier]))
    .filter((tier) => tier.length > 0);
}

/**
 * The rank-to-factor map (whileai `factors_from_ranking`).
 *
 * A tier spanning 0-based ranks p..p+len-1 sits at its mean rank `p + (len-1)/2`, and
 * `f = 1 - (1 - minFactor) * meanRank / (n - 1)` where n counts every index in the ranking.
 * The best tier gets 1.0, the worst rank gets minFactor, tied indices share a factor; n = 1 gives 1.0.
 *
 * @throws GarError if minFactor is outside (0, 1] or an index appears twice
 */
export function garFactorsFromRanking(
  ranking: GarRanking,
  minFactor: number = GAR_DEFAULTS.minFactor,
): Map<number, number> {
  if (!minFactorValid(minFactor)) {
    throw new GarError(`min_factor must be in (0, 1], got ${minFactor}`);
  }
  const tiers = garTiers(ranking);
  const n = tiers.reduce((sum, tier) => sum + tier.length, 0);
  const factors = new Map<number, number>();
  let position = 0;
  for (const tier of tiers) {
    const meanRank = position + (tier.length - 1) / 2;
    // The max only guards rounding: mathematically f >= minFactor already, but for a minFactor
    // below 2^-53 `1 - (1 - minFactor)` rounds to 0, which is outside (0, 1].
    const f = n <= 1 ? 1.0 : Math.max(minFactor, 1.0 - ((1 - minFactor) * meanRank) / (n - 1));
    for (const index of tier) {
      if (factors.has(index)) throw new GarError(`index ${index} appears twice in the ranking`);
      factors.set(index, f);
    }
    position += tier.length;
  }
  return factors;
}

/**
 * The GAR factors of a ranking of rollout ids once some are left out (hacks, fails): the kept ids
 * re-ranked among themselves, each at its first place, empty tiers dropped; factors in rank
 * order. The spread check (methods.md 2.5) of a person's ranking and of a GAR judge run both run
 * over these.
 *
 * @throws GarError if minFactor is outside (0, 1]
 */
export function garFactorsOfKept(
  ranking: readonly (readonly string[])[],
  minFactor: number,
  keep: (id: string) => boolean = () => true,
): number[] {
  const seen = new Set<string>();
  const tiers: number[][] = [];
  for (const tier of ranking) {
    const kept: number[] = [];
    for (const id of tier) {
      if (seen.has(id) || !keep(id)) continue;
      seen.add(id);
      kept.push(seen.size - 1);
    }
    if (kept.length > 0) tiers.push(kept);
  }
  return [...garFactorsFromRanking(tiers, minFactor).values()];
}

/** Quality factors by index: a Map, a plain `{index: f}` object, or a sequence aligned with the rewards. */
export type GarFactors =
  | ReadonlyMap<number, number>
  | Readonly<Record<number, number>>
  | readonly (number | null | undefined)[];

function isFactorList(factors: GarFactors): factors is readonly (number | null | undefined)[] {
  return Array.isArray(factors);
}

function factorAt(factors: GarFactors, i: number): number | undefined {
  if (factors instanceof Map) return (factors as ReadonlyMap<number, number>).get(i);
  if (isFactorList(factors)) return factors[i] ?? undefined;
  const record = factors as Readonly<Record<number, number>>;
  return Object.prototype.hasOwnProperty.call(record, i) ? record[i] : undefined;
}

export interface GarRedistribution {
  /** A': equation 3 plus re-centring; sums to 0 (up to rounding). */
  readonly advantages: number[];
  /** The lambda applied, or null when the group was returned unchanged (all-pass, all-fail, no mass). */
  readonly lambda: number | null;
  /** mass / weighted before the cap; null when not computed. */
  readonly lambdaUncapped: number | null;
  /** True when the cap bound (whileai counts these as `lambda_capped`). */
  readonly capped: boolean;
}

export interface GarRedistributeOptions {
  readonly cap?: number;
  readonly passThreshold?: number;
}

/**
 * Equation 3 (whileai `redistribute`).
 *
 * With `m = mean(R)`, `A_i = R_i - m` and passes `P = {i: R_i >= passThreshold}`: if P is empty or
 * everything, A is returned. Otherwise `lambda = min(sum_P A / sum_P f*A, cap)`, `A'_i = lambda*f_i*A_i`
 * on passes, `A_i` elsewhere, and finally the mean of A' is subtracted from every entry. When the cap
 * does not bind the shift is 0: the passes' total is conserved and failures are untouched.
 * If `sum_P A <= 0` or `sum_P f*A <= 0`, A is returned.
 *
 * @param rewards effective rewards, hacks already zeroed
 * @param factors quality factors in (0, 1] for every pass; entries at failures are ignored
 * @throws GarError if cap < 1, a pass has no factor, or a factor is outside (0, 1]
 */
export function garRedistribute(
  rewards: readonly number[],
  factors: GarFactors,
  options: GarRedistributeOptions = {},
): GarRedistribution {
  const cap = options.cap ?? GAR_DEFAULTS.cap;
  const threshold = options.passThreshold ?? GAR_DEFAULTS.passThreshold;
  const unchanged = (advantages: number[]): GarRedistribution => ({
    advantages,
    lambda: null,
    lambdaUncapped: null,
    capped: false,
  });
  if (rewards.length === 0) return unchanged([]);
  if (!capValid(cap)) throw new GarError(`cap must be at least 1, got ${cap}`);
  const m = statsMean(rewards);
  const a = rewards.map((r) => r - m);
  const passes: number[] = [];
  rewards.forEach((r, i) => {
    if (r >= threshold) passes.push(i);
  });
  if (passes.length === 0 || passes.length === rewards.length) return unchanged(a);
  let mass = 0;
  let weighted = 0;
  const f = new Map<number, number>();
  for (const i of passes) {
    const fi = factorAt(factors, i);
    if (fi === undefined || fi === null) {
      throw new GarError(`factors has no quality factor for passing index ${i}`);
    }
    if (!(fi > 0 && fi <= 1)) {
      throw new GarError(`quality factors are in (0, 1]; index ${i} has ${fi}`);
    }
    f.set(i, fi);
    mass += a[i]!;
    weighted += fi * a[i]!;
  }
  if (mass <= 0 || weighted <= 0) return unchanged(a);
  const lambdaUncapped = mass / weighted;
  const lambda = Math.min(lambdaUncapped, cap);
  const scaled = a.map((ai, i) => (f.has(i) ? lambda * f.get(i)! * ai : ai));
  const shift = statsMean(scaled);
  return {
    advantages: scaled.map((x) => x - shift),
    lambda,
    lambdaUncapped,
    capped: lambdaUncapped > cap,
  };
}

export interface GarGroupOptions {
  readonly cap: number;
  readonly minFactor: number;
  readonly passThreshold: number;
  readonly hackZero: boolean;
}

export const GAR_GROUP_DEFAULTS: GarGroupOptions = {
  cap: GAR_DEFAULTS.cap,
  minFactor: GAR_DEFAULTS.minFactor,
  passThreshold: GAR_DEFAULTS.passThreshold,
  hackZero: GAR_DEFAULTS.hackZero,
};

/** What happened to one group under GAR. */
export type GarGroupStatus =
  /** All-pass or all-fail (after hack zeroing): nothing was redistributed. */
  | "unmixed"
  /** Factors were applied. */
  | "redistributed"
  /** The grader's result was unusable or threw: the original rewards are returned. */
  | "fallback";

export interface GarGroupOutcome {
  readonly status: GarGroupStatus;
  /** What a trainer receives: A' + mean(effective), or the effective (or original) rewards. */
  readonly output: number[];
  /** Rewards after hack zeroing. */
  readonly effective: number[];
  /** Factors of the passes that still count, by index. */
  readonly factors: ReadonlyMap<number, number>;
  /** Indices whose reward was zeroed as a hack. */
  readonly hacksZeroed: readonly number[];
  readonly lambda: number | null;
  readonly capped: boolean;
  /** Why a fallback happened. */
  readonly error: string | null;
}

/**
 * True when a group has both passes and failures: the only groups a GAR grader is called on, and
 * the groups the review queue's "mixed" mode keeps. Counted without an array per group: the
 * review queue asks it of every group of a large file at once.
 */
export function garIsMixed(rewards: readonly number[], passThreshold: number): boolean {
  let passes = 0;
  for (const r of rewards) if (r >= passThreshold) passes++;
  return passes > 0 && passes < rewards.length;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function isIndex(x: unknown, n: number): x is number {
  return typeof x === "number" && Number.isInteger(x) && x >= 0 && x < n;
}

function parseRanking(raw: unknown, n: number): GarRanking {
  if (!Array.isArray(raw)) throw new GarError("ranking is not a list");
  return raw.map((tier: unknown) => {
    if (isIndex(tier, n)) return tier;
    if (Array.isArray(tier) && tier.every((i: unknown) => isIndex(i, n))) return tier;
    throw new GarError(
      `ranking entry ${JSON.stringify(tier)} is not an index or a list of indices`,
    );
  });
}

function parseFactors(raw: unknown, n: number): Map<number, number> {
  const out = new Map<number, number>();
  if (Array.isArray(raw)) {
    raw.forEach((f: unknown, i) => {
      if (typeof f === "number") out.set(i, f);
    });
    return out;
  }
  if (!isRecord(raw)) throw new GarError("factors is neither a mapping nor a list");
  for (const [key, f] of Object.entries(raw)) {
    const i = Number(key);
    if (!isIndex(i, n)) throw new GarError(`factors has an unknown index ${key}`);
    if (typeof f !== "number") throw new GarError(`factor for index ${key} is not a number`);
    out.set(i, f);
  }
  return out;
}

/**
 * Advantage mode for one group (whileai `GroupwiseGrading.group`, mode "advantage"), given what the
 * grader returned for it. The grader is only called on mixed groups (see {@link garIsMixed}); for an
 * unmixed group pass `graderResult = undefined` and the rewards come back unchanged.
 *
 * The grader result is `{ranking}` or `{factors}` (a mapping or a list), optionally with `hacks`.
 * Only hacks that are passes count. With hackZero a hack's effective reward is 0; without it a hack
 * that has no factor gets minFactor. Any unusable result falls back to the original rewards.
 *
 * The output is `A' + mean(effective)`, so a trainer's mean subtraction recovers equation 3. Under
 * TRL's scale_rewards="group" the result is further divided by the new std (methods.md 2.6).
 */
export function garGroupFromGrader(
  rewards: readonly number[],
  graderResult: unknown,
  options: GarGroupOptions = GAR_GROUP_DEFAULTS,
): GarGroupOutcome {
  const n = rewards.length;
  const original = [...rewards];
  const base = {
    effective: original,
    factors: new Map<number, number>(),
    hacksZeroed: [],
    lambda: null,
    capped: false,
    error: null,
  };
  if (!garIsMixed(rewards, options.passThreshold))
    return { ...base, status: "unmixed", output: original };
  try {
    if (!isRecord(graderResult))
      throw new GarError("the grader returned something other than a mapping");
    const hasRanking = graderResult.ranking !== undefined && graderResult.ranking !== null;
    const hasFactors = graderResult.factors !== undefined && graderResult.factors !== null;
    if (!hasRanking && !hasFactors)
      throw new GarError("the grader returned neither ranking nor factors");
    const factors = hasRanking
      ? garFactorsFromRanking(parseRanking(graderResult.ranking, n), options.minFactor)
      : parseFactors(graderResult.factors, n);
    const rawHacks: unknown = graderResult.hacks ?? [];
    if (!Array.isArray(rawHacks)) throw new GarError("hacks is not a list");
    const hacks = [...new Set(rawHacks.filter((h: unknown): h is number => isIndex(h, n)))].filter(
      (h) => rewards[h]! >= options.passThreshold,
    );
    return garApply(rewards, factors, hacks, options);
  } catch (e) {
    return {
      ...base,
      status: "fallback",
      output: original,
      error: e instanceof Error ? e.message : String(e),
    };
  }
}

/**
 * The shared tail of advantage mode: zero or keep hacks, validate the factors of the passes that
 * still count, redistribute, add back the effective mean. Throws GarError on missing or bad factors.
 */
export function garApply(
  rewards: readonly number[],
  factors: ReadonlyMap<number, number>,
  hacks: readonly number[],
  options: GarGroupOptions,
): GarGroupOutcome {
  const hackSet = new Set(hacks);
  const effective = rewards.map((r, i) => (options.hackZero && hackSet.has(i) ? 0 : r));
  const used = new Map<number, number>();
  let passes = 0;
  const missing: number[] = [];
  effective.forEach((r, i) => {
    if (r < options.passThreshold) return;
    passes++;
    let f = factors.get(i);
    if (f === undefined && hackSet.has(i) && !options.hackZero) f = options.minFactor;
    if (f === undefined) {
      missing.push(i);
      return;
    }
    if (!(f > 0 && f <= 1))
      throw new GarError(`quality factors are in (0, 1]; index ${i} has ${f}`);
    used.set(i, f);
  });
  const hacksZeroed = options.hackZero ? [...hackSet].sort((a, b) => a - b) : [];
  // An all-pass or all-fail group moves nothing, so a pass needs no factor there (a ranking made
  // before the rewards changed, e.g. by a verifier, may leave one out).
  if (passes === 0 || passes === effective.length) {
    return {
      status: "unmixed",
      output: effective,
      effective,
      factors: used,
      hacksZeroed,
      lambda: null,
      capped: false,
      error: null,
    };
  }
  if (missing.length > 0)
    throw new GarError(`factors has no quality factor for passing index ${missing[0]!}`);
  const result = garRedistribute(effective, used, {
    cap: options.cap,
    passThreshold: options.passThreshold,
  });
  const mean = statsMean(effective);
  return {
    status: "redistributed",
    output: result.advantages.map((a) => a + mean),
    effective,
    factors: used,
    hacksZeroed,
    lambda: result.lambda,
    capped: result.capped,
    error: null,
  };
}

/** Running statistics of a GAR run (whileai `GroupwiseGrading.stats`). */
export interface GarStats {
  readonly groups: number;
  readonly mixed: number;
  readonly graderCalls: number;
  readonly failures: number;
  readonly hacksZeroed: number;
  readonly lambdaCapped: number;
  /** Factors of the non-hack passes of every graded group, in order. */
  readonly factors: readonly number[];
}

export const GAR_STATS_EMPTY: GarStats = {
  groups: 0,
  mixed: 0,
  graderCalls: 0,
  failures: 0,
  hacksZeroed: 0,
  lambdaCapped: 0,
  factors: [],
};

/**
 * Add one group to the stats. `graded` says whether a grader (or a person's ranking) was consulted
 * for it; whileai only calls the grader on mixed groups in training but on all-pass groups in the
 * spread check, so the caller decides.
 */
export function garStatsAdd(
  stats: GarStats,
  outcome: GarGroupOutcome,
  mixed: boolean,
  graded: boolean,
): GarStats {
  const factors = [...outcome.factors.entries()]
    .filter(([i]) => !outcome.hacksZeroed.includes(i))
    .sort(([a], [b]) => a - b)
    .map(([, f]) => f);
  return {
    groups: stats.groups + 1,
    mixed: stats.mixed + (mixed ? 1 : 0),
    graderCalls: stats.graderCalls + (graded ? 1 : 0),
    failures: stats.failures + (outcome.status === "fallback" ? 1 : 0),
    hacksZeroed: stats.hacksZeroed + outcome.hacksZeroed.length,
    lambdaCapped: stats.lambdaCapped + (outcome.capped ? 1 : 0),
    factors: [...stats.factors, ...(outcome.status === "fallback" ? [] : factors)],
  };
}

/** Mean and population std of the recorded factors (NaN when there are none). */
export function garStatsFactorSpread(stats: GarStats): { mean: number; std: number } {
  return { mean: statsMean(stats.factors), std: statsStd(stats.factors, "population") };
}

/** whileai's stats line, e.g. "groupwise grading (advantage): 3 groups, 2 mixed, ...". */
export function garStatsSummary(stats: GarStats): string {
  const { mean, std } = garStatsFactorSpread(stats);
  const spread =
    stats.factors.length > 0 ? `; factors mean ${mean.toFixed(3)} std ${std.toFixed(3)}` : "";
  return (
    `groupwise grading (advantage): ${stats.groups} groups, ${stats.mixed} mixed, ` +
    `${stats.graderCalls} grader calls, ${stats.failures} failed (fell back), ` +
    `${stats.hacksZeroed} hacks zeroed${spread}`
  );
}
