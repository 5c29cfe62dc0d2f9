/**
 * The annotation shortcuts of the group view, for the `?` cheat sheet (ui/app gathers the lists).
 * RankingPanel binds the ranking keys on a focused ranking item; AnnotateKeys binds the rest on
 * the focused rollout (a ranking item or anything inside a rollout column). None fires while typing.
 */
import type { ShortcutGroup } from "../../components/keyboard.ts";

export const ANNOTATE_SHORTCUTS: ShortcutGroup = {
  title: "Annotate (group view)",
  shortcuts: [
    { keys: ["Alt+ArrowUp"], action: "ranking: move the focused pass up one place" },
    { keys: ["Alt+ArrowDown"], action: "ranking: move the focused pass down one place" },
    { keys: ["t"], action: "ranking: tie with the tier above" },
    { keys: ["s"], action: "ranking: split out of its tie" },
    { keys: ["a", "Enter"], action: "ranking: rank an unranked pass last" },
    { keys: ["x", "Delete"], action: "ranking: unrank" },
    { keys: ["ArrowUp", "ArrowDown"], action: "ranking: previous or next item" },
    { keys: ["p"], action: "label the focused rollout pass (again: clear)" },
    { keys: ["f"], action: "label the focused rollout fail (again: clear)" },
    { keys: ["d"], action: "label the focused rollout defer (again: clear)" },
    { keys: ["h"], action: "open the hack form of the focused rollout" },
    { keys: ["Ctrl+Enter", "Escape"], action: "in the hack form: save, or cancel" },
  ],
};
