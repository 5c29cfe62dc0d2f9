/**
 * The group browser's columns (TanStack Table v9): thirteen fixed-width columns over prepared
 * `GroupRow`s (performance.md section 7: at most about 12 columns, or scrolling slows). The table
 * owns the sort state's shape and the header interactions; the order itself comes from
 * `sortGroupRows` (manual sorting), so it is tested without a table. Cells only show prepared
 * values; the clusters cell gets its value from the body, which knows the rendered rows.
 */
import {
  createColumnHelper,
  rowSortingFeature,
  tableFeatures,
  type SortingState,
} from "@tanstack/react-table";
import type { ReactNode } from "react";
import { isGroupSortKey, type GroupSort } from "../../../store/url.ts";
import { BLIND_TITLE, hacksText, statText, type GroupRow } from "./prepareGroupRows.ts";
import styles from "./Groups.module.css";

export const groupTableFeatures = tableFeatures({ rowSortingFeature });

const helper = createColumnHelper<typeof groupTableFeatures, GroupRow>();

/** Column id of the clusters column, whose cell the body fills from the worker's cache. */
export const CLUSTERS_COLUMN = "clusters";

// Text columns sort ascending first; the others descending first (GroupTable's sortDescFirst).
// The table owns headers and sorting only: rows render their cells straight from the prepared row
// (`GROUP_CELLS`), so scrolling through 100k rows never builds TanStack's per-row cell objects,
// which it caches on every visited row (bench/README.md, group browser scrolling).
export const groupColumns = helper.columns([
  helper.accessor("id", { id: "id", header: "Group", sortDescFirst: false }),
  helper.accessor("prompt", { id: "prompt", header: "Prompt", sortDescFirst: false }),
  helper.accessor("n", { id: "n", header: "n" }),
  helper.accessor("passes", { id: "passes", header: "Passes" }),
  helper.accessor("mean", { id: "mean", header: "Mean" }),
  helper.accessor("std", { id: "std", header: "Std" }),
  helper.accessor("zeroStd", { id: "zeroStd", header: "Zero std" }),
  helper.accessor((r) => r.spread.status, { id: "spread", header: "Spread" }),
  helper.display({ id: CLUSTERS_COLUMN, header: "Clusters", enableSorting: false }),
  helper.accessor("hacks", { id: "hacks", header: "Hacks" }),
  helper.accessor("toolErrors", { id: "toolErrors", header: "Tool errors" }),
  helper.accessor("annotation", { id: "annotation", header: "Annotation" }),
  helper.accessor("reviewed", { id: "reviewed", header: "Reviewed" }),
]);

/** The column ids in display order. */
export const COLUMN_IDS: readonly string[] = groupColumns.map((c) => c.id ?? "");

/**
 * Each column's cell, from the prepared row (the clusters cell comes from the body, which knows the
 * worker's cache). Untrusted text (ids, prompts) is rendered as text.
 */
export const GROUP_CELLS: Readonly<Record<string, (row: GroupRow) => ReactNode>> = {
  // The row's open button: a click anywhere in the row selects it (GroupTable's click handler), and
  // the button is the row's mouse and screen-reader target. tabIndex -1: the grid takes focus once
  // and moves the selection with the arrow keys, so Tab does not walk every row.
  id: (r) => (
    <button
      type="button"
      tabIndex={-1}
      className={styles.link}
      title={r.id}
      data-testid="groups.row.id"
    >
      {r.id}
    </button>
  ),
  prompt: (r) => <span title={r.prompt}>{r.prompt}</span>,
  step: (r) => (r.step === null ? "–" : <span data-testid="groups.row.step">{r.step}</span>),
  n: (r) =>
    r.partial ? (
      <span title="Fewer rollouts than most groups of the file">
        {r.n} <span className={styles.badge}>partial</span>
      </span>
    ) : (
      r.n
    ),
  passes: (r) =>
    r.blind === true ? (
      <span className={styles.badge} title={BLIND_TITLE} data-testid="groups.row.blind">
        blind
      </span>
    ) : (
      r.passes
    ),
  mean: (r) => (r.blind === true ? <span title={BLIND_TITLE}>–</span> : statText(r.mean)),
  std: (r) => (r.blind === true ? <span title={BLIND_TITLE}>–</span> : statText(r.std)),
  zeroStd: (r) =>
    r.blind === true ? null : r.zeroStd ? (
      <span className={styles.badge}>zero std</span>
    ) : r.unscored ? (
      <span className={styles.badge} title="No rollout of the group has a reward" data-unscored="">
        unscored
      </span>
    ) : null,
  spread: (r) =>
    r.blind === true ? (
      <span title={BLIND_TITLE}>–</span>
    ) : (
      <span title={r.spread.title} data-spread={r.spread.status}>
        {r.spread.status}
      </span>
    ),
  hacks: (r) =>
    r.hacks > 0 || r.flagged > 0 ? (
      <span
        data-testid="groups.row.hacks"
        title={`${r.hacks} marked by a person${r.flagged > 0 ? `; ${r.flagged} flagged by the latest ${r.flaggedBy === "heuristic" ? "heuristic grader" : "LLM judge"} run (not a human mark)` : ""}`}
      >
        {hacksText(r)}
      </span>
    ) : null,
  toolErrors: (r) =>
    r.toolErrors === null ? null : (
      <span
        className={r.toolErrors > 0 ? styles.toolErrors : undefined}
        data-testid="groups.row.tool-errors"
      >
        {r.toolErrors}
      </span>
    ),
  // Cut with an ellipsis in a narrow column: the whole text in the tooltip.
  annotation: (r) =>
    r.annotation === "" ? null : <span title={r.annotation}>{r.annotation}</span>,
  reviewed: (r) => (r.reviewed ? "reviewed" : null),
};

/** The header's full name, for tooltips and screen readers. */
export const COLUMN_TITLES: Readonly<Record<string, string>> = {
  id: "Group id",
  step: "Training step: the rows' step column, else the run file's (its name, else its place)",
  prompt: "Prompt (first rollout's, as one line)",
  n: "Rollouts in the group",
  passes: "Rollouts with reward at or above the pass threshold",
  mean: "Mean reward",
  std: "Population std of the rewards",
  zeroStd: "Every reward equal: every advantage is 0 (a group without any reward says unscored)",
  spread:
    "Spread check (methods.md 2.5): over the GAR factors of the ranked non-hack passes when the group is ranked, else over its rewards",
  clusters: "Diversity clusters (n-gram Jaccard), computed for the rows on screen",
  hacks: 'Rollouts marked as hacks by a person; a judge run\'s flags apart, as "2 (heuristic)"',
  toolErrors:
    "Tool results that are errors (an error field or status, an HTTP status >= 400, a non-zero exit, or marked by the source); empty until the group is parsed",
  annotation: "Ranking, labels and notes",
  reviewed: "Marked reviewed",
};

/** Right-aligned numeric columns. */
const NUMERIC = new Set(["step", "n", "passes", "mean", "std", "clusters", "hacks", "toolErrors"]);

export function columnClass(columnId: string): string | undefined {
  return NUMERIC.has(columnId) ? styles.num : undefined;
}

/** The sort state TanStack Table holds, from the store's sort (one column at most). */
export function sortingState(sort: GroupSort | null): SortingState {
  return sort === null ? [] : [{ id: sort.key, desc: sort.desc }];
}

/** The store's sort from TanStack Table's state; unknown columns sort by file order. */
export function sortFromState(state: SortingState): GroupSort | null {
  const first = state[0];
  return first !== undefined && isGroupSortKey(first.id)
    ? { key: first.id, desc: first.desc }
    : null;
}
