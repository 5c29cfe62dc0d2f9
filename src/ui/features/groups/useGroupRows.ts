/**
 * The group list's rows (`prepareGroupRows`) for the dataset on screen. A large dataset's rows are
 * built a slice at a time between macrotasks when it arrives (an indexed file's 100,000 groups took
 * one ~130 ms task at index-done, with the rest of that render on top); a change of its parsed
 * groups then rebuilds only their rows (groupRowsBuilder).
 */
import { useEffect, useMemo, useReducer, useState } from "react";

import type { RolloutGroup } from "../../../core/index.ts";
import type { GroupSummary } from "../../../io/dataset.ts";
import { yieldTask } from "../../../store/yieldTask.ts";
import {
  groupRowsBuilder,
  prepareGroupRowsSliced,
  type GroupRow,
  type RowSettings,
} from "./prepareGroupRows.ts";

/** From this many groups a new dataset's rows are built in slices. */
export const SLICED_ROWS_FROM = 8000;

const NO_ROWS: readonly GroupRow[] = [];

export interface GroupRowsState {
  readonly rows: readonly GroupRow[];
  /** True while a new dataset's rows are being built (`rows` is empty then). */
  readonly pending: boolean;
}

export function useGroupRows(
  summaries: readonly GroupSummary[] | undefined,
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: RowSettings,
): GroupRowsState {
  const [build] = useState(groupRowsBuilder);
  // Bumped when sliced rows are ready: the builder holds them, the next render takes them.
  const [built, rowsReady] = useReducer((n: number) => n + 1, 0);
  const sliced =
    summaries !== undefined &&
    summaries.length >= SLICED_ROWS_FROM &&
    !build.incremental(summaries, settings);
  const rows = useMemo(() => {
    void built;
    if (summaries === undefined) return NO_ROWS;
    return sliced ? null : build(summaries, groups, settings);
  }, [build, built, sliced, summaries, groups, settings]);
  useEffect(() => {
    if (!sliced) return;
    let cancelled = false;
    prepareGroupRowsSliced(summaries, groups, settings, yieldTask, () => cancelled).then(
      (made) => {
        if (made === null || cancelled) return;
        build.seed(summaries, groups, settings, made);
        rowsReady();
      },
      // A bug, not a state to show: reported as an uncaught error (the e2e specs fail on one).
      (e: unknown) => reportError(e),
    );
    return () => {
      cancelled = true;
    };
  }, [build, sliced, summaries, groups, settings]);
  return rows === null ? { rows: NO_ROWS, pending: true } : { rows, pending: false };
}
