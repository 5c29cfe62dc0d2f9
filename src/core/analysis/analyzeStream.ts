/**
 * analyzeDatasetStream: a dataset's analysis a group at a time, for a dataset too large to hold,
 * and a group's part of it (analyzeGroupForStream), which may run in another thread.
 */
import type { RolloutGroup } from "../types.ts";
import { advantagesAreGroupwise, analysisAdvantages, type AdvantageGroup } from "./advantages.ts";
import type { DatasetAnalysis, DatasetAnalysisHead, GroupAnalysis } from "./analysisResult.ts";
import { ANALYSIS_DEFAULTS, type AnalysisSettings } from "./analysisSettings.ts";
import { analyzeGroup } from "./analyzeGroup.ts";
import { DatasetTally, groupTallyInput, type GroupTallyInput } from "./datasetTally.ts";
import type { ResolvedAnnotation, ResolvedAnnotations } from "./resolve.ts";

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
