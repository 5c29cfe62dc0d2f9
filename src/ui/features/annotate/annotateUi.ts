/**
 * Feature-local UI state of the annotation controls (not persisted, not undoable): which rollout's
 * hack form is open, so the `h` shortcut and the column's button open the same form.
 */
import { create } from "zustand";

interface AnnotateUi {
  /** Rollout id whose hack form is open, or null. */
  readonly hackFormFor: string | null;
  /** Text selected in that rollout's transcript when the form opened ("" when none). */
  readonly quote: string;
  readonly openHackForm: (rolloutId: string, quote: string) => void;
  readonly closeHackForm: () => void;
}

export const useAnnotateUi = create<AnnotateUi>()((set) => ({
  hackFormFor: null,
  quote: "",
  openHackForm: (rolloutId, quote) => set({ hackFormFor: rolloutId, quote }),
  closeHackForm: () => set({ hackFormFor: null, quote: "" }),
}));

/**
 * The text selected inside one rollout's column, or "" when the selection is empty or lies
 * (even partly) outside it: the quote must come from that rollout's transcript.
 */
export function selectionInColumn(rolloutId: string): string {
  if (typeof window === "undefined") return "";
  const selection = window.getSelection();
  if (selection === null || selection.rangeCount === 0 || selection.isCollapsed) return "";
  const range = selection.getRangeAt(0);
  const node = range.commonAncestorContainer;
  const el = node instanceof Element ? node : node.parentElement;
  const column = el?.closest('[data-testid="rollout-column"]');
  if (!(column instanceof HTMLElement) || column.dataset.rolloutId !== rolloutId) return "";
  return selection.toString().trim();
}
