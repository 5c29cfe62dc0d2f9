/**
 * The one public surface of src/core: pure, deterministic group math. io/, workers/, store/, ui/
 * and cli/ import from here; files inside core import each other directly.
 */
export * from "./types.ts";
export * from "./util/stats.ts";
export * from "./util/random.ts";
export * from "./util/passk.ts";
export * from "./util/batch.ts";
export * from "./advantage/grpo.ts";
export * from "./advantage/gar.ts";
export * from "./advantage/garHuman.ts";
export * from "./advantage/grs.ts";
export * from "./advantage/spread.ts";
export * from "./ranking/rank.ts";
export * from "./winrate/winRate.ts";
export * from "./winrate/bradleyTerry.ts";
export * from "./arena/arena.ts";
export * from "./consistency/consistency.ts";
export * from "./ngram/ngrams.ts";
export * from "./ngram/similarity.ts";
export * from "./ngram/cluster.ts";
export * from "./ngram/llmClusters.ts";
export * from "./calibration/agreement.ts";
export * from "./calibration/splits.ts";
export * from "./calibration/state.ts";
export * from "./calibration/sources.ts";
export * from "./calibration/human.ts";
export * from "./calibration/bootstrap.ts";
export * from "./calibration/rankAgreement.ts";
export * from "./calibration/seal.ts";
export * from "./calibration/report.ts";
export * from "./calibration/formulas.ts";
export * from "./analysis/text.ts";
export * from "./analysis/annotations.ts";
export * from "./analysis/resolve.ts";
export * from "./analysis/analyze.ts";
export * from "./analysis/formulas.ts";
export * from "./analysis/interAnnotator.ts";
export * from "./analysis/pairwise.ts";
export * from "./analysis/rankingEdit.ts";
export * from "./analysis/reviewQueue.ts";
export * from "./analysis/divergence.ts";
export * from "./analysis/overview.ts";
export * from "./judge/types.ts";
export * from "./judge/reply.ts";
export { parseJudgeReply } from "./judge/parse.ts";
export * from "./judge/template.ts";
export * from "./judge/accounting.ts";
export * from "./judge/group.ts";
export * from "./judge/pairwise.ts";
export * from "./judge/rubric.ts";
export * from "./judge/clusterer.ts";
export * from "./judge/heuristic.ts";
export * from "./judge/runs.ts";
export * from "./judge/rubricBook.ts";
export * from "./judge/rubricDraft.ts";
// The verifiers (reward functions, with a JSON-schema validator) have their own entry point,
// ./verifiers/index.ts: re-exported here, the bundler would put them in the first page's chunk.
