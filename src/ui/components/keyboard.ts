/**
 * Keyboard shortcuts shared by every view: where they must not fire, and how each feature describes
 * its shortcuts for the `?` cheat sheet (ui/app gathers the lists; features never import each
 * other).
 */
import { useEffect, useRef } from "react";

/** True when a key event comes from a place the user types in: shortcuts must not fire there. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (typeof HTMLElement === "undefined" || !(target instanceof HTMLElement)) return false;
  // jsdom has no isContentEditable: the attribute check covers it there.
  if (
    target.isContentEditable ||
    target.closest('[contenteditable]:not([contenteditable="false"])')
  )
    return true;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
}

/** One line of the cheat sheet. */
export interface ShortcutHelp {
  /** Keys as shown, e.g. ["j", "ArrowDown"]; alternatives, not a chord. */
  readonly keys: readonly string[];
  readonly action: string;
}

/** A titled list of shortcuts, one per feature or mode. */
export interface ShortcutGroup {
  readonly title: string;
  readonly shortcuts: readonly ShortcutHelp[];
}

/**
 * Listen for a feature's shortcuts on the document while mounted: `parse` maps a key event to a
 * command (or null), `run` performs it. Keys typed in a text field or inside a dialog never reach
 * `run`, and a handled key's default is prevented. The document listener is an external
 * subscription; it always calls the latest `run`.
 */
export function useDocumentShortcuts<C>(
  parse: (event: KeyboardEvent) => C | null,
  run: (command: C) => void,
): void {
  const latest = useRef({ parse, run });
  useEffect(() => {
    latest.current = { parse, run };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || isTypingTarget(e.target)) return;
      if (e.target instanceof Element && e.target.closest("dialog") !== null) return;
      const command = latest.current.parse(e);
      if (command === null) return;
      e.preventDefault();
      latest.current.run(command);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
