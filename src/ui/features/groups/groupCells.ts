/** The texts of the table's formatted cells: a mean or std, the hacks, the clusters. */
import type { GroupRow } from "./groupRow.ts";

/**
 * A mean or std as the table shows it: three decimals, "–" without a value (NaN). Formatted when a
 * row is rendered, not prepared: 200k `toFixed` calls for 100k groups at mount.
 */
export const statText = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : "–");

/** The Hacks cell: "2" (human marks), "2 (heuristic)" (a run's flags), "1 · 2 (judge)" (both). */
export function hacksText(row: Pick<GroupRow, "hacks" | "flagged" | "flaggedBy">): string {
  const human = row.hacks > 0 ? String(row.hacks) : "";
  const judged = row.flagged > 0 ? `${row.flagged} (${row.flaggedBy ?? "judge"})` : "";
  return human !== "" && judged !== "" ? `${human} · ${judged}` : human + judged;
}

export interface ClusterCell {
  readonly text: string;
  readonly title: string;
}

/** What the worker's cluster cache holds for a group (store/slices/clusterSlice's entry). */
export type ClusterCellEntry =
  | { readonly status: "pending" }
  | { readonly status: "done"; readonly result: { readonly nClusters: number } }
  | { readonly status: "error"; readonly message: string };

/** The clusters cell: "–" until the group is parsed, "…" while the worker computes, then the count. */
export function clusterCell(parsed: boolean, entry: ClusterCellEntry | undefined): ClusterCell {
  if (!parsed) return { text: "–", title: "not parsed yet: open the group to cluster it" };
  if (entry === undefined || entry.status === "pending")
    return { text: "…", title: "clustering in the worker" };
  if (entry.status === "error") return { text: "!", title: `clustering failed: ${entry.message}` };
  const k = entry.result.nClusters;
  return { text: String(k), title: `${k} n-gram cluster${k === 1 ? "" : "s"}` };
}
