/**
 * The group view's own keys (issue 13, finding 10), for the `?` cheat sheet and GroupWorkspace:
 * 1 to 6 switch the tabs (6, the Lineage tab, only in a dataset of several steps), `r` focuses
 * the ranking of the passes, Left and Right move between the rollout columns. None fires while
 * typing or in a dialog (useDocumentShortcuts).
 */
import type { ShortcutGroup } from "../components/keyboard.ts";
import type { KeyLike } from "../features/review/shortcuts.ts";

export const WORKSPACE_TABS = [
  { id: "rollouts", label: "Rollouts" },
  { id: "metrics", label: "Metrics" },
  { id: "divergence", label: "Divergence" },
  { id: "compare", label: "Compare" },
  { id: "rubric", label: "Rubric" },
  // A prompt across steps (issue 19): shown when the dataset has two steps or more.
  { id: "lineage", label: "Lineage" },
] as const;

export type WorkspaceTab = (typeof WORKSPACE_TABS)[number]["id"];

export const WORKSPACE_SHORTCUTS: ShortcutGroup = {
  title: "Group view",
  shortcuts: [
    {
      keys: WORKSPACE_TABS.map((_, i) => String(i + 1)),
      action: `switch tabs: ${WORKSPACE_TABS.map((t, i) => `${i + 1} ${t.label}`).join(", ")}`,
    },
    {
      keys: ["r"],
      action: "focus the ranking of the passes (keyboard ranking starts there: Alt+↑/↓, t, s, x)",
    },
    {
      keys: ["ArrowLeft", "ArrowRight"],
      action: "previous or next rollout column, outside the ranking (p, f, d, h then act on it)",
    },
  ],
};

export type WorkspaceCommand =
  | { readonly kind: "tab"; readonly tab: WorkspaceTab }
  | { readonly kind: "ranking" }
  | { readonly kind: "column"; readonly step: 1 | -1 };

/** The command a key names; `inRanking` when the focus is in the ranking panel (its own arrows). */
export function workspaceCommand(e: KeyLike, inRanking: boolean): WorkspaceCommand | null {
  if (e.altKey || e.ctrlKey || e.metaKey) return null;
  const digit = /^[1-9]$/.test(e.key) ? Number(e.key) - 1 : -1;
  const tab = WORKSPACE_TABS[digit];
  if (tab !== undefined) return { kind: "tab", tab: tab.id };
  if (e.key === "r" || e.key === "R") return e.shiftKey ? null : { kind: "ranking" };
  if (inRanking || e.shiftKey) return null;
  if (e.key === "ArrowRight") return { kind: "column", step: 1 };
  if (e.key === "ArrowLeft") return { kind: "column", step: -1 };
  return null;
}
