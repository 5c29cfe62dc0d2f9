/**
 * The group browser: every group of the dataset as one row of a virtualised table that sorts,
 * filters and is driven from the keyboard. The selected group, the filters and the sort live in
 * the URL (store/url.ts). This component prepares the rows (memoised per input, so a keystroke in
 * the search re-runs only the filter) and hands them to GroupTable.
 */
import { useDeferredValue, useMemo, useRef, useState } from "react";
import type { RolloutGroup } from "../../../core/index.ts";
import { useDataset, useLoadedGroups, useSettings } from "../../../store/hooks.ts";
import { useStore } from "../../../store/index.ts";
import { useRewardsShownOf } from "../../../store/team/teamHooks.ts";
import { isRunDataset } from "../../../store/datasetInfo.ts";
import GroupFilters from "./GroupFilters.tsx";
import GroupTable from "./GroupTable.tsx";
import MetadataControls from "./MetadataControls.tsx";
import { filterMetadataRows } from "./metadataColumns.tsx";
import {
  annotatedRowsSelector,
  blindGroupRows,
  filterGroupRows,
  lazySearchIndex,
  flagGroupRows,
  sortGroupRows,
  type GroupRow,
} from "./prepareGroupRows.ts";
import { useGroupRows } from "./useGroupRows.ts";
import styles from "./Groups.module.css";

const NO_GROUPS: ReadonlyMap<string, RolloutGroup> = new Map();
const NO_ROWS: readonly GroupRow[] = [];

export interface GroupListProps {
  /** Enter or Space on the table; by default the group is selected (the workspace shows it). */
  readonly onOpen?: (groupId: string) => void;
}

export default function GroupList({ onOpen }: GroupListProps) {
  const dataset = useDataset();
  const groups = useLoadedGroups() ?? NO_GROUPS;
  const { passThreshold, rewardWeights, minFactor, completionRule } = useSettings();
  const selected = useStore((s) => s.selectedGroupId);
  const selectGroup = useStore((s) => s.selectGroup);
  const setGroupSort = useStore((s) => s.setGroupSort);
  // Typing and clicking stay responsive on 100k rows: the list follows at React's pace, while the
  // checkboxes and the sort headers show the state at once (a second click toggles from it).
  const filtersNow = useStore((s) => s.filters);
  const filters = useDeferredValue(filtersNow);
  const sortNow = useStore((s) => s.groupSort);
  const sort = useDeferredValue(sortNow);
  const metadataView = useStore((s) => s.metadataView);
  const metaFilter = useDeferredValue(metadataView.filter);
  // The rows lag the controls while a deferred render is on its way: say so (aria-busy).
  const updating = filters !== filtersNow || sort !== sortNow || metaFilter !== metadataView.filter;
  const summaries = dataset?.summaries;
  // The distinct steps: the Step column and the step filter show when there are several, or the
  // dataset is a run of several files (issue 14); a single file without steps stays as it was.
  const steps = useMemo(() => {
    const set = new Set<number>();
    for (const s of summaries ?? []) if (s.step !== null) set.add(s.step);
    return [...set].sort((a, b) => a - b);
  }, [summaries]);
  const showStep = steps.length > 1 || (dataset !== null && isRunDataset(dataset));

  // Opening a group parses it (a new groups map): only that group's row is built again. A large
  // dataset's rows are built in slices when it arrives (useGroupRows).
  const rowSettings = useMemo(
    () => ({ passThreshold, rewardWeights, minFactor, completionRule }),
    [passThreshold, rewardWeights, minFactor, completionRule],
  );
  const { rows: base, pending } = useGroupRows(summaries, groups, rowSettings);
  // The rows with the annotations applied, through a memoised selector that keeps the previous
  // rows when an annotation change leaves every row as it was (a ranking keystroke).
  const selectAnnotated = useMemo(
    () =>
      summaries === undefined
        ? () => NO_ROWS
        : annotatedRowsSelector(base, summaries, groups, {
            passThreshold,
            rewardWeights,
            minFactor,
            completionRule,
          }),
    [base, summaries, groups, passThreshold, rewardWeights, minFactor, completionRule],
  );
  const marked = useStore((s) => selectAnnotated(s.annotations.groups));
  // The judge runs' hack flags, apart from the human marks ("2 (heuristic)").
  const runs = useStore((s) => s.annotations.judgeRuns);
  // Blind mode (team mode): a group whose rewards are hidden keeps its row, blanked.
  const rewardsShown = useRewardsShownOf();
  const annotated = useMemo(
    () => blindGroupRows(flagGroupRows(marked, runs), rewardsShown),
    [marked, runs, rewardsShown],
  );
  // Built on the first search, not in the mounting render (or when the search box takes the focus,
  // in an idle moment before the first keystroke).
  const searchIndex = useMemo(
    () => (summaries === undefined ? () => [] : lazySearchIndex(summaries, groups, completionRule)),
    [summaries, groups, completionRule],
  );
  const filtered = useMemo(
    () => filterGroupRows(annotated, filters, searchIndex),
    [annotated, filters, searchIndex],
  );
  const metaFiltered = useMemo(
    () => filterMetadataRows(filtered, metaFilter, groups),
    [filtered, metaFilter, groups],
  );
  const rows = useMemo(() => sortGroupRows(metaFiltered, sort), [metaFiltered, sort]);
  const parsedRollouts = useMemo(() => {
    let n = 0;
    for (const g of groups.values()) n += g.rollouts.length;
    return n;
  }, [groups]);
  // With a group open the list shows a few rows, so the group's transcripts fit below it; the
  // toggle under it gives the list its full height back.
  const [tall, setTall] = useState(false);
  const compact = selected !== null && !tall;
  const card = useRef<HTMLElement>(null);
  // From the search box to the list: the first match is selected unless the selection is listed.
  const focusList = (): void => {
    const first = rows[0];
    if (first !== undefined && !rows.some((r) => r.id === selected)) selectGroup(first.id);
    card.current?.querySelector<HTMLElement>('[role="grid"]')?.focus();
  };

  if (dataset === null) return null;
  return (
    <div className={styles.layout}>
      <section
        ref={card}
        className={compact ? `${styles.card} ${styles.compact}` : styles.card}
        aria-label="Groups"
        aria-busy={updating}
        data-testid="groups.list"
        data-size={compact ? "compact" : "full"}
      >
        <GroupFilters
          shown={rows.length}
          total={base.length}
          searchable={dataset.indexed ? groups.size : base.length}
          indexed={dataset.indexed}
          onSearchFocus={searchIndex}
          onSearchDone={focusList}
          steps={steps}
        >
          <MetadataControls groups={groups} rollouts={parsedRollouts} />
        </GroupFilters>
        <GroupTable
          rows={rows}
          sort={sortNow}
          selectedId={selected}
          onSortChange={setGroupSort}
          onSelect={selectGroup}
          onOpen={onOpen ?? selectGroup}
          metaColumns={metadataView.columns}
          showStep={showStep}
        />
        {pending ? (
          <p className={styles.muted} role="status" data-testid="groups.preparing">
            Preparing the list of {(summaries?.length ?? 0).toLocaleString("en-US")} groups…
          </p>
        ) : rows.length === 0 ? (
          <p className={styles.muted}>No group matches the filters.</p>
        ) : null}
        {selected === null ? null : (
          <button
            type="button"
            className={styles.sizeToggle}
            aria-expanded={!compact}
            data-testid="groups.size-toggle"
            onClick={() => setTall((t) => !t)}
          >
            {compact ? "▾ Show more groups" : "▴ Show fewer groups (more room for the transcripts)"}
          </button>
        )}
      </section>
    </div>
  );
}
