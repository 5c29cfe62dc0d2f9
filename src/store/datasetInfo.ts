/**
 * What views read off a loaded dataset besides the store's state: a prompt's preview text, whether
 * it is a run (its steps, its header's lines), a served run's name, and its issues as text. io's
 * rules, re-exported from their own modules so a view bundles only the ones it uses.
 */
export { promptText, type GroupSummary } from "../io/dataset.ts";
export { formatIssue, type ParseIssue } from "../io/issues.ts";
export {
  datasetSteps,
  isRunDataset,
  runHeaderDetails,
  type RunDataset,
} from "../io/runs/runInfo.ts";
export { viewRunName } from "../io/view/viewNames.ts";
