/**
 * Bradley-Terry strengths from pairwise outcomes, fitted with Hunter's (2004) MM algorithm.
 * P(i beats j) = p_i / (p_i + p_j). A tie counts half a win to each side.
 *
 * A player who never loses has an infinite MLE, so a small symmetric prior is added: every pair of
 * players is treated as having played `prior` extra games split evenly. This keeps strengths finite
 * and makes players who never met comparable (it is the usual "virtual ties" regulariser).
 */
import { randomMulberry32 } from "../util/random.ts";
import type { PairResult } from "./winRate.ts";

export interface BradleyTerryOptions {
  /** Virtual games per pair, split as half a win each. Default 0.1. */
  readonly prior?: number;
  readonly maxIterations?: number;
  readonly tolerance?: number;
}

export interface BradleyTerryFit {
  /** log(p_i), centred so that the mean is 0. Higher is stronger. */
  readonly logStrength: number[];
  /** Strengths normalised to sum to n. */
  readonly strength: number[];
  readonly iterations: number;
  readonly converged: boolean;
}

/**
 * Fit Bradley-Terry strengths. Pairs without a verdict are ignored; ties give half a win each.
 * With n = 1 the single strength is 1.
 */
export function bradleyTerryFit(
  n: number,
  pairs: readonly PairResult[],
  options: BradleyTerryOptions = {},
): BradleyTerryFit {
  const prior = options.prior ?? 0.1;
  const maxIterations = options.maxIterations ?? 10_000;
  const tolerance = options.tolerance ?? 1e-10;
  // wins[i] and games[i][j] including the prior's virtual games.
  const wins = new Array<number>(n).fill(0);
  const games = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      if (i !== j) {
        games[i]![j] = prior;
        wins[i]! += prior / 2;
      }
  for (const { a, b, outcome } of pairs) {
    if (outcome === null) continue;
    games[a]![b]! += 1;
    games[b]![a]! += 1;
    if (outcome === "a") wins[a]! += 1;
    else if (outcome === "b") wins[b]! += 1;
    else {
      wins[a]! += 0.5;
      wins[b]! += 0.5;
    }
  }
  let p = new Array<number>(n).fill(1);
  let iterations = 0;
  let converged = n <= 1;
  while (!converged && iterations < maxIterations) {
    iterations++;
    const next = p.map((pi, i) => {
      let denom = 0;
      for (let j = 0; j < n; j++)
        if (j !== i && games[i]![j]! > 0) denom += games[i]![j]! / (pi + p[j]!);
      return denom > 0 ? wins[i]! / denom : pi;
    });
    const sum = next.reduce((s, x) => s + x, 0);
    const scaled = next.map((x) => (x * n) / sum);
    converged = scaled.every((x, i) => Math.abs(x - p[i]!) <= tolerance * Math.max(1, p[i]!));
    p = scaled;
  }
  const logs = p.map((x) => Math.log(x));
  const meanLog = logs.reduce((s, x) => s + x, 0) / Math.max(1, n);
  return { logStrength: logs.map((x) => x - meanLog), strength: p, iterations, converged };
}

export interface BradleyTerryInterval {
  readonly fit: BradleyTerryFit;
  /** Percentile bootstrap bounds of each log-strength, over the kept resamples. */
  readonly lower: number[];
  readonly upper: number[];
  /** Resamples drawn. */
  readonly samples: number;
  /**
   * Resamples dropped: their fit did not converge or gave a non-finite strength (the prior keeps
   * this rare; it is counted rather than silently averaged in).
   */
  readonly dropped: number;
}

/**
 * Bradley-Terry with a seeded percentile bootstrap over the comparisons (resampled with
 * replacement), for an interval on each log-strength.
 */
export function bradleyTerryBootstrap(
  n: number,
  pairs: readonly PairResult[],
  options: BradleyTerryOptions & { seed: number; samples?: number; level?: number },
): BradleyTerryInterval {
  const fit = bradleyTerryFit(n, pairs, options);
  const samples = options.samples ?? 200;
  const level = options.level ?? 0.95;
  const rand = randomMulberry32(options.seed);
  const draws: number[][] = Array.from({ length: n }, () => []);
  let dropped = 0;
  for (let s = 0; s < samples; s++) {
    const resample = pairs.map(() => pairs[Math.floor(rand() * pairs.length)]!);
    const draw = bradleyTerryFit(n, resample, options);
    if (!draw.converged || !draw.logStrength.every(Number.isFinite)) dropped++;
    else draw.logStrength.forEach((x, i) => draws[i]!.push(x));
  }
  const q = (values: number[], p: number): number => {
    if (values.length === 0) return NaN;
    const sorted = [...values].sort((a, b) => a - b);
    const pos = p * (sorted.length - 1);
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
  };
  const alpha = (1 - level) / 2;
  return {
    fit,
    lower: draws.map((d) => q(d, alpha)),
    upper: draws.map((d) => q(d, 1 - alpha)),
    samples,
    dropped,
  };
}
