/**
 * analyzeGroup: every statistic of one group under the settings (rewards, places, win rates,
 * clusters, consistency, and GAR when the group's annotations resolve).
 */
import { garFromHumanRanking } from "../advantage/garHuman.ts";
import { consistencyComplementarity, consistencySelf } from "../consistency/consistency.ts";
import { similarityCluster, type ClusterResult } from "../ngram/cluster.ts";
import { rankPlaces, rankTierMidpoints, rankTransformTies } from "../ranking/rank.ts";
import { rolloutTrainerAdvantage, type RolloutGroup } from "../types.ts";
import { groupFlags } from "../util/passk.ts";
import { statsFinite, statsMean, statsStd } from "../util/stats.ts";
import { winRateFromPairs, winRatePairsFromScores } from "../winrate/winRate.ts";
import { rolloutReward } from "./advantages.ts";
import type { GarState, GroupAnalysis } from "./analysisResult.ts";
import type { AnalysisSettings } from "./analysisSettings.ts";
import type { AnnotationProblem, ResolvedAnnotation } from "./resolve.ts";
import { rolloutText, rolloutSimilarityInput, rolloutToolCalls, textCutCount } from "./text.ts";

/**
 * All statistics of one group.
 *
 * @param advantages this group's entry of {@link analysisAdvantages}
 * @param annotation the group's resolved human annotations, if any
 * @param clusters the group's n-gram clusters under these settings, when already computed (the
 *   studio computes them in a worker); computed here when absent or of the wrong size
 */
export function analyzeGroup(
  group: RolloutGroup,
  settings: AnalysisSettings,
  advantages: readonly number[],
  annotation?: ResolvedAnnotation,
  clusters?: ClusterResult,
): GroupAnalysis {
  const n = group.rollouts.length;
  const rewards = group.rollouts.map((r) => rolloutReward(r, settings.rewardWeights));
  const passed = rewards.map((r) => r >= settings.passThreshold);
  const flags = groupFlags(rewards, passed);
  const texts = group.rollouts.map((r) => rolloutText(r, settings.completionRule));
  const cluster =
    clusters !== undefined && clusters.clusterIndex.length === n
      ? clusters
      : similarityCluster(
          group.rollouts.map((r) =>
            rolloutSimilarityInput(r, settings.completionRule, settings.textChars),
          ),
          { n: settings.ngram, threshold: settings.similarity, on: settings.similarityOn },
        );
  const answers = group.rollouts.map((r) => r.answer);
  const selfConsistency = answers.some((a) => a !== null) ? consistencySelf(answers) : null;
  const tests = group.rollouts.map((r) => r.testsPassed);
  const complementarity = tests.some((t) => t !== null) ? consistencyComplementarity(tests) : null;

  const issues: AnnotationProblem[] = [];
  let gar: GarState = { kind: "none" };
  let garOutput: number[] | null = null;
  let effective: number[] | null = null;
  let factors: ReadonlyMap<number, number> = new Map();
  const hackSet = new Set(annotation?.hacks ?? []);
  const hasGar =
    annotation !== undefined && (annotation.ranking.length > 0 || annotation.hacks.length > 0);
  if (hasGar) {
    // An unscorable reward is not a pass and cannot be redistributed: treat it as 0 for GAR.
    const garRewards = rewards.map((r) => (Number.isNaN(r) ? 0 : r));
    const result = garFromHumanRanking(garRewards, annotation, settings);
    for (const i of result.ignoredFailures) {
      issues.push({
        groupId: group.id,
        rolloutId: group.rollouts[i]!.id,
        message: `rollout "${group.rollouts[i]!.id}" is ranked but fails (reward ${rewards[i]}); ignored in the ranking`,
      });
    }
    if (result.kind === "incomplete") {
      const unranked = result.unranked.map((i) => group.rollouts[i]!.id);
      gar = { kind: "incomplete", unranked };
      issues.push({
        groupId: group.id,
        message: `the ranking leaves out ${unranked.length} pass(es) that still count (${unranked.join(", ")}); no GAR values for this group`,
      });
    } else {
      const o = result.outcome;
      gar = { kind: "applied", outcome: o };
      garOutput = o.output;
      effective = o.effective;
      factors = o.factors;
    }
  }
  const effectiveMean = effective === null ? NaN : statsMean(effective);
  const source = annotation?.source ?? "human";
  // The order of place, rank and win rate: the ranked passes by factor (tier) above the rest by
  // their (effective) reward once a ranking applies; the reward otherwise.
  const ranked =
    gar.kind === "applied" && factors.size > 0 && (annotation?.ranking.length ?? 0) > 0;
  let order: readonly number[] = rewards;
  if (ranked && effective !== null) {
    // An unscorable reward counted 0 for GAR; in the order it stays last.
    const base = effective.map((r, i) => (Number.isNaN(rewards[i]!) ? NaN : r));
    const top = Math.max(0, ...statsFinite(base)) + 1;
    order = base.map((r, i) => {
      const f = factors.get(i);
      return f === undefined ? r : top + f;
    });
  }
  const ranks = rankTransformTies(order, settings.rankTies);
  const places = rankPlaces(order, settings.rankTies);
  const winRates = winRateFromPairs(n, winRatePairsFromScores(order), settings.tieCredit);
  // A judge's tiers are not a human rank: the human rank column stays empty for them.
  const humanRanks =
    annotation && source === "human"
      ? rankTierMidpoints(annotation.ranking, n).map((m) => (m === null ? null : m + 1))
      : new Array<number | null>(n).fill(null);
  const finite = statsFinite(rewards);
  return {
    id: group.id,
    n,
    passes: flags.passes,
    mixed: flags.mixed,
    zeroStd: flags.zeroStd,
    meanReward: statsMean(finite),
    stdReward: finite.length === 0 ? NaN : statsStd(finite, "population"),
    nClusters: cluster.nClusters,
    textsCut: textCutCount(texts, settings.textChars),
    gar,
    garSource: hasGar ? source : null,
    rankSource: ranked ? source : "reward",
    issues,
    rollouts: group.rollouts.map((r, i) => ({
      id: r.id,
      reward: rewards[i]!,
      passed: passed[i]!,
      advantage: advantages[i] ?? 0,
      trainerAdvantage: rolloutTrainerAdvantage(r),
      rank: ranks[i]!,
      place: places[i]!,
      winRate: winRates[i]!,
      cluster: cluster.clusterIndex[i]!,
      clusterSize: cluster.divisors[i]!,
      selfConsistency: selfConsistency?.[i] ?? null,
      complementarity: complementarity?.[i] ?? null,
      hack: hackSet.has(i),
      humanLabel: annotation?.labels[i] ?? null,
      humanRank: humanRanks[i] ?? null,
      effectiveReward: effective?.[i] ?? null,
      garReward: garOutput?.[i] ?? null,
      garAdvantage: garOutput === null ? null : garOutput[i]! - effectiveMean,
      factor: factors.get(i) ?? null,
      toolCalls: rolloutToolCalls(r),
      textLength: texts[i]!.length,
    })),
  };
}
