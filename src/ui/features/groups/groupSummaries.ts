/**
 * What the group browser reads from io's dataset: the group summaries its rows are built from and a
 * prompt's text. The feature's view models take them from here only, so io is imported in one place.
 */
export { promptText, type GroupSummary } from "../../../io/dataset.ts";
