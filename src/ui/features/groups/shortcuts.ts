/** The group browser's shortcuts, for the `?` cheat sheet (GroupTable and GroupFilters bind them). */
import type { ShortcutGroup } from "../../components/keyboard.ts";

export const GROUP_BROWSER_SHORTCUTS: ShortcutGroup = {
  title: "Group browser",
  shortcuts: [
    { keys: ["ArrowDown", "j"], action: "next group" },
    { keys: ["ArrowUp", "k"], action: "previous group" },
    { keys: ["Home", "End"], action: "first or last group" },
    { keys: ["Enter", "Space"], action: "open the group" },
    { keys: ["/"], action: "search prompts and completions" },
    {
      keys: ["Enter", "ArrowDown"],
      action: "in the search box: back to the list, on the first match",
    },
  ],
};
