/**
 * The group table: the TanStack Table v9 instance for the columns and the sortable header (buttons
 * with aria-sort), and the grid's keyboard and click handling. The prepared, filtered and sorted
 * rows are rendered by GroupTableBody, which owns the virtualiser. The order comes in already
 * sorted (`manualSorting`): the table holds the sort state's shape and toggles it from the headers.
 */
import { FlexRender, useTable, type SortingState, type Updater } from "@tanstack/react-table";
import type { KeyboardEvent, MouseEvent } from "react";
import { useMemo } from "react";
import type { GroupSort } from "../../../store/url.ts";
import {
  COLUMN_TITLES,
  columnClass,
  groupColumns,
  groupTableFeatures,
  sortFromState,
  sortingState,
} from "./columns.tsx";
import GroupTableBody from "./GroupTableBody.tsx";
import { metadataColumnDefs } from "./metadataColumns.tsx";
import { isTypingTarget } from "../../components/keyboard.ts";
import { nextSelection, type GroupRow } from "./prepareGroupRows.ts";
import styles from "./Groups.module.css";

export interface GroupTableProps {
  /** The rows to list, filtered and in order. */
  readonly rows: readonly GroupRow[];
  readonly sort: GroupSort | null;
  readonly selectedId: string | null;
  readonly onSortChange: (sort: GroupSort | null) => void;
  readonly onSelect: (groupId: string) => void;
  /** Enter or Space on the grid: open the selected group (the first listed when none is). */
  readonly onOpen: (groupId: string) => void;
  /** Metadata fields shown as columns after the fixed ones (metadataColumns.tsx). */
  readonly metaColumns?: readonly string[];
  /** The Step column first (a run, or a file with several steps). */
  readonly showStep?: boolean;
}

const NO_META: readonly string[] = [];

// The table holds the columns, the headers and the sort state; it is given no rows. Its core row
// model would build a row object per group (100k at mount) that nothing reads: the body renders
// the prepared rows, and the first sort direction is set per column (sortDescFirst), so the
// table never samples values.
const NO_DATA: GroupRow[] = [];

export default function GroupTable({
  rows,
  sort,
  selectedId,
  onSortChange,
  onSelect,
  onOpen,
  metaColumns = NO_META,
  showStep = false,
}: GroupTableProps) {
  const sorting = useMemo(() => sortingState(sort), [sort]);
  const columns = useMemo(
    () =>
      metaColumns.length === 0
        ? groupColumns
        : [...groupColumns, ...metadataColumnDefs(metaColumns)],
    [metaColumns],
  );
  const table = useTable({
    features: groupTableFeatures,
    columns,
    data: NO_DATA,
    state: { sorting },
    onSortingChange: (updater: Updater<SortingState>) =>
      onSortChange(sortFromState(typeof updater === "function" ? updater(sorting) : updater)),
    manualSorting: true,
    enableMultiSort: false,
    // Numbers and flags sort descending first (the largest, or the flagged, on top); the text
    // columns override this in columns.tsx.
    sortDescFirst: true,
  });
  const ids = useMemo(() => rows.map((r) => r.id), [rows]);

  const onKeyDown = (e: KeyboardEvent<HTMLTableElement>): void => {
    if (e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target)) return;
    if (e.key === "Enter" || e.key === " ") {
      // A focused button (a sort header, a row's id) acts on its own.
      if (e.target instanceof HTMLButtonElement) return;
      const id = selectedId !== null && ids.includes(selectedId) ? selectedId : ids[0];
      if (id === undefined) return;
      e.preventDefault();
      onOpen(id);
      return;
    }
    const next = nextSelection(ids, selectedId, e.key);
    if (next === null) return;
    e.preventDefault();
    onSelect(next);
  };

  // One handler for every row: the clicked row's position in the listed rows.
  const onClick = (e: MouseEvent<HTMLTableElement>): void => {
    if (!(e.target instanceof Element)) return;
    const index = Number(e.target.closest("tr[data-index]")?.getAttribute("data-index"));
    const row = Number.isInteger(index) ? rows[index] : undefined;
    if (row !== undefined) onSelect(row.id);
  };

  // The Step column (issue 14) is drawn here, before the table's columns: a run's or a
  // several-step file's only. Its sort is the store's like every other (sortGroupRows).
  const stepSorted = sort?.key === "step" ? (sort.desc ? "desc" : "asc") : false;
  const stepHeader = showStep ? (
    <th
      role="columnheader"
      scope="col"
      className={columnClass("step")}
      aria-sort={stepSorted === "asc" ? "ascending" : stepSorted === "desc" ? "descending" : "none"}
    >
      <button
        type="button"
        className={styles.sort}
        title={`${COLUMN_TITLES.step}: sort`}
        data-testid="groups.sort.step"
        onClick={() =>
          onSortChange(
            stepSorted === false
              ? { key: "step", desc: false }
              : stepSorted === "asc"
                ? { key: "step", desc: true }
                : null,
          )
        }
      >
        Step
        {stepSorted !== false ? (
          <span className={styles.sortMark} aria-hidden="true">
            {stepSorted === "asc" ? "▲" : "▼"}
          </span>
        ) : null}
      </button>
    </th>
  ) : null;

  const header = (
    <thead className={styles.head}>
      {table.getHeaderGroups().map((group) => (
        <tr role="row" aria-rowindex={1} key={group.id} className={styles.row}>
          {stepHeader}
          {group.headers.map((h) => {
            const id = h.column.id;
            const sorted = h.column.getIsSorted();
            const canSort = h.column.getCanSort();
            return (
              <th
                role="columnheader"
                scope="col"
                key={h.id}
                className={columnClass(id)}
                aria-sort={
                  sorted === "asc"
                    ? "ascending"
                    : sorted === "desc"
                      ? "descending"
                      : canSort
                        ? "none"
                        : undefined
                }
              >
                {canSort ? (
                  <button
                    type="button"
                    className={styles.sort}
                    title={`${COLUMN_TITLES[id] ?? id}: sort`}
                    data-testid={`groups.sort.${id}`}
                    onClick={h.column.getToggleSortingHandler()}
                  >
                    <FlexRender header={h} />
                    {sorted !== false ? (
                      <span className={styles.sortMark} aria-hidden="true">
                        {sorted === "asc" ? "▲" : "▼"}
                      </span>
                    ) : null}
                  </button>
                ) : (
                  <span title={COLUMN_TITLES[id]}>
                    <FlexRender header={h} />
                  </span>
                )}
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );

  return (
    <GroupTableBody
      rows={rows}
      selectedId={selectedId}
      header={header}
      columnCount={columns.length + (showStep ? 1 : 0)}
      metaColumns={metaColumns}
      showStep={showStep}
      onKeyDown={onKeyDown}
      onClick={onClick}
    />
  );
}
