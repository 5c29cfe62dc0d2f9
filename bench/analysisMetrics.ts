/**
 * The analysis metrics of `npm run bench`: exact against naive n-gram clustering (also right after a
 * full GC), and a 64-rollout group's statistics and re-ranking against a plain GRPO loop.
 */
import {
  ANALYSIS_DEFAULTS,
  analysisAdvantages,
  analyzeGroup,
  garFromHumanRanking,
  ngramCluster,
  rankTierMidpoints,
  winRateFromPairs,
  winRatePairsFromTiers,
  type ClusterResult,
  type GarHumanResult,
  type Rollout,
} from "../src/core/index.ts";
import { fingerprint, generateAnnotatedGroup } from "./generate.ts";
import { check, emit, forceGc, median, type PairOptions, round, sink, timePair } from "./timing.ts";

function sameArray<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameClusters(a: ClusterResult, b: ClusterResult): boolean {
  return (
    a.nClusters === b.nClusters &&
    sameArray(a.clusterIds, b.clusterIds) &&
    sameArray(a.clusterIndex, b.clusterIndex) &&
    sameArray(a.divisors, b.divisors) &&
    sameArray(a.labels, b.labels)
  );
}

const CLUSTER_TIMING: PairOptions = { warmup: 1, runs: 9, minRunMs: 0 };
const GROUP_TIMING: PairOptions = { warmup: 3, runs: 15, minRunMs: 25 };

/** Exact vs naive n-gram clustering of one group; checks the matrices are identical, entry by entry. */
export function benchCluster(metric: string, texts: readonly string[], n: number): void {
  console.error(`${metric}: ${texts.length} texts, n=${n}`);
  const config = { n, threshold: 0.5 };
  const exact = ngramCluster(texts, config, "exact");
  const naive = ngramCluster(texts, config, "naive");
  const k = texts.length;
  let mismatches = 0;
  let first = -1;
  for (let i = 0; i < k * k; i++) {
    if (exact.similarity[i] !== naive.similarity[i]) {
      mismatches++;
      if (first < 0) first = i;
    }
  }
  check(
    exact.similarity.length === k * k && naive.similarity.length === k * k && mismatches === 0,
    `${metric}: ${mismatches} similarity entries differ from naive` +
      (first < 0
        ? ""
        : ` (first [${Math.floor(first / k)}][${first % k}]: ${exact.similarity[first]} vs ${naive.similarity[first]})`),
  );
  check(sameClusters(exact, naive), `${metric}: clusters differ from naive`);
  let lo = 1;
  let hi = 0;
  for (let i = 0; i < k; i++)
    for (let j = i + 1; j < k; j++) {
      lo = Math.min(lo, exact.similarity[i * k + j]!);
      hi = Math.max(hi, exact.similarity[i * k + j]!);
    }
  const t = timePair(
    () => ngramCluster(texts, config, "exact").nClusters,
    () => ngramCluster(texts, config, "naive").nClusters,
    CLUSTER_TIMING,
  );
  emit(
    metric,
    t,
    fingerprint(texts),
    `exact vs naive; ${exact.nClusters} clusters, Jaccard ${lo.toFixed(2)}-${hi.toFixed(2)}`,
  );
}

/** performance.md section 6's baseline: mean, sample std and (r - mean) / (std + 1e-4) over objects. */
function plainGrpo(rollouts: readonly Rollout[], out: number[]): number {
  let sum = 0;
  for (const r of rollouts) sum += r.reward!;
  const mean = sum / rollouts.length;
  let ss = 0;
  for (const r of rollouts) ss += (r.reward! - mean) * (r.reward! - mean);
  const std = Math.sqrt(ss / (rollouts.length - 1));
  for (let i = 0; i < rollouts.length; i++) out[i] = (rollouts[i]!.reward! - mean) / (std + 1e-4);
  return out[0]!;
}

export function benchGroup(): void {
  const k = 64;
  const { group, rewards, annotation } = generateAnnotatedGroup(k, 2000, 64064);
  const data = fingerprint(group.rollouts.map((r) => r.completion ?? ""));
  const settings = ANALYSIS_DEFAULTS;
  const passes = rewards.filter((r) => r === 1).length;
  console.error(`group.stats.${k}: ${passes} passes of ${k}, ${annotation.ranking.length} tiers`);
  const baselineAdvantages = new Array<number>(k).fill(0);

  // Correctness: the analysis agrees with the baseline and GAR ran.
  const analysis = analyzeGroup(
    group,
    settings,
    analysisAdvantages([group], settings)[0]!,
    annotation,
  );
  plainGrpo(group.rollouts, baselineAdvantages);
  check(analysis.n === k && analysis.mixed, "group.stats: group is not a mixed group of 64");
  check(analysis.gar.kind === "applied", `group.stats: GAR not applied (${analysis.gar.kind})`);
  check(analysis.issues.length === 0, `group.stats: ${analysis.issues.length} annotation issues`);
  check(
    analysis.rollouts.every((r, i) => Math.abs(r.advantage - baselineAdvantages[i]!) <= 1e-12),
    "group.stats: advantages differ from the plain GRPO loop",
  );
  check(
    analysis.rollouts.filter((r) => r.hack).length === 1,
    "group.stats: expected exactly one hack",
  );

  emit(
    `group.stats.${k}`,
    timePair(
      () => {
        const advantages = analysisAdvantages([group], settings)[0]!;
        return analyzeGroup(group, settings, advantages, annotation).nClusters;
      },
      () => plainGrpo(group.rollouts, baselineAdvantages),
      GROUP_TIMING,
    ),
    data,
    `analyzeGroup + analysisAdvantages (n-gram n=${settings.ngram}, GAR, win rates) vs plain GRPO over objects`,
  );

  // Re-rank: swap two ranked passes in different tiers, then recompute what depends on the ranking.
  const a = annotation.ranking[0]![0]!;
  const b = annotation.ranking[annotation.ranking.length - 2]![0]!;
  const swap = (tiers: readonly (readonly number[])[]): number[][] =>
    tiers.map((tier) => tier.map((i) => (i === a ? b : i === b ? a : i)));
  const rerank = (
    tiers: readonly (readonly number[])[],
  ): { gar: GarHumanResult; mid: (number | null)[]; win: number[] } => ({
    gar: garFromHumanRanking(rewards, { ranking: tiers, hacks: annotation.hacks }, settings),
    mid: rankTierMidpoints(tiers, k),
    win: winRateFromPairs(k, winRatePairsFromTiers(tiers, k), settings.tieCredit),
  });
  const before = rerank(annotation.ranking);
  const after = rerank(swap(annotation.ranking));
  const factors = (r: GarHumanResult): ReadonlyMap<number, number> =>
    r.kind === "applied" ? r.outcome.factors : new Map<number, number>();
  check(
    before.gar.kind === "applied" && after.gar.kind === "applied",
    "group.rerank: GAR not applied",
  );
  check(
    after.mid[a] === before.mid[b] && after.mid[b] === before.mid[a] && before.mid[a] !== null,
    "group.rerank: tier midpoints of the swapped pair did not exchange",
  );
  check(
    factors(after.gar).get(a) === factors(before.gar).get(b) &&
      factors(after.gar).get(b) === factors(before.gar).get(a) &&
      factors(before.gar).get(a) !== factors(before.gar).get(b),
    "group.rerank: GAR factors of the swapped pair did not exchange",
  );
  check(
    after.win[a] === before.win[b] && after.win[b] === before.win[a],
    "group.rerank: win rates of the swapped pair did not exchange",
  );

  let tiers: readonly (readonly number[])[] = annotation.ranking;
  emit(
    `group.rerank.${k}`,
    timePair(
      () => {
        tiers = swap(tiers);
        const r = rerank(tiers);
        return r.win[a]! + (r.mid[b] ?? 0);
      },
      () => plainGrpo(group.rollouts, baselineAdvantages),
      GROUP_TIMING,
    ),
    data,
    "swap two passes, garFromHumanRanking + rankTierMidpoints + winRateFromPairs(winRatePairsFromTiers) vs plain GRPO over objects",
  );
}

/**
 * Clustering right after a full GC, as in a worker whose heap is churning: one call per run, each
 * preceded by an untimed gc(). Tracks a known cost (bench/README.md): a full GC deoptimises the
 * exact path's hot code, so the first call after it runs unoptimised.
 */
export function benchClusterAfterGc(metric: string, texts: readonly string[], n: number): void {
  if (forceGc === null) {
    console.error(`${metric}: skipped, gc() unavailable`);
    return;
  }
  const gc = forceGc;
  console.error(`${metric}: ${texts.length} texts, n=${n}, gc() before every call`);
  const config = { n, threshold: 0.5 };
  check(
    sameClusters(ngramCluster(texts, config, "exact"), ngramCluster(texts, config, "naive")),
    `${metric}: clusters differ from naive`,
  );
  const exact = (): number => ngramCluster(texts, config, "exact").nClusters;
  const naive = (): number => ngramCluster(texts, config, "naive").nClusters;
  const warm = timePair(exact, naive, { warmup: 2, runs: 9, minRunMs: 25 });
  const afterGc = (fn: () => number, out: number[]): void => {
    gc();
    const start = performance.now();
    sink.total += fn();
    out.push(performance.now() - start);
  };
  const runs = 15;
  const s: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < runs; r++) {
    if (r % 2 === 0) {
      afterGc(exact, s);
      afterGc(naive, b);
    } else {
      afterGc(naive, b);
      afterGc(exact, s);
    }
  }
  emit(
    metric,
    { value: median(s), baseline: median(b), runs, reps: [1, 1] },
    fingerprint(texts),
    `exact vs naive, each call right after a full gc() (not timed); warm, the same calls take ${round(warm.value)} vs ${round(warm.baseline)} ms`,
  );
}
