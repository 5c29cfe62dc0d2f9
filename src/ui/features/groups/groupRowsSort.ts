/** The browser's sort: the value each column sorts by, and the order (missing values last, ties in file order). */
import type { GroupSort, GroupSortKey } from "../../../store/url.ts";
import type { SpreadStatus } from "./groupSpreadCell.ts";
import type { GroupRow } from "./groupRow.ts";

const SPREAD_ORDER: Readonly<Record<SpreadStatus, number>> = { no: 0, yes: 1, "n/a": NaN };

/** The value a column sorts by: numbers (NaN = no value) or text. */
export function sortValue(row: GroupRow, key: GroupSortKey): number | string {
  switch (key) {
    case "id":
      return row.id;
    case "step":
      return row.step ?? NaN;
    case "prompt":
      return row.prompt;
    case "n":
      return row.n;
    case "passes":
      return row.passes;
    case "mean":
      return row.mean;
    case "std":
      return row.std;
    case "zeroStd":
      return row.zeroStd ? 1 : 0;
    case "spread":
      return SPREAD_ORDER[row.spread.status];
    case "hacks":
      // Human marks first, a run's flags break the tie.
      return row.hacks + row.flagged / 1e6;
    case "toolErrors":
      return row.toolErrors ?? NaN;
    case "annotation":
      return row.annotationWeight;
    case "reviewed":
      return row.reviewed ? 1 : 0;
  }
}

// Natural order ("g2" before "g10", "2" before "10"), case-insensitive, independent of the locale.
const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

const isMissing = (v: number | string): boolean =>
  (typeof v === "number" && Number.isNaN(v)) || v === "";

/**
 * Ascending comparison of two sort values: numbers numerically, text in natural order, numbers
 * before text. Missing values (NaN, empty text) are not ordered here: `sortGroupRows` puts them last.
 */
export function compareSortValues(a: number | string, b: number | string): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return collator.compare(a, b);
}

/**
 * The rows in the sort's order; null sorts by file order. Missing values (NaN, empty text) go last
 * in both directions; ties keep file order, so the order is deterministic.
 */
export function sortGroupRows(rows: readonly GroupRow[], sort: GroupSort | null): GroupRow[] {
  if (sort === null) return [...rows].sort((a, b) => a.index - b.index);
  const values = rows.map((r) => sortValue(r, sort.key));
  const missing = values.map(isMissing);
  const sign = sort.desc ? -1 : 1;
  const order = rows.map((_, i) => i);
  order.sort((i, j) => {
    const mi = missing[i]!;
    const mj = missing[j]!;
    if (mi !== mj) return mi ? 1 : -1;
    const c = mi ? 0 : sign * compareSortValues(values[i]!, values[j]!);
    return c !== 0 ? c : rows[i]!.index - rows[j]!.index;
  });
  return order.map((i) => rows[i]!);
}
