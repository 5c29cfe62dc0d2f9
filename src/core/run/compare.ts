/**
 * Run against run (issue 19): two runs compared on the prompts they share (./lineage.ts's prompt
 * key). Per prompt, the pass rate and mean reward of all its rollouts in each run, and the paired
 * difference B - A; overall, the mean difference over the shared prompts with a paired bootstrap
 * interval (prompts resampled with replacement, seeded) and an exact two-sided sign test. Pure.
 */
import { calibrationPercentile } from "../calibration/bootstrap.ts";
import { randomMulberry32 } from "../util/random.ts";
import { lgamma } from "./gamma.ts";
import type { GroupHealth } from "./groupHealth.ts";

/** One run's rollouts of a prompt, pooled over its steps. */
export interface PromptSide {
  readonly groupIds: readonly string[];
  readonly rollouts: number;
  readonly passRate: number;
  readonly meanReward: number;
}

export interface PromptComparison {
  readonly prompt: string;
  readonly a: PromptSide;
  readonly b: PromptSide;
  /** B - A. */
  readonly passDiff: number;
  readonly rewardDiff: number;
}

export type CompareMetric = "passRate" | "meanReward";

export interface PairedSummary {
  /** Prompts with a finite difference. */
  readonly n: number;
  readonly meanDiff: number;
  readonly lower: number;
  readonly upper: number;
  /** Sign test over the non-zero differences. */
  readonly positive: number;
  readonly negative: number;
  readonly ties: number;
  readonly signP: number;
}

export interface RunComparison {
  readonly shared: readonly PromptComparison[];
  readonly onlyA: number;
  readonly onlyB: number;
  readonly passRate: PairedSummary;
  readonly meanReward: PairedSummary;
  /** Shared prompts worse in B under `metric`, worst first; improvements, best first. */
  readonly metric: CompareMetric;
  readonly regressions: readonly PromptComparison[];
  readonly improvements: readonly PromptComparison[];
}

export interface CompareOptions {
  readonly metric?: CompareMetric;
  readonly seed?: number;
  readonly samples?: number;
  readonly level?: number;
}

function sides(groups: readonly GroupHealth[]): Map<string, PromptSide> {
  const acc = new Map<
    string,
    { ids: string[]; n: number; passes: number; sum: number; scored: number }
  >();
  for (const g of groups) {
    let a = acc.get(g.prompt);
    if (a === undefined) acc.set(g.prompt, (a = { ids: [], n: 0, passes: 0, sum: 0, scored: 0 }));
    a.ids.push(g.id);
    a.n += g.n;
    a.passes += g.passes;
    a.sum += g.rewardSum;
    a.scored += g.rewarded;
  }
  const out = new Map<string, PromptSide>();
  for (const [prompt, a] of acc)
    out.set(prompt, {
      groupIds: a.ids,
      rollouts: a.n,
      passRate: a.n === 0 ? NaN : a.passes / a.n,
      meanReward: a.scored === 0 ? NaN : a.sum / a.scored,
    });
  return out;
}

/**
 * The exact two-sided sign test: P(X <= min(pos, neg)) doubled (at most 1), X ~ Binomial(pos +
 * neg, 1/2); 1 when there is no non-zero difference.
 */
export function signTestP(positive: number, negative: number): number {
  const n = positive + negative;
  if (n === 0) return 1;
  const k = Math.min(positive, negative);
  const logHalf = n * Math.log(0.5);
  let p = 0;
  for (let i = 0; i <= k; i++)
    p += Math.exp(lgamma(n + 1) - lgamma(i + 1) - lgamma(n - i + 1) + logHalf);
  return Math.min(1, 2 * p);
}

/** Mean of paired differences with a seeded percentile bootstrap and the sign test. */
export function pairedSummary(
  diffs: readonly number[],
  options: { seed: number; samples: number; level: number },
): PairedSummary {
  const d = diffs.filter(Number.isFinite);
  const n = d.length;
  const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  const positive = d.filter((x) => x > 0).length;
  const negative = d.filter((x) => x < 0).length;
  const base = {
    n,
    positive,
    negative,
    ties: n - positive - negative,
    signP: signTestP(positive, negative),
  };
  if (n === 0) return { ...base, meanDiff: NaN, lower: NaN, upper: NaN };
  const rand = randomMulberry32(options.seed);
  const draws: number[] = [];
  for (let s = 0; s < options.samples; s++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += d[Math.floor(rand() * n)]!;
    draws.push(sum / n);
  }
  draws.sort((a, b) => a - b);
  const alpha = (1 - options.level) / 2;
  return {
    ...base,
    meanDiff: mean(d),
    lower: calibrationPercentile(draws, alpha),
    upper: calibrationPercentile(draws, 1 - alpha),
  };
}

/** Compare run B with run A on the prompts both hold. */
export function compareRuns(
  a: readonly GroupHealth[],
  b: readonly GroupHealth[],
  options: CompareOptions = {},
): RunComparison {
  const metric = options.metric ?? "passRate";
  const summaryOptions = {
    seed: options.seed ?? 19,
    samples: options.samples ?? 2000,
    level: options.level ?? 0.95,
  };
  const sa = sides(a);
  const sb = sides(b);
  const shared: PromptComparison[] = [];
  for (const [prompt, x] of sa) {
    const y = sb.get(prompt);
    if (y === undefined) continue;
    shared.push({
      prompt,
      a: x,
      b: y,
      passDiff: y.passRate - x.passRate,
      rewardDiff: y.meanReward - x.meanReward,
    });
  }
  const key = (c: PromptComparison): number => (metric === "passRate" ? c.passDiff : c.rewardDiff);
  const byKey = (p: PromptComparison, q: PromptComparison): number =>
    key(p) - key(q) || (p.prompt < q.prompt ? -1 : p.prompt > q.prompt ? 1 : 0);
  return {
    shared,
    onlyA: sa.size - shared.length,
    onlyB: sb.size - shared.length,
    passRate: pairedSummary(
      shared.map((c) => c.passDiff),
      summaryOptions,
    ),
    meanReward: pairedSummary(
      shared.map((c) => c.rewardDiff),
      summaryOptions,
    ),
    metric,
    regressions: shared.filter((c) => key(c) < 0).sort(byKey),
    improvements: shared.filter((c) => key(c) > 0).sort((p, q) => byKey(q, p)),
  };
}
