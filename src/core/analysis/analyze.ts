/**
 * Every per-rollout statistic the studio shows, for one group or a whole dataset, under one set of
 * settings. The UI and the CLI both call this, so their numbers cannot disagree.
 */
import {
  GRPO_DEFAULTS,
  grpoAdvantages,
  grpoMultiRewardAdvantages,
  grpoRlooAdvantages,
  grpoWeightedSum,
  type AdvantageScale,
  type RewardAggregation,
} from "../advantage/grpo.ts";
import { GAR_DEFAULTS, type GarGroupOutcome, type GarStats } from "../advantage/gar.ts";
import { garFromHumanRanking } from "../advantage/garHuman.ts";
import { consistencyComplementarity, consistencySelf } from "../consistency/consistency.ts";
import { similarityCluster, type ClusterResult } from "../ngram/cluster.ts";
import { NGRAM_DEFAULTS } from "../ngram/ngrams.ts";
import type { SimilarityOn } from "../ngram/toolCalls.ts";
import {
  rankPlaces,
  rankTierMidpoints,
  rankTransformTies,
  type RankTies,
} from "../ranking/rank.ts";
import {
  rolloutTrainerAdvantage,
  type GroupId,
  type Rollout,
  type RolloutGroup,
  type RolloutId,
} from "../types.ts";
import { groupFlags } from "../util/passk.ts";
import { statsFinite, statsMean, statsStd, type StdKind } from "../util/stats.ts";
import { winRateFromPairs, winRatePairsFromScores, type TieCredit } from "../winrate/winRate.ts";
import type { HumanLabel } from "./annotations.ts";
import {
  DatasetTally,
  groupTallyInput,
  hasGarValues,
  type GroupTallyInput,
} from "./datasetTally.ts";
import type {
  AnnotationProblem,
  GarSource,
  ResolvedAnnotation,
  ResolvedAnnotations,
} from "./resolve.ts";
import {
  rolloutText,
  rolloutToolCalls,
  rolloutSimilarityInput,
  TEXT_CHARS_DEFAULT,
  textCutCount,
  type CompletionRule,
} from "./text.ts";

/** Every setting that changes a number. Defaults and their sources are in the README's table. */
export interface AnalysisSettings {
  readonly estimator: "grpo" | "rloo";
  readonly scale: AdvantageScale;
  readonly eps: number;
  readonly std: StdKind;
  readonly aggregation: RewardAggregation;
  /** Weights per reward component; null uses each rollout's given reward (or the unweighted sum). */
  readonly rewardWeights: Readonly<Record<string, number>> | null;
  readonly passThreshold: number;
  readonly cap: number;
  readonly minFactor: number;
  readonly hackZero: boolean;
  readonly ngram: number;
  readonly similarity: number;
  /** What the similarity (diversity clusters, "find similar") compares: text, tool calls or both. */
  readonly similarityOn: SimilarityOn;
  readonly tieCredit: TieCredit;
  /** Equal rewards in the in-group rank: index order (benchmax seed) or their mean position. */
  readonly rankTies: RankTies;
  readonly completionRule: CompletionRule;
  /**
   * "Text analysed per rollout": clusters, "find similar" and divergence read at most this many
   * characters of each text (`textBounded`); lengths are still the full ones.
   */
  readonly textChars: number;
}

export const ANALYSIS_DEFAULTS: AnalysisSettings = {
  estimator: "grpo",
  scale: GRPO_DEFAULTS.scale,
  eps: GRPO_DEFAULTS.eps,
  std: GRPO_DEFAULTS.std,
  aggregation: "sum_then_normalize",
  rewardWeights: null,
  passThreshold: GAR_DEFAULTS.passThreshold,
  cap: GAR_DEFAULTS.cap,
  minFactor: GAR_DEFAULTS.minFactor,
  hackZero: GAR_DEFAULTS.hackZero,
  ngram: NGRAM_DEFAULTS.n,
  similarity: NGRAM_DEFAULTS.threshold,
  similarityOn: "both",
  tieCredit: 0,
  rankTies: "average",
  completionRule: "final-assistant",
  textChars: TEXT_CHARS_DEFAULT,
};

export interface RolloutAnalysis {
  readonly id: RolloutId;
  /** The total reward under the settings; NaN when the rollout has none (unscorable). */
  readonly reward: number;
  readonly passed: boolean;
  /** The trainer's advantage under the settings (GRPO with the chosen scale, or RLOO). */
  readonly advantage: number;
  /** The advantage the trainer itself logged (TRL's `advantage` column), when the dump has one. */
  readonly trainerAdvantage: number | null;
  /**
   * The rank transform of the group's order under settings.rankTies, in [0, 1], 1 = best:
   * `(n - place) / (n - 1)`. The order is the reward's, or the ranking's (see `place`).
   */
  readonly rank: number;
  /**
   * The place in the group, 1 = best, equal ones sharing their mean place under "average" rank
   * ties. By reward; once GAR applies a ranking (the human's, or a judge run picked as the GAR
   * source), the ranked passes by their tiers first, then everything else below by reward (a
   * zeroed hack by its zeroed reward). `GroupAnalysis.rankSource` says which.
   */
  readonly place: number;
  /** Pairwise win rate over the same order as `place`: wins / (n - 1), a tie the tie credit. */
  readonly winRate: number;
  /** Diversity cluster index ("0", "1", ... ordered by smallest member) and its size. */
  readonly cluster: number;
  readonly clusterSize: number;
  readonly selfConsistency: number | null;
  readonly complementarity: number | null;
  readonly hack: boolean;
  readonly humanLabel: HumanLabel | null;
  /** The place in the human ranking alone (1 = best, a tier's members share its mean place), or null if unranked. */
  readonly humanRank: number | null;
  /** GAR values exist only for groups whose annotations resolve (see GroupAnalysis.gar). */
  readonly effectiveReward: number | null;
  readonly garReward: number | null;
  readonly garAdvantage: number | null;
  readonly factor: number | null;
  readonly toolCalls: number;
  /** Length of the compared text, in code units. */
  readonly textLength: number;
}

export type GarState =
  | { readonly kind: "none" }
  | { readonly kind: "applied"; readonly outcome: GarGroupOutcome }
  | { readonly kind: "incomplete"; readonly unranked: readonly RolloutId[] };

export interface GroupAnalysis {
  readonly id: GroupId;
  readonly n: number;
  readonly passes: number;
  readonly mixed: boolean;
  readonly zeroStd: boolean;
  readonly meanReward: number;
  /** Population std of the finite rewards. */
  readonly stdReward: number;
  readonly nClusters: number;
  /** Rollouts whose compared text is longer than `settings.textChars`, so cut for the clusters. */
  readonly textsCut: number;
  readonly rollouts: readonly RolloutAnalysis[];
  readonly gar: GarState;
  /** Who ranked the passes that GAR used (the human, a judge run, the heuristic); null without GAR. */
  readonly garSource: GarSource | null;
  /** What the places, rank transforms and win rates order by: the reward, or the GAR ranking's source. */
  readonly rankSource: "reward" | GarSource;
  readonly issues: readonly AnnotationProblem[];
}

export interface DatasetSummary {
  readonly rollouts: number;
  readonly groups: number;
  readonly passes: number;
  readonly mixedGroups: number;
  readonly zeroStdGroups: number;
  /** pass^k for k = 1..largest group, over groups with at least k rollouts. */
  readonly passAtK: Readonly<Record<string, number>>;
  readonly unscorable: number;
  readonly garGroups: number;
  readonly incompleteRankings: readonly GroupId[];
  /** Rollouts whose compared text is longer than `settings.textChars` (cut for the clusters). */
  readonly textsCut: number;
}

export interface DatasetAnalysis {
  readonly settings: AnalysisSettings;
  readonly summary: DatasetSummary;
  readonly groups: readonly GroupAnalysis[];
  readonly gar: GarStats;
  readonly issues: readonly AnnotationProblem[];
}

export { groupTallyInput, hasGarValues, type GroupTallyInput };

/**
 * A dataset's analysis with only its first groups' analyses: what a table of the first groups
 * needs (the CLI's text output shows 60), so a stream of 2 million groups need not keep them all.
 * The summary, GAR statistics and issues are the whole dataset's.
 */
export interface DatasetAnalysisHead extends Omit<DatasetAnalysis, "groups"> {
  /** The first groups' analyses, in the dataset's order (all of them when there are few). */
  readonly head: readonly GroupAnalysis[];
  /** Whether any group, in the head or not, has GAR advantage values. */
  readonly garValues: boolean;
}

/** The head of a whole analysis: its first `keep` groups. */
export function datasetAnalysisHead(analysis: DatasetAnalysis, keep: number): DatasetAnalysisHead {
  const { groups, ...rest } = analysis;
  return { ...rest, head: groups.slice(0, keep), garValues: groups.some(hasGarValues) };
}

/** The names of every reward component in the groups, in first-seen order. */
/** What a rollout's total reward and the trainer's advantages are computed from. */
export type RewardInputs = Pick<Rollout, "reward" | "rewards">;

/** A group as the advantages see it: its rollouts' rewards. */
export interface AdvantageGroup {
  readonly rollouts: readonly RewardInputs[];
}

export function rewardComponentNames(groups: Iterable<AdvantageGroup>): string[] {
  const names = new Set<string>();
  // for-in over own keys: Object.keys' names in its order, without an array per rollout (400k
  // rollouts when the settings mount with a 100k-group file).
  for (const g of groups)
    for (const r of g.rollouts)
      for (const k in r.rewards) if (Object.hasOwn(r.rewards, k)) names.add(k);
  return [...names];
}

/**
 * A rollout's total reward: with weights set, the weighted sum of its components (NaN ones skipped,
 * missing weights 1); otherwise its given reward, or the plain sum of its components when it has no
 * reward. NaN when nothing is usable.
 */
export function rolloutReward(
  rollout: RewardInputs,
  weights: Readonly<Record<string, number>> | null,
): number {
  const names = Object.keys(rollout.rewards);
  const components = (): number =>
    grpoWeightedSum(
      names.map((k) => rollout.rewards[k] ?? NaN),
      names.map((k) => weights?.[k] ?? 1),
    );
  if (weights !== null && names.length > 0) return components();
  if (rollout.reward !== null) return rollout.reward;
  return names.length > 0 ? components() : NaN;
}

/** Trainer advantages for every group, under the settings (batch scaling needs the whole dataset). */
export function analysisAdvantages(
  groups: readonly AdvantageGroup[],
  settings: AnalysisSettings,
): number[][] {
  const totals = groups.map((g) => g.rollouts.map((r) => rolloutReward(r, settings.rewardWeights)));
  if (settings.estimator === "rloo") return grpoRlooAdvantages(totals);
  const options = { scale: settings.scale, eps: settings.eps, std: settings.std };
  if (settings.aggregation === "normalize_then_sum") {
    const names = rewardComponentNames(groups);
    if (names.length > 0) {
      const matrix = groups.map((g) =>
        g.rollouts.map((r) => names.map((k) => r.rewards[k] ?? NaN)),
      );
      const weights = names.map((k) => settings.rewardWeights?.[k] ?? 1);
      return grpoMultiRewardAdvantages(matrix, "normalize_then_sum", options, weights);
    }
  }
  return grpoAdvantages(totals, options);
}

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

/** Analyse a whole dataset: every group, the summary, and GAR statistics over annotated groups. */
export function analyzeDataset(
  groups: readonly RolloutGroup[],
  settings: AnalysisSettings = ANALYSIS_DEFAULTS,
  annotations?: ResolvedAnnotations,
): DatasetAnalysis {
  const advantages = analysisAdvantages(groups, settings);
  const analysed = groups.map((g, gi) =>
    analyzeGroup(g, settings, advantages[gi]!, annotations?.byGroup.get(g.id)),
  );
  return datasetAnalysisOf(analysed, settings, annotations);
}

/**
 * Whether each group's trainer advantages follow from the group alone: every estimator and scale
 * but GRPO's batch std, and the summed total (normalize-then-sum takes the component names of the
 * whole dataset).
 */
export function advantagesAreGroupwise(
  settings: Pick<AnalysisSettings, "estimator" | "scale" | "aggregation">,
): boolean {
  return (
    settings.estimator === "rloo" ||
    (settings.scale !== "batch" && settings.aggregation === "sum_then_normalize")
  );
}

/**
 * {@link analyzeDataset} a group at a time, for a dataset too large to hold: `add` each group in
 * order (it may be dropped once added: only its analysis and, when advantages need the whole
 * dataset, its rewards are kept), then `finish`. The result equals `analyzeDataset` of the groups.
 */
export interface DatasetAnalysisStream {
  add(group: RolloutGroup): void;
  /** A group analysed elsewhere (a worker thread) by {@link analyzeGroupForStream}, in its turn. */
  addAnalysed(group: StreamedGroup): void;
  /** The whole analysis; throws if the stream was made to keep fewer groups than it was given. */
  finish(): DatasetAnalysis;
  /** The analysis with the first groups the stream keeps: equals `datasetAnalysisHead(finish())`. */
  finishHead(): DatasetAnalysisHead;
}

/**
 * One group as a stream is given it: its analysis (null when the stream will not keep it: a group
 * past its head), what the dataset's summary needs of it, and its rewards when advantages need
 * them all.
 */
export interface StreamedGroup {
  readonly analysis: GroupAnalysis | null;
  readonly tallied: GroupTallyInput;
  readonly rewards: AdvantageGroup | null;
}

/**
 * A group's part of {@link analyzeDatasetStream}, which may run in another thread: its analysis
 * (with its own advantages when they are groupwise, else none yet) and, when they are not, its
 * rewards for the stream's `finish`.
 */
export function analyzeGroupForStream(
  group: RolloutGroup,
  settings: AnalysisSettings,
  annotation: ResolvedAnnotation | undefined,
  keepAnalysis = true,
): StreamedGroup {
  const groupwise = advantagesAreGroupwise(settings);
  const own = groupwise ? (analysisAdvantages([group], settings)[0] ?? []) : [];
  const analysis = analyzeGroup(group, settings, own, annotation);
  return {
    analysis: keepAnalysis ? analysis : null,
    tallied: groupTallyInput(analysis),
    rewards: groupwise
      ? null
      : { rollouts: group.rollouts.map((r) => ({ reward: r.reward, rewards: r.rewards })) },
  };
}

/**
 * `keep`: how many groups' analyses the stream holds (the first ones); the rest are tallied into
 * the summary and dropped. Default: all.
 */
export function analyzeDatasetStream(
  settings: AnalysisSettings = ANALYSIS_DEFAULTS,
  annotations?: ResolvedAnnotations,
  keep: number = Infinity,
): DatasetAnalysisStream {
  const groupwise = advantagesAreGroupwise(settings);
  const tally = new DatasetTally(annotations);
  const analysed: GroupAnalysis[] = [];
  /** Batch-wide advantages: each group's rewards, for `finish`. */
  const rewards: AdvantageGroup[] = [];
  const addAnalysed = ({ analysis, tallied, rewards: own }: StreamedGroup): void => {
    if (analysed.length < keep) {
      if (analysis === null)
        throw new Error(
          `analyzeDatasetStream: group ${tallied.id} is kept but came without its analysis`,
        );
      analysed.push(analysis);
    }
    tally.add(tallied);
    if (!groupwise) rewards.push(own ?? { rollouts: [] });
  };
  /** The kept groups, with their batch-wide advantages when those need the whole dataset. */
  const kept = (): readonly GroupAnalysis[] => {
    if (groupwise) return analysed;
    const advantages = analysisAdvantages(rewards, settings);
    return analysed.map((g, gi) => ({
      ...g,
      rollouts: g.rollouts.map((r, i) => ({ ...r, advantage: advantages[gi]![i] ?? 0 })),
    }));
  };
  return {
    add(group) {
      const annotation = annotations?.byGroup.get(group.id);
      addAnalysed(analyzeGroupForStream(group, settings, annotation, analysed.length < keep));
    },
    addAnalysed,
    finish() {
      if (analysed.length < tally.groups)
        throw new Error(
          `analyzeDatasetStream: kept ${analysed.length} of ${tally.groups} groups; use finishHead`,
        );
      return tally.analysis(settings, kept());
    },
    finishHead() {
      const { groups, ...rest } = tally.analysis(settings, kept());
      return { ...rest, head: groups, garValues: tally.garValues };
    },
  };
}

/** The dataset's summary and GAR statistics over its analysed groups. */
function datasetAnalysisOf(
  analysed: readonly GroupAnalysis[],
  settings: AnalysisSettings,
  annotations: ResolvedAnnotations | undefined,
): DatasetAnalysis {
  const tally = new DatasetTally(annotations);
  for (const a of analysed) tally.add(groupTallyInput(a));
  return tally.analysis(settings, analysed);
}
