/** The Compare tab's shortcuts, for the `?` cheat sheet (PairwiseView binds them). */
import type { ShortcutGroup } from "../../components/keyboard.ts";

export const PAIRWISE_SHORTCUTS: ShortcutGroup = {
  title: "Compare (blind pairwise)",
  shortcuts: [
    { keys: ["a", "ArrowLeft"], action: "A (left) is better" },
    { keys: ["b", "ArrowRight"], action: "B (right) is better" },
    { keys: ["t"], action: "tie" },
    { keys: ["u"], action: "undo the last comparison" },
  ],
};

export type PairwiseCommand = "left" | "right" | "tie" | "undo";

/** Which comparison command a key press means (no modifiers), or null. */
export function pairwiseCommand(e: {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
}): PairwiseCommand | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key) {
    case "a":
    case "ArrowLeft":
      return "left";
    case "b":
    case "ArrowRight":
      return "right";
    case "t":
      return "tie";
    case "u":
      return "undo";
    default:
      return null;
  }
}
