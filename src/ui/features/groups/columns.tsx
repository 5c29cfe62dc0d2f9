/**
 * The group browser's columns (TanStack Table v9): twelve fixed-width columns over prepared
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
import { isGroupSortKey, type GroupSort } from "../../../store/url.ts";
import type { GroupRow } from "./prepareGroupRows.ts";
import styles from "./Groups.module.css";

export const groupTableFeatures = tableFeatures({ rowSortingFeature });

const helper = createColumnHelper<typeof groupTableFeatures, GroupRow>();

/** Column id of the clusters column, whose cell the body fills from the worker's cache. */
export const CLUSTERS_COLUMN = "clusters";

// Text columns sort ascending first; the others descending first (GroupTable's sortDescFirst).
export const groupColumns = helper.columns([
  helper.accessor("id", {
    id: "id",
    header: "Group",
    sortDescFirst: false,
    // The row's open button: a click anywhere in the row selects it (GroupTable's click handler),
    // and the button is the row's mouse and screen-reader target. tabIndex -1: the grid takes focus
    // once and moves the selection with the arrow keys, so Tab does not walk every row.
    cell: (info) => (
      <button type="button" tabIndex={-1} className={styles.link} data-testid="groups.row.id">
        {info.getValue()}
      </button>
    ),
  }),
  helper.accessor("prompt", {
    id: "prompt",
    header: "Prompt",
    sortDescFirst: false,
    cell: (info) => <span title={info.getValue()}>{info.getValue()}</span>,
  }),
  helper.accessor("n", {
    id: "n",
    header: "n",
    cell: (info) =>
      info.row.original.partial ? (
        <span title="Fewer rollouts than most groups of the file">
          {info.getValue()} <span className={styles.badge}>partial</span>
        </span>
      ) : (
        info.getValue()
      ),
  }),
  helper.accessor("passes", { id: "passes", header: "Passes" }),
  helper.accessor("meanText", { id: "mean", header: "Mean" }),
  helper.accessor("stdText", { id: "std", header: "Std" }),
  helper.accessor("zeroStd", {
    id: "zeroStd",
    header: "Zero std",
    cell: (info) => (info.getValue() ? <span className={styles.badge}>zero std</span> : null),
  }),
  helper.accessor((r) => r.spread.status, {
    id: "spread",
    header: "Spread",
    cell: (info) => (
      <span title={info.row.original.spread.title} data-spread={info.getValue()}>
        {info.getValue()}
      </span>
    ),
  }),
  helper.display({ id: CLUSTERS_COLUMN, header: "Clusters", enableSorting: false }),
  helper.accessor("hacks", {
    id: "hacks",
    header: "Hacks",
    cell: (info) => (info.getValue() > 0 ? info.getValue() : null),
  }),
  helper.accessor("annotation", { id: "annotation", header: "Annotation" }),
  helper.accessor("reviewed", {
    id: "reviewed",
    header: "Reviewed",
    cell: (info) => (info.getValue() ? "reviewed" : null),
  }),
]);

/** The header's full name, for tooltips and screen readers. */
export const COLUMN_TITLES: Readonly<Record<string, string>> = {
  id: "Group id",
  prompt: "Prompt (first rollout's, as one line)",
  n: "Rollouts in the group",
  passes: "Rollouts with reward at or above the pass threshold",
  mean: "Mean reward",
  std: "Population std of the rewards",
  zeroStd: "Every reward equal: every advantage is 0",
  spread:
    "Spread check (methods.md 2.5): over the GAR factors of the ranked non-hack passes when the group is ranked, else over its rewards",
  clusters: "Diversity clusters (n-gram Jaccard), computed for the rows on screen",
  hacks: "Rollouts annotated as hacks",
  annotation: "Ranking, labels and notes",
  reviewed: "Marked reviewed",
};

/** Right-aligned numeric columns. */
const NUMERIC = new Set(["n", "passes", "mean", "std", "clusters", "hacks"]);

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
