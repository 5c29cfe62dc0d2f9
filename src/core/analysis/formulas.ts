/**
 * How every per-rollout number is computed under a set of settings, in words: the studio's
 * tooltips and the CLI's help say the same thing, and it changes with the settings.
 */
import type { AnalysisSettings } from "./analysisSettings.ts";

export interface MetricFormulas {
  readonly reward: string;
  readonly passed: string;
  readonly advantage: string;
  readonly gar: string;
  readonly factor: string;
  readonly rank: string;
  readonly winRate: string;
  readonly cluster: string;
  readonly selfConsistency: string;
  readonly complementarity: string;
  readonly length: string;
  readonly toolCalls: string;
  readonly humanRank: string;
}

const RULES: Record<AnalysisSettings["completionRule"], string> = {
  "final-assistant": "the final assistant message",
  benchmax: "the last assistant message with text (benchmax)",
  "all-assistant": "all assistant text, joined",
};

/** What the similarity compares, as the cluster tooltip and the setting's tooltip say it. */
export const SIMILARITY_ON_TEXT: Record<
  AnalysisSettings["similarityOn"],
  (n: number | "n") => string
> = {
  text: (n) => `Jaccard of the texts' character ${n}-grams (lower-cased, trimmed)`,
  tools: (n) =>
    `Jaccard of the tool-call sequences' ${n}-grams (a call is its name and its arguments, values renamed $1, $2, ... by first appearance)`,
  both: (n) =>
    `(J_text + J_tools) / 2, the mean of the Jaccards of the texts' character ${n}-grams and of the tool-call sequences' ${n}-grams (a call is its name and its arguments, values renamed $1, $2, ... by first appearance); J_text alone when neither rollout made a tool call`,
};

export function metricFormulas(settings: AnalysisSettings): MetricFormulas {
  const std = settings.std === "sample" ? "sample std (n-1)" : "population std (n)";
  const advantage =
    settings.estimator === "rloo"
      ? "RLOO: R - mean of the other rollouts' rewards (no std scaling)"
      : settings.scale === "none"
        ? "GRPO, scale none (Dr. GRPO): A = R - mean(R of the group)"
        : `GRPO, scale ${settings.scale}: A = (R - mean of the group) / (${settings.scale === "batch" ? "batch" : "group"} ${std} + ${settings.eps})`;
  const weights =
    settings.rewardWeights === null
      ? "the logged reward (or the plain sum of its components)"
      : `the weighted sum of the components (${Object.entries(settings.rewardWeights)
          .map(([k, w]) => `${k} x ${w}`)
          .join(", ")}; missing weights 1, NaN components skipped)`;
  return {
    reward: `R: ${weights}; aggregation ${settings.aggregation}`,
    passed: `pass when R >= ${settings.passThreshold}`,
    advantage,
    gar: `GAR (equation 3): A' = lambda * f * A on passes (reward >= ${settings.passThreshold}), lambda = min(sum A / sum f A, ${settings.cap}), f from the ranking (worst ${settings.minFactor}), re-centred; hacks ${settings.hackZero ? "zeroed first" : "kept"}`,
    factor: `f = 1 - (1 - ${settings.minFactor}) * tier mean rank / (n - 1) over the ranked passes: 1 for the best tier, ${settings.minFactor} for the worst`,
    rank: `Place in the group, 1 = best (the one convention of every rank shown): by reward, or once the passes are ranked by the ranking's tiers over the passes, then the rest below by reward; ${settings.rankTies === "average" ? "equal ones share their mean place" : "equal ones in index order (the later index first)"}. In brackets the normalised rank transform (n - place) / (n - 1), also 1 = best (methods.md 1.7)`,
    winRate: `Pairwise win-rate over the same order as the place: wins / (n - 1); a tie counts ${settings.tieCredit}`,
    cluster: `Single-linkage clusters linked when the similarity >= ${settings.similarity}: ${SIMILARITY_ON_TEXT[settings.similarityOn](settings.ngram)}; text: ${RULES[settings.completionRule]}`,
    selfConsistency:
      "Majority answer count / n for rollouts that give the majority answer (first seen wins ties), else 0",
    complementarity:
      "(sum over the tests it passes of 1 / rollouts passing that test) / n: rare passes count more",
    length: `Characters of ${RULES[settings.completionRule]}`,
    toolCalls: "Tool calls in the rollout's messages",
    humanRank: "Place in the human ranking alone, 1 = best; a tier's members share its mean place",
  };
}
