/**
 * View models of the group browser: one prepared row per group, the search text, the filters and
 * the sort. Every decision (formatting, flags, spread status, annotation status, what a filter keeps,
 * the order) is made in these modules and tested; the numbers, flags and spread verdicts are core's
 * (`groupRewardStats`, `rankingSpreadScores`, `garRunHackFlags`), and the table components render
 * the rows and decide nothing. This module is their one import path:
 *
 * - groupRow.ts: a row from a group's summary, `prepareGroupRows`, the prompt preview
 * - groupSpreadCell.ts: the spread cell (status and report)
 * - groupRowsBuilder.ts: rows built a slice at a time, or again only for the groups that changed
 * - annotatedGroupRows.ts: annotations and judge flags on the rows, rows shared when unchanged
 * - groupRowsFilter.ts, groupRowsSort.ts: the filters and search, the sort
 * - groupCells.ts, groupSelection.ts: formatted cells, the keyboard's selection
 * - groupRowsBlind.ts: blind mode's blanked rows (team mode)
 *
 * Sizes: the browser prepares every group of the file (100k rows in the scroll benchmark), so each
 * function is one pass over the rows, and a row is rebuilt only when its inputs change (see
 * `annotateGroupRows`, which keeps the identity of unannotated rows for the memoised table rows).
 */
export {
  annotationStatus,
  prepareGroupRows,
  promptPreview,
  type GroupRow,
  type RowSettings,
} from "./groupRow.ts";
export {
  groupSpread,
  rewardSpread,
  type SpreadCell,
  type SpreadStatus,
} from "./groupSpreadCell.ts";
export {
  groupRowsBuilder,
  prepareGroupRowsSliced,
  type GroupRowsBuilder,
} from "./groupRowsBuilder.ts";
export {
  annotatedRowsSelector,
  annotateGroupRows,
  flagGroupRows,
  sameGroupRow,
  shareRows,
} from "./annotatedGroupRows.ts";
export {
  filterGroupRows,
  groupSearchIndex,
  lazySearchIndex,
  rowPassesFlags,
  type SearchIndex,
} from "./groupRowsFilter.ts";
export { compareSortValues, sortGroupRows, sortValue } from "./groupRowsSort.ts";
export {
  clusterCell,
  hacksText,
  statText,
  type ClusterCell,
  type ClusterCellEntry,
} from "./groupCells.ts";
export { nextSelection } from "./groupSelection.ts";
export { BLIND_TITLE, blindGroupRows, blindRow } from "./groupRowsBlind.ts";
