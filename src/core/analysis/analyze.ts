/**
 * Every per-rollout statistic the studio shows, for one group or a whole dataset, under one set of
 * settings. The UI and the CLI both call this, so their numbers cannot disagree. The parts live
 * beside it (settings, results, advantages, one group, the stream); this module composes them and
 * keeps every name importable from here.
 */
import type { RolloutGroup } from "../types.ts";
import type { DatasetAnalysis, GroupAnalysis } from "./analysisResult.ts";
import { ANALYSIS_DEFAULTS, type AnalysisSettings } from "./analysisSettings.ts";
import { analysisAdvantages } from "./advantages.ts";
import { analyzeGroup } from "./analyzeGroup.ts";
import {
  DatasetTally,
  groupTallyInput,
  hasGarValues,
  type GroupTallyInput,
} from "./datasetTally.ts";
import type { ResolvedAnnotations } from "./resolve.ts";

export { ANALYSIS_DEFAULTS, type AnalysisSettings } from "./analysisSettings.ts";
export {
  datasetAnalysisHead,
  type DatasetAnalysis,
  type DatasetAnalysisHead,
  type DatasetSummary,
  type GarState,
  type GroupAnalysis,
  type RolloutAnalysis,
} from "./analysisResult.ts";
export {
  advantagesAreGroupwise,
  analysisAdvantages,
  rewardComponentNames,
  rolloutReward,
  type AdvantageGroup,
  type RewardInputs,
} from "./advantages.ts";
export { analyzeGroup } from "./analyzeGroup.ts";
export {
  analyzeDatasetStream,
  analyzeGroupForStream,
  type DatasetAnalysisStream,
  type StreamedGroup,
} from "./analyzeStream.ts";
export { groupTallyInput, hasGarValues, type GroupTallyInput };

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
