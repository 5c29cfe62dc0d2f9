/** The keyboard's moves through the listed groups (GroupTable binds the keys). */

/**
 * The keyboard's next selection among the listed ids: ArrowUp/k and ArrowDown/j move one row
 * (from nothing or an unlisted selection, to the first or last row), Home and End jump. Null for
 * any other key or an empty list.
 */
export function nextSelection(
  ids: readonly string[],
  current: string | null,
  key: string,
): string | null {
  if (ids.length === 0) return null;
  const at = current === null ? -1 : ids.indexOf(current);
  const last = ids.length - 1;
  switch (key) {
    case "ArrowDown":
    case "j":
      return ids[at === -1 ? 0 : Math.min(last, at + 1)]!;
    case "ArrowUp":
    case "k":
      return ids[at === -1 ? last : Math.max(0, at - 1)]!;
    case "Home":
      return ids[0]!;
    case "End":
      return ids[last]!;
    default:
      return null;
  }
}
