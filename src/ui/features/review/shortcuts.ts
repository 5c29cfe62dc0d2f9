/** The review flow's shortcuts, for the `?` cheat sheet (ReviewBar binds them). */
import type { ShortcutGroup } from "../../components/keyboard.ts";

export const REVIEW_SHORTCUTS: ShortcutGroup = {
  title: "Review queue",
  shortcuts: [
    { keys: ["]"], action: "next group in the queue" },
    { keys: ["["], action: "previous group in the queue" },
    { keys: ["m"], action: "mark the open group reviewed and open the next unreviewed one" },
    { keys: ["Ctrl+Z", "⌘Z"], action: "undo the last annotation change" },
    { keys: ["Ctrl+Shift+Z", "⌘⇧Z", "Ctrl+Y"], action: "redo" },
    { keys: ["?"], action: "show this list of shortcuts" },
  ],
};

export type ReviewCommand = "next" | "previous" | "mark-next" | "undo" | "redo" | "help";

/** The event's fields a command depends on (a KeyboardEvent has them all). */
export interface KeyLike {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
}

/**
 * Which review command a key press means, or null. The caller first drops presses in text fields
 * (`isTypingTarget`): there Ctrl+Z is the field's own undo.
 */
export function reviewCommand(e: KeyLike): ReviewCommand | null {
  if (e.altKey) return null;
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.toLowerCase();
  if (mod) {
    if (key === "z") return e.shiftKey ? "redo" : "undo";
    if (key === "y" && !e.shiftKey) return "redo";
    return null;
  }
  if (e.key === "]") return "next";
  if (e.key === "[") return "previous";
  if (e.key === "m") return "mark-next";
  if (e.key === "?") return "help";
  return null;
}
