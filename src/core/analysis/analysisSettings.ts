/**
 * The settings every analysed number depends on (AnalysisSettings), and their defaults.
 */
import { GRPO_DEFAULTS, type AdvantageScale, type RewardAggregation } from "../advantage/grpo.ts";
import { GAR_DEFAULTS } from "../advantage/gar.ts";
import { NGRAM_DEFAULTS } from "../ngram/ngrams.ts";
import type { SimilarityOn } from "../ngram/toolCalls.ts";
import type { RankTies } from "../ranking/rank.ts";
import type { StdKind } from "../util/stats.ts";
import type { TieCredit } from "../winrate/winRate.ts";
import { TEXT_CHARS_DEFAULT, type CompletionRule } from "./text.ts";

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
