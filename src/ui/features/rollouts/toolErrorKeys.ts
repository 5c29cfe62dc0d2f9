/**
 * `e` / Shift+E: focus the next / previous tool error of the open group (issue 13 finding 4), in
 * column order and top to bottom, wrapping at the ends. The focused error's toggle is scrolled into
 * view, and the focus inside its column makes p, f, d and h act on that rollout. Never while typing
 * (useDocumentShortcuts). The transcripts keep every tool error rendered (Transcript.tsx), so the
 * walk reaches all of them.
 */
import type { RefObject } from "react";
import { useDocumentShortcuts, type ShortcutGroup } from "../../components/keyboard.ts";

export const TOOL_ERROR_SHORTCUTS: ShortcutGroup = {
  title: "Transcripts (group view)",
  shortcuts: [
    { keys: ["e"], action: "focus the next tool error of the open group" },
    { keys: ["Shift+E"], action: "focus the previous tool error" },
  ],
};

type Step = "next" | "previous";

export function toolErrorCommand(e: KeyboardEvent): Step | null {
  if (e.altKey || e.ctrlKey || e.metaKey) return null;
  if (e.key === "e" && !e.shiftKey) return "next";
  if (e.key === "E" && e.shiftKey) return "previous";
  return null;
}

/** The toggles of the tool errors inside `root`, in document order. */
function errorToggles(root: ParentNode): HTMLElement[] {
  return [
    ...root.querySelectorAll<HTMLElement>(
      '[data-testid="transcript.tool-result"][data-tool-error="true"] [data-testid="tool-result-toggle"]',
    ),
  ];
}

/**
 * The toggle after (or before) `from` in document order, wrapping; null when there is none.
 * `from` null (nothing focused in the group) starts at the first (or the last).
 */
export function toolErrorTarget(
  toggles: readonly HTMLElement[],
  from: Element | null,
  step: Step,
): HTMLElement | null {
  if (toggles.length === 0) return null;
  if (from === null) return step === "next" ? toggles[0]! : toggles[toggles.length - 1]!;
  if (step === "next") {
    const after = toggles.find(
      (t) =>
        t !== from && (from.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
    );
    return after ?? toggles[0]!;
  }
  const before = toggles.filter(
    (t) => t !== from && (from.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_PRECEDING) !== 0,
  );
  return before[before.length - 1] ?? toggles[toggles.length - 1]!;
}

/** Binds `e` / Shift+E to the tool errors inside the element `root` points at. */
export function useToolErrorKeys(root: RefObject<HTMLElement | null>): void {
  useDocumentShortcuts(toolErrorCommand, (step) => {
    const el = root.current;
    if (el === null) return;
    const active = document.activeElement;
    // A toggle's own descendants are not in the list: start from the toggle that holds the focus.
    const from =
      active !== null && el.contains(active)
        ? (active.closest<HTMLElement>('[data-testid="tool-result-toggle"]') ?? active)
        : null;
    const target = toolErrorTarget(errorToggles(el), from, step);
    if (target === null) return;
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: "center", inline: "nearest" });
  });
}
