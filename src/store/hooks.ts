/**
 * Domain hooks: atomic store selections plus memoised core computations. Derived numbers are
 * computed here from the loaded data and the settings, never stored.
 */
import { useMemo } from "react";
import {
  analyzeGroup,
  grpoAdvantages,
  grpoRlooAdvantages,
  type AnalysisSettings,
  type GroupAnalysis,
  type RolloutGroup,
} from "../core/index.ts";
import type { LoadedDataset, ParseIssue } from "../io/index.ts";
import { useStore } from "./index.ts";

/** The loaded dataset, or null while nothing is loaded. */
export function useDataset(): LoadedDataset | null {
  return useStore((s) => (s.load.status === "ready" ? s.load.dataset : null));
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

/** Trainer advantages of every group, from the rewards alone (batch scaling needs them all). */
export function useAdvantages(): readonly number[][] | null {
  const dataset = useDataset();
  const settings = useSettings();
  return useMemo(() => {
    if (dataset === null) return null;
    const rewards = dataset.summaries.map((s) => s.rewards);
    return settings.estimator === "rloo"
      ? grpoRlooAdvantages(rewards)
      : grpoAdvantages(rewards, { scale: settings.scale, eps: settings.eps, std: settings.std });
  }, [dataset, settings]);
}

/** A parsed group and all its statistics, or null while it is not parsed yet. */
export function useGroupAnalysis(
  groupId: string | null,
): { group: RolloutGroup; analysis: GroupAnalysis } | null {
  const dataset = useDataset();
  const group = useStore((s) =>
    s.load.status === "ready" && groupId !== null ? (s.load.groups.get(groupId) ?? null) : null,
  );
  const advantages = useAdvantages();
  const settings = useSettings();
  return useMemo(() => {
    if (dataset === null || group === null || advantages === null) return null;
    const index = dataset.summaries.findIndex((s) => s.id === group.id);
    return { group, analysis: analyzeGroup(group, settings, advantages[index] ?? []) };
  }, [dataset, group, advantages, settings]);
}
