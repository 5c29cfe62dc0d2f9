/**
 * Edits of the hack taxonomy (annotations.hackReasons), pure: add, rename, remove. Reasons are
 * trimmed, never blank, never repeated; an edit that would break that returns the list unchanged
 * with a message. Hacks already marked keep their reason text (the file stays self-describing).
 */
export interface ReasonsEdit {
  readonly reasons: readonly string[];
  /** "" when the edit applied. */
  readonly error: string;
}

export function reasonsAdd(reasons: readonly string[], reason: string): ReasonsEdit {
  const r = reason.trim();
  if (r === "") return { reasons, error: "A reason cannot be blank." };
  if (reasons.includes(r)) return { reasons, error: `"${r}" is already in the list.` };
  return { reasons: [...reasons, r], error: "" };
}

export function reasonsRename(reasons: readonly string[], at: number, name: string): ReasonsEdit {
  const r = name.trim();
  if (at < 0 || at >= reasons.length) return { reasons, error: "No such reason." };
  if (r === "") return { reasons, error: "A reason cannot be blank." };
  if (reasons.some((x, i) => x === r && i !== at))
    return { reasons, error: `"${r}" is already in the list.` };
  return { reasons: reasons.map((x, i) => (i === at ? r : x)), error: "" };
}

export function reasonsRemove(reasons: readonly string[], at: number): ReasonsEdit {
  if (at < 0 || at >= reasons.length) return { reasons, error: "No such reason." };
  if (reasons.length === 1) return { reasons, error: "Keep at least one reason." };
  return { reasons: reasons.filter((_, i) => i !== at), error: "" };
}
