/**
 * Building the browser's rows for a large file: a slice at a time between pauses
 * (`prepareGroupRowsSliced`), and again only for the groups whose parse changed
 * (`groupRowsBuilder`), so neither a new file nor an opened group blocks the main thread.
 */
import type { RolloutGroup } from "../../../core/index.ts";
import { prepareGroupRows, rowFromSummary, type GroupRow, type RowSettings } from "./groupRow.ts";
import type { GroupSummary } from "./groupSummaries.ts";

const sameRowSettings = (a: RowSettings, b: RowSettings): boolean =>
  a.passThreshold === b.passThreshold &&
  a.rewardWeights === b.rewardWeights &&
  a.minFactor === b.minFactor &&
  a.completionRule === b.completionRule;

/**
 * `prepareGroupRows`, remembering its last rows: for the same summaries and settings with other
 * parsed groups (a group opened in an indexed file parses it), only the rows of the groups that
 * changed are built again, so opening one group of 100,000 costs that group, not every row (it
 * was ~150 ms a group). Any other change builds every row, as `prepareGroupRows`.
 */
export interface GroupRowsBuilder {
  (
    summaries: readonly GroupSummary[],
    groups: ReadonlyMap<string, RolloutGroup>,
    settings: RowSettings,
  ): GroupRow[];
  /** Whether a call with these would build only the changed rows (same summaries and settings). */
  incremental(summaries: readonly GroupSummary[], settings: RowSettings): boolean;
  /** Take rows built elsewhere (`prepareGroupRowsSliced`) as the last ones. */
  seed(
    summaries: readonly GroupSummary[],
    groups: ReadonlyMap<string, RolloutGroup>,
    settings: RowSettings,
    rows: GroupRow[],
  ): void;
}

/** Rows built per slice between two pauses (~5 ms of a 2-core machine's main thread). */
const ROWS_PER_SLICE = 4000;

/**
 * `prepareGroupRows`, a slice of rows at a time with `pause()` awaited between slices, so 100,000
 * groups never block the main thread in one task (~130 ms). Null when `isCancelled()` turns true.
 */
export async function prepareGroupRowsSliced(
  summaries: readonly GroupSummary[],
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: RowSettings,
  pause: () => Promise<void>,
  isCancelled: () => boolean,
): Promise<GroupRow[] | null> {
  const rows = new Array<GroupRow>(summaries.length);
  for (let start = 0; start < summaries.length; start += ROWS_PER_SLICE) {
    if (start > 0) {
      await pause();
      if (isCancelled()) return null;
    }
    const end = Math.min(summaries.length, start + ROWS_PER_SLICE);
    for (let i = start; i < end; i++) {
      const s = summaries[i]!;
      rows[i] = rowFromSummary(s, i, groups.get(s.id), undefined, settings);
    }
  }
  return rows;
}

export function groupRowsBuilder(): GroupRowsBuilder {
  let last: {
    readonly summaries: readonly GroupSummary[];
    readonly groups: ReadonlyMap<string, RolloutGroup>;
    readonly settings: RowSettings;
    readonly rows: GroupRow[];
  } | null = null;
  // Each summary's place by id (built on the first change of groups; null with duplicate ids).
  let placeOf: Map<string, number> | null | undefined;
  const build = (
    summaries: readonly GroupSummary[],
    groups: ReadonlyMap<string, RolloutGroup>,
    settings: RowSettings,
  ): GroupRow[] => {
    if (
      last === null ||
      last.summaries !== summaries ||
      !sameRowSettings(last.settings, settings)
    ) {
      placeOf = undefined;
      last = { summaries, groups, settings, rows: prepareGroupRows(summaries, groups, settings) };
      return last.rows;
    }
    if (last.groups === groups) return last.rows;
    if (placeOf === undefined) {
      const places = new Map<string, number>();
      for (let i = 0; i < summaries.length; i++) {
        if (places.has(summaries[i]!.id)) break;
        places.set(summaries[i]!.id, i);
      }
      placeOf = places.size === summaries.length ? places : null;
    }
    const before = last.groups;
    let rows: GroupRow[];
    if (placeOf === null) rows = prepareGroupRows(summaries, groups, settings);
    else {
      const places = placeOf;
      rows = [...last.rows];
      const rebuild = (id: string): void => {
        const i = places.get(id);
        if (i !== undefined)
          rows[i] = rowFromSummary(summaries[i]!, i, groups.get(id), undefined, settings);
      };
      for (const [id, group] of groups) if (before.get(id) !== group) rebuild(id);
      for (const id of before.keys()) if (!groups.has(id)) rebuild(id);
    }
    last = { summaries, groups, settings, rows };
    return rows;
  };
  return Object.assign(build, {
    incremental: (summaries: readonly GroupSummary[], settings: RowSettings): boolean =>
      last !== null && last.summaries === summaries && sameRowSettings(last.settings, settings),
    seed: (
      summaries: readonly GroupSummary[],
      groups: ReadonlyMap<string, RolloutGroup>,
      settings: RowSettings,
      rows: GroupRow[],
    ): void => {
      placeOf = undefined;
      last = { summaries, groups, settings, rows };
    },
  });
}
