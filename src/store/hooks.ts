/**
 * Domain hooks: atomic store selections plus memoised core computations. Derived numbers are
 * computed here from the loaded data and the settings, never stored.
 */
import { useMemo } from "react";
import { analyzeDataset, ANALYSIS_DEFAULTS, type DatasetAnalysis } from "../core/index.ts";
import type { LoadResult } from "../io/index.ts";
import { useStore } from "./index.ts";

/** The loaded result, or null while nothing is loaded. */
export function useLoadResult(): LoadResult | null {
  return useStore((s) => (s.load.status === "ready" ? s.load.result : null));
}

/** Every statistic of every group under the default settings (settings arrive with the studio UI). */
export function useDatasetAnalysis(): DatasetAnalysis | null {
  const result = useLoadResult();
  return useMemo(
    () => (result === null ? null : analyzeDataset(result.groups, ANALYSIS_DEFAULTS)),
    [result],
  );
}
