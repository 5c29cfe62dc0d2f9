/**
 * What an analysis gives: each rollout's and group's statistics, the dataset's summary, and the
 * head of a dataset's analysis (its first groups only).
 */
import type { GarGroupOutcome, GarStats } from "../advantage/gar.ts";
import type { GroupId, RolloutId } from "../types.ts";
import type { AnalysisSettings } from "./analysisSettings.ts";
import type { HumanLabel } from "./annotations.ts";
import { hasGarValues } from "./datasetTally.ts";
import type { AnnotationProblem, GarSource } from "./resolve.ts";

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
