/**
 * The settings every analysed number depends on (AnalysisSettings), and their defaults.
 */
import type { AdvantageScale, RewardAggregation } from "../advantage/grpo.ts";
import { ANALYSIS_SETTING_SCHEMA } from "../settings/analysisSchema.ts";
import { settingDefaults } from "../settings/settingDecl.ts";
import type { SimilarityOn } from "../ngram/toolCalls.ts";
import type { RankTies } from "../ranking/rank.ts";
import type { StdKind } from "../util/stats.ts";
import type { TieCredit } from "../winrate/winRate.ts";
import type { CompletionRule } from "./text.ts";

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

/** Every setting's default: the settings schema's (core/settings/analysisSchema.ts), weights off. */
export const ANALYSIS_DEFAULTS: AnalysisSettings = {
  ...settingDefaults(ANALYSIS_SETTING_SCHEMA),
  rewardWeights: null,
};
