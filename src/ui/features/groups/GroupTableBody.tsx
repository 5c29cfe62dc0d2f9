/**
 * The group table's scroller and virtual rows: the virtualiser lives here, the lowest component
 * that needs it (performance.md section 7, T8). Rows have one fixed height and render prepared
 * rows only; they are memoised on primitive props, so scrolling re-renders just the rows entering
 * the view. Clusters are requested from the compute worker for the rendered rows only, once
 * scrolling stops, and the selected row is kept in view when it moves (keyboard, sort, filter).
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  memo,
  useEffect,
  useId,
  useMemo,
  useRef,
  type CSSProperties,
  type KeyboardEventHandler,
  type MouseEventHandler,
  type ReactNode,
} from "react";
import type { RolloutGroup } from "../../../core/index.ts";
import { useLoadedGroups, useSettings } from "../../../store/hooks.ts";
import { useStore } from "../../../store/index.ts";
import { clusterEntry } from "../../../store/slices/clusterSlice.ts";
import { CLUSTERS_COLUMN, COLUMN_IDS, columnClass, GROUP_CELLS } from "./columns.tsx";
import { clusterCell, type GroupRow } from "./prepareGroupRows.ts";
import { metadataCell } from "./metadataColumns.tsx";
import styles from "./Groups.module.css";

/** Pixels per row: the virtualiser's fixed size and each row's height. */
export const ROW_HEIGHT = 30;
/**
 * The sticky header row's height in the scroller (Groups.module.css: 6px padding each side, a line
 * of 0.86rem at 1.5, a 1px border): a row is in view only when it is clear of the header too.
 */
const HEAD_HEIGHT = 33;
/** Rows rendered beyond each edge of the view. */
const OVERSCAN = 8;
/**
 * The scroller's size before it is measured (and in jsdom, which has no layout), so a first render
 * already shows rows.
 */
const INITIAL_RECT = { width: 1100, height: 540 };

const estimateSize = (): number => ROW_HEIGHT;

/** The row height for the style sheet: one constant object, so one style for every render. */
const TABLE_STYLE = { "--row-height": `${ROW_HEIGHT}px` } as CSSProperties;

const NO_GROUPS: ReadonlyMap<string, RolloutGroup> = new Map();

interface RowProps {
  readonly row: GroupRow;
  readonly index: number;
  readonly domId: string;
  readonly selected: boolean;
  readonly clusterText: string;
  readonly clusterTitle: string;
  /** The metadata columns' fields, and the group their cells read (undefined: not parsed). */
  readonly metaColumns: readonly string[];
  readonly group: RolloutGroup | undefined;
  readonly showStep: boolean;
}

const GroupTableRow = memo(function GroupTableRow({
  row,
  index,
  domId,
  selected,
  clusterText,
  clusterTitle,
  metaColumns,
  group,
  showStep,
}: RowProps) {
  return (
    <tr
      role="row"
      id={domId}
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-testid="group-row"
      data-group-id={row.id}
      data-index={index}
      className={selected ? `${styles.row} ${styles.selected}` : styles.row}
    >
      {showStep ? (
        <td role="gridcell" className={columnClass("step")}>
          {GROUP_CELLS.step?.(row)}
        </td>
      ) : null}
      {COLUMN_IDS.map((id) => (
        <td role="gridcell" key={id} className={id === "prompt" ? styles.prompt : columnClass(id)}>
          {id === CLUSTERS_COLUMN ? (
            <span title={clusterTitle}>{clusterText}</span>
          ) : (
            GROUP_CELLS[id]?.(row)
          )}
        </td>
      ))}
      {metaColumns.map((path) => {
        const cell = metadataCell(group, path);
        return (
          <td role="gridcell" key={`meta:${path}`} data-meta-path={path}>
            <span title={cell.title}>{cell.text}</span>
          </td>
        );
      })}
    </tr>
  );
});

export interface GroupTableBodyProps {
  /** The prepared rows, filtered and in order. */
  readonly rows: readonly GroupRow[];
  readonly selectedId: string | null;
  readonly header: ReactNode;
  readonly columnCount: number;
  readonly onKeyDown: KeyboardEventHandler<HTMLTableElement>;
  readonly onClick: MouseEventHandler<HTMLTableElement>;
  /** Metadata fields shown as columns after the fixed ones. */
  readonly metaColumns?: readonly string[];
  /** The Step column before the fixed ones. */
  readonly showStep?: boolean;
}

const NO_META: readonly string[] = [];

export default function GroupTableBody({
  rows,
  selectedId,
  header,
  columnCount,
  onKeyDown,
  onClick,
  metaColumns = NO_META,
  showStep = false,
}: GroupTableBodyProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const baseId = useId();
  const groups = useLoadedGroups() ?? NO_GROUPS;
  // Subscribed for its changes only: a cluster result moves it, and the cells re-read the cache.
  useStore((s) => s.clusterVersion);
  const requestClusters = useStore((s) => s.requestClusters);
  const { ngram, similarity, completionRule, similarityOn, textChars } = useSettings();

  // The build does not use the React Compiler, and nothing memoises the virtualiser's functions:
  // rows get primitive props only.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: OVERSCAN,
    // Items keyed by position (the default key, stable between renders): every row has the same
    // fixed size and none is measured, so there is no size to keep per group, and the
    // virtualiser's pass over all rows (100k at mount, again when the count changes) makes no
    // string keys and looks none up. A getItemKey that changed identity would redo that pass on
    // every scrolled frame.
    initialRect: INITIAL_RECT,
    // Row offsets start below the header: scrolling a row into view at the bottom allows for it.
    scrollPaddingEnd: HEAD_HEIGHT,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;
  const scrolling = virtualizer.isScrolling;

  // The compute worker is an external system: ask it for the rendered rows' clusters once the
  // list rests (a fast scroll through 100k rows would otherwise queue thousands of requests).
  useEffect(() => {
    if (scrolling) return;
    const settings = { ngram, similarity, completionRule, similarityOn, textChars };
    for (let i = first; i <= last; i++) {
      const id = rows[i]?.id;
      const group = id === undefined ? undefined : groups.get(id);
      if (group !== undefined) requestClusters(group, settings);
    }
  }, [
    first,
    last,
    scrolling,
    rows,
    groups,
    ngram,
    similarity,
    completionRule,
    similarityOn,
    textChars,
    requestClusters,
  ]);

  const selectedIndex = useMemo(
    () => (selectedId === null ? -1 : rows.findIndex((r) => r.id === selectedId)),
    [rows, selectedId],
  );
  // Scrolling is the DOM's: keep the selected row in view when it moves (a key, a sort, a filter,
  // a link) or the list changes height (it shrinks to a few rows when a group opens), not on every
  // render, so the mouse wheel is free to scroll away from it.
  const viewHeight = virtualizer.scrollRect?.height ?? 0;
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: "auto" });
  }, [selectedIndex, virtualizer, viewHeight]);

  const clusterSettings = { ngram, similarity, completionRule, similarityOn, textChars };
  // Each metadata column adds a track to the grid template (Groups.module.css, --meta-columns).
  // The Step column adds one before them (--step-column).
  const tableStyle = useMemo(
    () =>
      metaColumns.length === 0 && !showStep
        ? TABLE_STYLE
        : {
            ...TABLE_STYLE,
            ...(metaColumns.length === 0
              ? {}
              : { "--meta-columns": `repeat(${metaColumns.length}, minmax(7rem, 11rem))` }),
            ...(showStep ? { "--step-column": "4.2rem" } : {}),
            minWidth: `${75.8 + 9 * metaColumns.length + (showStep ? 4.2 : 0)}rem`,
          },
    [metaColumns.length, showStep],
  );
  const rowDomId = (index: number): string => `${baseId}-row-${index}`;
  const activeRendered = selectedIndex >= first && selectedIndex <= last;

  return (
    <div ref={scrollRef} className={styles.scroller}>
      <table
        role="grid"
        tabIndex={0}
        aria-label="Groups"
        aria-rowcount={rows.length + 1}
        aria-colcount={columnCount}
        aria-activedescendant={activeRendered ? rowDomId(selectedIndex) : undefined}
        data-testid="groups.table"
        data-row-count={rows.length}
        className={styles.table}
        style={tableStyle}
        onKeyDown={onKeyDown}
        onClick={onClick}
      >
        {header}
        {/* The rendered rows flow from the first one's offset: one element per frame gets a new
            inline style, not every row (a translateY per row made each entering row a new
            style to resolve, and a fast scroll's style recalculation grew with every frame). */}
        <tbody
          className={styles.body}
          style={{ height: virtualizer.getTotalSize(), paddingTop: items[0]?.start ?? 0 }}
        >
          {items.map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            const group = groups.get(row.id);
            const cell = clusterCell(
              group !== undefined,
              group === undefined ? undefined : clusterEntry(group, clusterSettings),
            );
            return (
              <GroupTableRow
                key={row.index}
                row={row}
                index={item.index}
                domId={rowDomId(item.index)}
                selected={item.index === selectedIndex}
                clusterText={cell.text}
                clusterTitle={cell.title}
                metaColumns={metaColumns}
                showStep={showStep}
                group={group}
              />
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
