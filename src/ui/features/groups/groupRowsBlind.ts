/**
 * Blind mode in the group browser (team mode, issue 18): a group whose rewards the viewer may not
 * see yet (a blind queue's group they have not submitted; store/team/teamSelectors.ts) keeps its
 * row, its id, prompt, size, clusters, their own marks and annotation, but not what its rewards
 * or a judge say: passes, mean, std, zero std, mixed, spread and the judge's hack flags are
 * blanked. A blank value sorts last and no reward filter (mixed, zero std) keeps the row, so
 * neither the order nor a filter gives a hidden value away.
 */
import type { GroupRow } from "./groupRow.ts";
import type { SpreadCell } from "./groupSpreadCell.ts";

/** Said by every blanked cell. */
export const BLIND_TITLE = "Blind mode: hidden until you submit this group";

const HIDDEN_SPREAD: SpreadCell = { status: "n/a", title: BLIND_TITLE };

/** The row with its reward and judge values blanked (`blind: true`). */
export function blindRow(row: GroupRow): GroupRow {
  return {
    ...row,
    blind: true,
    passes: NaN,
    mean: NaN,
    std: NaN,
    mixed: false,
    zeroStd: false,
    unscored: false,
    spread: HIDDEN_SPREAD,
    flagged: 0,
    flaggedBy: null,
  };
}

/**
 * The rows with those `shown` refuses blanked; the same array when it refuses none, or when
 * `shown` is null (every group's rewards may be shown: nothing is walked).
 */
export function blindGroupRows(
  rows: readonly GroupRow[],
  shown: ((groupId: string) => boolean) | null,
): readonly GroupRow[] {
  if (shown === null) return rows;
  let changed = false;
  const out = rows.map((row) => {
    if (shown(row.id)) return row;
    changed = true;
    return blindRow(row);
  });
  return changed ? out : rows;
}
