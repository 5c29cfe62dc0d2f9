/**
 * What the group browser reads of the loaded dataset (store/datasetInfo.ts): the group summaries its
 * rows are built from and a prompt's text. The feature's view models take them from here only.
 */
export { promptText, type GroupSummary } from "../../../store/datasetInfo.ts";
