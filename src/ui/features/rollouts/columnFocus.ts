/**
 * Moving the focus between rollout columns from the keyboard (issue 13, finding 10). Columns are
 * taken in screen order (pinned ones first, as `order` places them), and the focused one is scrolled
 * into view; a column focused this way is the one p, f, d and h act on (annotate/AnnotateKeys).
 */
const COLUMN = '[data-testid="rollout-column"]';

/** Focuses the column `step` away from the one holding `from` (or the first when none does). */
export function focusAdjacentColumn(
  root: ParentNode,
  from: EventTarget | null,
  step: 1 | -1,
): boolean {
  const columns = [...root.querySelectorAll<HTMLElement>(COLUMN)].sort(
    (a, b) => a.offsetLeft - b.offsetLeft,
  );
  if (columns.length === 0) return false;
  const current = from instanceof Element ? from.closest<HTMLElement>(COLUMN) : null;
  const at = current === null ? -1 : columns.indexOf(current);
  const next =
    at === -1 ? columns[0]! : columns[Math.min(columns.length - 1, Math.max(0, at + step))]!;
  next.focus({ preventScroll: true });
  next.scrollIntoView({ block: "nearest", inline: "nearest" });
  return true;
}
