/**
 * Domain hooks: atomic store selections plus memoised core computations. Derived numbers are
 * computed here from the loaded data, the settings and the annotations, never stored.
 */
import { useEffect, useMemo } from "react";
import {
  analysisAdvantages,
  ANNOTATIONS_EMPTY,
  analyzeGroup,
  annotationsResolve,
  clusterComponents,
  garAnnotationWithJudge,
  GROUP_ANNOTATION_EMPTY,
  grpoAdvantages,
  grpoRlooAdvantages,
  type AnalysisSettings,
  type GarRankingSource,
  type GroupAnnotation,
  type GroupAnalysis,
  type JudgeRun,
  type RolloutGroup,
  garSourceRunFor,
} from "../core/index.ts";
import type { LoadedDataset } from "../io/dataset.ts";
import type { ParseIssue } from "../io/issues.ts";
import type { ClusterOutput } from "../workers/computeProtocol.ts";
import { useStore } from "./index.ts";
import { clusterEntry } from "./slices/clusterSlice.ts";
import type { LoadState } from "./slices/datasetSlice.ts";
import { selectViewLoad } from "./slices/verifierSlice.ts";
import { selectJudgeShown } from "./team/teamSelectors.ts";

/**
 * The load as views show it: the file's rollouts, with the applied verifiers' components where a
 * spec is in force (slices/verifierSlice.ts). Every view reads the data through this, never `load`.
 */
export function useViewLoad(): LoadState {
  return useStore(selectViewLoad);
}

/** The loaded dataset as views show it, or null while nothing is loaded. */
export function useDataset(): LoadedDataset | null {
  return useStore((s) => {
    const load = selectViewLoad(s);
    return load.status === "ready" ? load.dataset : null;
  });
}

/** The parsed groups by id as views show them, or null while nothing is loaded. */
export function useLoadedGroups(): ReadonlyMap<string, RolloutGroup> | null {
  return useStore((s) => {
    const load = selectViewLoad(s);
    return load.status === "ready" ? load.groups : null;
  });
}

/** Every issue, including those found while parsing groups on demand. */
export function useIssues(): readonly ParseIssue[] {
  return useStore((s) => (s.load.status === "ready" ? s.load.dataset.issues : EMPTY));
}

const EMPTY: readonly ParseIssue[] = [];

/** The analysis settings the user chose (persisted). */
export function useSettings(): AnalysisSettings {
  return useStore((s) => s.settings);
}

/**
 * Whether a group's advantages depend on the other groups (batch std scaling of GRPO), so that the
 * dataset-wide advantages (`useAdvantages`) are needed; otherwise each group's are its own.
 */
export function usesDatasetAdvantages(
  settings: Pick<AnalysisSettings, "estimator" | "scale">,
): boolean {
  return settings.estimator !== "rloo" && settings.scale === "batch";
}

/**
 * Trainer advantages of every group (batch scaling needs them all). A whole-file load uses every
 * rollout under the settings (weights and aggregation included). An indexed file has only each
 * group's logged reward until the group is parsed, so its batch statistics use those.
 *
 * @param needed false skips the computation (null): for 100k groups it is tens of ms, wasted where
 *   the caller has no use for them (`usesDatasetAdvantages`)
 */
export function useAdvantages(needed = true): readonly number[][] | null {
  const dataset = useDataset();
  const settings = useSettings();
  return useMemo(
    () => (dataset === null || !needed ? null : datasetAdvantages(dataset, settings)),
    [dataset, settings, needed],
  );
}

/** Every group's trainer advantages, in summary order (see `useAdvantages`). */
export function datasetAdvantages(
  dataset: LoadedDataset,
  settings: AnalysisSettings,
): readonly number[][] {
  if (!dataset.indexed) return analysisAdvantages(dataset.groups, settings);
  const rewards = dataset.summaries.map((s) => s.rewards);
  return settings.estimator === "rloo"
    ? grpoRlooAdvantages(rewards)
    : grpoAdvantages(rewards, { scale: settings.scale, eps: settings.eps, std: settings.std });
}

/** One group's annotation (the empty one when it has none). */
export function useGroupAnnotation(groupId: string | null): GroupAnnotation {
  return useStore((s) =>
    groupId === null
      ? GROUP_ANNOTATION_EMPTY
      : (s.annotations.groups[groupId] ?? GROUP_ANNOTATION_EMPTY),
  );
}

export type ClusterState =
  | { readonly status: "pending" }
  | { readonly status: "done"; readonly result: ClusterOutput }
  | { readonly status: "error"; readonly message: string };

/** A group's n-gram clusters under the settings, computed in the worker and cached. */
export function useGroupClusters(group: RolloutGroup | null): ClusterState {
  const settings = useSettings();
  const version = useStore((s) => s.clusterVersion);
  const requestClusters = useStore((s) => s.requestClusters);
  const { ngram, similarity, completionRule, similarityOn, textChars } = settings;
  // The worker is an external system: ask it once per group and setting (cached after that).
  useEffect(() => {
    if (group !== null)
      requestClusters(group, { ngram, similarity, completionRule, similarityOn, textChars });
  }, [group, ngram, similarity, completionRule, similarityOn, textChars, requestClusters]);
  return useMemo((): ClusterState => {
    void version; // re-read the cache when a result arrives
    if (group === null) return { status: "pending" };
    return (
      clusterEntry(group, { ngram, similarity, completionRule, similarityOn, textChars }) ?? {
        status: "pending",
      }
    );
  }, [group, ngram, similarity, completionRule, similarityOn, textChars, version]);
}

export interface GroupView {
  readonly group: RolloutGroup;
  readonly analysis: GroupAnalysis;
  readonly annotation: GroupAnnotation;
  /** The worker's clusters; while pending, `analysis` shows every rollout as its own cluster. */
  readonly clusters: ClusterState;
}

/**
 * The advantages a group's analysis starts from. With group or no std scaling they come from the
 * parsed group itself; batch scaling takes the dataset-wide ones. They do not depend on the
 * group's annotation, so an annotation change reuses them.
 */
export function groupAdvantages(
  group: RolloutGroup,
  settings: AnalysisSettings,
  datasetAdvantages: readonly number[] | undefined,
): readonly number[] {
  return !usesDatasetAdvantages(settings) || datasetAdvantages === undefined
    ? (analysisAdvantages([group], settings)[0] ?? [])
    : datasetAdvantages;
}

/** A group's statistics under the settings and its annotation (advantages: groupAdvantages). */
export function groupView(
  group: RolloutGroup,
  settings: AnalysisSettings,
  datasetAdvantages: readonly number[] | undefined,
  annotation: GroupAnnotation,
  clusters: ClusterState,
  judge: { readonly run: JudgeRun | null; readonly source: GarRankingSource } | null = null,
  advantages: readonly number[] = groupAdvantages(group, settings, datasetAdvantages),
): GroupView {
  // A group no person ranked may take the picked judge run's ranking (judgeGar.ts); it says so.
  const resolved = garAnnotationWithJudge(
    annotationsResolve([group], {
      ...ANNOTATIONS_EMPTY,
      groups: { [group.id]: annotation },
    }).byGroup.get(group.id),
    judge?.run ?? null,
    group,
    judge?.source ?? "human-only",
  );
  const analysis = analyzeGroup(
    group,
    settings,
    advantages,
    resolved,
    clusters.status === "done"
      ? clusters.result
      : clusterComponents(group.rollouts.length, () => false),
  );
  return { group, analysis, annotation, clusters };
}

/** A parsed group and all its statistics, or null while it is not parsed yet. */
export function useGroupAnalysis(groupId: string | null): GroupView | null {
  const dataset = useDataset();
  const group = useStore((s) => {
    const load = selectViewLoad(s);
    return load.status === "ready" && groupId !== null ? (load.groups.get(groupId) ?? null) : null;
  });
  const settings = useSettings();
  const batch = usesDatasetAdvantages(settings);
  const advantages = useAdvantages(batch);
  const annotation = useGroupAnnotation(groupId);
  const clusters = useGroupClusters(group);
  const judgeSource = useStore((s) => s.judgeGarSource);
  // Only the run the user picked by name, never the latest one (issue 13, finding 8); none while
  // blind mode hides the group's judge verdicts (team mode, store/team/teamSelectors.ts).
  const judgeRun = useStore((s) =>
    groupId === null || !selectJudgeShown(s, groupId)
      ? null
      : garSourceRunFor(s.annotations.judgeRuns, s.judgeGarSource, groupId),
  );
  // Apart from the annotation's part, so that an annotation change (a ranking keystroke) analyses
  // the group again but does not recompute its advantages.
  const start = useMemo(() => {
    if (dataset === null || group === null) return null;
    if (!batch) return groupAdvantages(group, settings, undefined);
    if (advantages === null) return null;
    const index = dataset.summaries.findIndex((s) => s.id === group.id);
    return groupAdvantages(group, settings, advantages[index]);
  }, [dataset, group, advantages, settings, batch]);
  return useMemo(() => {
    if (start === null || group === null) return null;
    const judge = { run: judgeRun, source: judgeSource };
    return groupView(group, settings, undefined, annotation, clusters, judge, start);
  }, [start, group, settings, annotation, clusters, judgeRun, judgeSource]);
}
