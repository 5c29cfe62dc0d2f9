import { describe, expect, it } from "vitest";
import { WORKSPACE_SHORTCUTS, WORKSPACE_TABS, workspaceCommand } from "./workspaceShortcuts.ts";

const key = (
  k: string,
  mods: Partial<Record<"altKey" | "ctrlKey" | "metaKey" | "shiftKey", boolean>> = {},
) => ({
  key: k,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  ...mods,
});

describe("workspaceCommand", () => {
  it("maps 1 to 6 to the tabs in order, and nothing past them", () => {
    expect(WORKSPACE_TABS.map((_, i) => workspaceCommand(key(String(i + 1)), false))).toEqual(
      WORKSPACE_TABS.map((t) => ({ kind: "tab", tab: t.id })),
    );
    expect(workspaceCommand(key("7"), false)).toBeNull();
    expect(workspaceCommand(key("0"), false)).toBeNull();
  });

  it("r focuses the ranking; arrows move between columns outside it", () => {
    expect(workspaceCommand(key("r"), false)).toEqual({ kind: "ranking" });
    expect(workspaceCommand(key("r"), true)).toEqual({ kind: "ranking" });
    expect(workspaceCommand(key("ArrowRight"), false)).toEqual({ kind: "column", step: 1 });
    expect(workspaceCommand(key("ArrowLeft"), false)).toEqual({ kind: "column", step: -1 });
    expect(workspaceCommand(key("ArrowRight"), true)).toBeNull();
  });

  it("leaves modified keys alone (Ctrl+1, Alt+Left, Shift+Right)", () => {
    expect(workspaceCommand(key("1", { ctrlKey: true }), false)).toBeNull();
    expect(workspaceCommand(key("ArrowLeft", { altKey: true }), false)).toBeNull();
    expect(workspaceCommand(key("ArrowRight", { shiftKey: true }), false)).toBeNull();
    expect(workspaceCommand(key("r", { metaKey: true }), false)).toBeNull();
  });

  it("the cheat sheet names every tab key", () => {
    expect(WORKSPACE_SHORTCUTS.shortcuts[0]!.keys).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(WORKSPACE_SHORTCUTS.shortcuts[0]!.action).toBe(
      "switch tabs: 1 Rollouts, 2 Metrics, 3 Divergence, 4 Compare, 5 Rubric, 6 Lineage",
    );
  });
});
