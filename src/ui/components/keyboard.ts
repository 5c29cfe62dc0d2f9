/**
 * Keyboard shortcuts shared by every view: where they must not fire, and how each feature describes
 * its shortcuts for the `?` cheat sheet (ui/app gathers the lists; features never import each
 * other).
 */

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
