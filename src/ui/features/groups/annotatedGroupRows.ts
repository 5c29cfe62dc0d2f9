/**
 * The browser's rows with what is said about each group on top of its numbers: a person's
 * annotation (`annotateGroupRows`, memoised per annotations by `annotatedRowsSelector`) and the
 * judge runs' hack flags (`flagGroupRows`); rows that stay the same keep their identity.
 */
import {
  garRunHackFlags,
  latestGarRuns,
  type GroupAnnotation,
  type JudgeRun,
  type RolloutGroup,
} from "../../../core/index.ts";
import { rowFromSummary, type GroupRow, type RowSettings } from "./groupRow.ts";
import type { GroupSummary } from "./groupSummaries.ts";

/**
 * The rows with the annotations applied. Rows of groups without an annotation are returned as they
 * are (same object), so a change to one group's annotation re-renders only that row.
 */
export function annotateGroupRows(
  rows: readonly GroupRow[],
  summaries: readonly GroupSummary[],
  annotations: Readonly<Record<string, GroupAnnotation>>,
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: RowSettings,
): GroupRow[] {
  if (Object.keys(annotations).length === 0) return [...rows];
  return rows.map((row) => {
    const annotation = Object.hasOwn(annotations, row.id) ? annotations[row.id] : undefined;
    const summary = summaries[row.index];
    if (annotation === undefined || summary === undefined) return row;
    return rowFromSummary(summary, row.index, groups.get(row.id), annotation, settings);
  });
}

/**
 * The rows with the hack flags of the judge runs: for each group, the latest gar run (LLM or the
 * heuristic grader, a spread check included) that has an entry for it, with its flag count and
 * who flagged. Rows without such a run are returned as they are (the same array without runs).
 */
export function flagGroupRows(
  rows: readonly GroupRow[],
  runs: readonly JudgeRun[],
): readonly GroupRow[] {
  const latest = latestGarRuns(runs);
  if (latest.size === 0) return rows;
  return rows.map((row) => {
    const run = latest.get(row.id);
    const flags = run === undefined ? null : garRunHackFlags(run, row.id);
    if (flags === null) return row;
    return { ...row, flagged: flags.flagged, flaggedBy: flags.by };
  });
}

/** Whether two rows show the same values (every field; the spread by its status and text). */
export function sameGroupRow(a: GroupRow, b: GroupRow): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as (keyof GroupRow)[];
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => {
      if (k === "spread")
        return a.spread.status === b.spread.status && a.spread.title === b.spread.title;
      // NaN (a group without finite rewards) equals itself here.
      return Object.is(a[k], b[k]);
    })
  );
}

/**
 * `next` with every row equal to the row at the same place of `previous` replaced by that row,
 * or `previous` itself when every row is equal. An annotation change that leaves every row as it
 * was (a ranking keystroke that swaps two passes) then changes nothing downstream: no filter,
 * sort or table render runs.
 */
export function shareRows(
  previous: readonly GroupRow[],
  next: readonly GroupRow[],
): readonly GroupRow[] {
  if (previous.length !== next.length) return next;
  let changed = false;
  const shared = next.map((row, i) => {
    const old = previous[i]!;
    if (sameGroupRow(old, row)) return old;
    changed = true;
    return row;
  });
  return changed ? shared : previous;
}

/**
 * A memoised selector of the annotated rows, for the store's annotations by group (the reselect
 * pattern): the same annotations give the same array, and a change that leaves every row as it
 * was gives the previous array (shareRows). A ranking keystroke that swaps two passes then does
 * not re-render the group list at all.
 */
export function annotatedRowsSelector(
  rows: readonly GroupRow[],
  summaries: readonly GroupSummary[],
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: RowSettings,
): (annotations: Readonly<Record<string, GroupAnnotation>>) => readonly GroupRow[] {
  let last: {
    annotations: Readonly<Record<string, GroupAnnotation>>;
    rows: readonly GroupRow[];
  } | null = null;
  return (annotations) => {
    if (last !== null && last.annotations === annotations) return last.rows;
    const next = annotateGroupRows(rows, summaries, annotations, groups, settings);
    last = { annotations, rows: last === null ? next : shareRows(last.rows, next) };
    return last.rows;
  };
}
