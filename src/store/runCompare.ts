/**
 * Run against run in the studio (issue 19): the dataset on screen (run A) and the run opened to
 * compare with it (run B, slices/compareSlice.ts), compared by core's `compareRuns` on the
 * prompts they share, each group's numbers from core's `groupHealth` under the settings. And a
 * group of run B as the column view shows one: its analysis under the settings, with no
 * annotations (run B's are not loaded).
 *
 * Both runs are compared as their files give them: an applied verifier scores the dataset on
 * screen only, so the comparison reads run A's own rewards too and says so (`verifiersApplied`).
 * An indexed run has only the groups parsed so far: the comparison counts those, and says how
 * many of how many (`parsed`, `groups`).
 */
import { useMemo } from "react";
import {
  compareRuns,
  GROUP_ANNOTATION_EMPTY,
  groupHealth,
  type AnalysisSettings,
  type CompareMetric,
  type GroupHealth,
  type RolloutGroup,
  type RunComparison,
} from "../core/index.ts";
import type { LoadedDataset } from "../io/dataset.ts";
import { groupStepsById } from "../io/runs/runInfo.ts";
import {
  datasetAdvantages,
  groupView,
  useGroupClusters,
  usesDatasetAdvantages,
  useSettings,
  type GroupView,
} from "./hooks.ts";
import { useStore } from "./index.ts";
import { selectViewLoad } from "./slices/verifierSlice.ts";

/** What the comparison was computed from, on one side. */
export interface CompareSide {
  /** The run's name: its file, its folder, or "N files". */
  readonly name: string;
  /** Groups the run holds, and how many of them are parsed (all of them unless indexed). */
  readonly groups: number;
  readonly parsed: number;
  readonly indexed: boolean;
}

export interface RunCompareView {
  readonly a: CompareSide;
  readonly b: CompareSide;
  /** Each run's group steps by id (which group of a prompt a row opens). */
  readonly stepsA: ReadonlyMap<string, number | null>;
  readonly stepsB: ReadonlyMap<string, number | null>;
  readonly comparison: RunComparison;
  /** Verifiers are applied to the dataset on screen; the comparison reads the files' rewards. */
  readonly verifiersApplied: boolean;
}

/** Every parsed group's health (no clusters, marks or annotations: compareRuns reads none). */
export function parsedGroupHealths(
  dataset: Pick<LoadedDataset, "summaries">,
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: AnalysisSettings,
): GroupHealth[] {
  const steps = groupStepsById(dataset.summaries);
  const out: GroupHealth[] = [];
  for (const s of dataset.summaries) {
    const group = groups.get(s.id);
    if (group !== undefined) out.push(groupHealth(group, steps.get(s.id) ?? null, settings));
  }
  return out;
}

function sideOf(
  name: string,
  dataset: LoadedDataset,
  groups: ReadonlyMap<string, RolloutGroup>,
): CompareSide {
  return {
    name,
    groups: dataset.summaries.length,
    parsed: dataset.summaries.filter((s) => groups.has(s.id)).length,
    indexed: dataset.indexed,
  };
}

/** Run B against the dataset on screen, ranked by `metric`; null until both are loaded. */
export function useRunComparison(metric: CompareMetric): RunCompareView | null {
  const load = useStore((s) => s.load);
  const run = useStore((s) => s.compareRun);
  const verifiersApplied = useStore((s) => selectViewLoad(s) !== s.load);
  const settings = useSettings();
  const healthsA = useMemo(
    () =>
      load.status === "ready" ? parsedGroupHealths(load.dataset, load.groups, settings) : null,
    [load, settings],
  );
  const healthsB = useMemo(
    () => (run.status === "ready" ? parsedGroupHealths(run.dataset, run.groups, settings) : null),
    [run, settings],
  );
  return useMemo(() => {
    if (load.status !== "ready" || run.status !== "ready") return null;
    if (healthsA === null || healthsB === null) return null;
    return {
      a: sideOf(load.file.name, load.dataset, load.groups),
      b: sideOf(run.file.name, run.dataset, run.groups),
      stepsA: groupStepsById(load.dataset.summaries),
      stepsB: groupStepsById(run.dataset.summaries),
      comparison: compareRuns(healthsA, healthsB, { metric }),
      verifiersApplied,
    };
  }, [load, run, healthsA, healthsB, metric, verifiersApplied]);
}

/** A group of the compared run (run B) and its statistics, or null while it is not parsed. */
export function useCompareGroupAnalysis(groupId: string): GroupView | null {
  const run = useStore((s) => s.compareRun);
  const group = run.status === "ready" ? (run.groups.get(groupId) ?? null) : null;
  const settings = useSettings();
  const clusters = useGroupClusters(group);
  const dataset = run.status === "ready" ? run.dataset : null;
  // Batch scaling takes run B's own dataset-wide advantages, as the dataset on screen takes its.
  const batch = usesDatasetAdvantages(settings);
  const advantages = useMemo(
    () => (dataset === null || !batch ? null : datasetAdvantages(dataset, settings)),
    [dataset, settings, batch],
  );
  return useMemo(() => {
    if (group === null || dataset === null) return null;
    const index = dataset.summaries.findIndex((s) => s.id === group.id);
    return groupView(group, settings, advantages?.[index], GROUP_ANNOTATION_EMPTY, clusters, null);
  }, [group, dataset, settings, advantages, clusters]);
}
