/**
 * View model of the `?` cheat sheet: every feature's shortcut list, with key names shown as people
 * read them (arrows as symbols, Space spelled out) and lists without shortcuts left out.
 */
import type { ShortcutGroup } from "../../components/keyboard.ts";

const KEY_NAMES: Readonly<Record<string, string>> = {
  ArrowLeft: "←",
  ArrowRight: "→",
  ArrowUp: "↑",
  ArrowDown: "↓",
  " ": "Space",
  Escape: "Esc",
};

export interface CheatSheetRow {
  readonly keys: readonly string[];
  readonly action: string;
}

export interface CheatSheetSection {
  readonly title: string;
  readonly rows: readonly CheatSheetRow[];
}

export function prepareCheatSheet(groups: readonly ShortcutGroup[]): CheatSheetSection[] {
  return groups
    .filter((g) => g.shortcuts.length > 0)
    .map((g) => ({
      title: g.title,
      rows: g.shortcuts.map((s) => ({
        keys: s.keys.map((k) => KEY_NAMES[k] ?? k),
        action: s.action,
      })),
    }));
}
