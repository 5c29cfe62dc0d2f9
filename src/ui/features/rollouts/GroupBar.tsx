/** The group view's bar: the group's id, its rollout count, the layout controls and the task toggle. */
import { memo, useId } from "react";
import { MAX_PINNED, VISIBLE_CHOICES } from "./prepareRolloutColumns.ts";
import styles from "./Rollouts.module.css";
import { MetadataToggle } from "../../components/metadata/MetadataDisclosure.tsx";

/**
 * The group's bar: its id, the rollout count and the layout controls. Memoised: a change of the
 * group's analysis (a ranking keystroke) does not render it, nor write its inputs' attributes.
 */
export const GroupBar = memo(function GroupBar({
  groupId,
  rollouts,
  choice,
  onChoice,
  sync,
  onSync,
  details,
  onDetails,
  pinned,
  task,
  taskOpen,
  onTaskToggle,
  taskPanelId,
}: {
  groupId: string;
  rollouts: number;
  choice: number;
  onChoice: (choice: number) => void;
  sync: boolean;
  onSync: (sync: boolean) => void;
  details: boolean;
  onDetails: (details: boolean) => void;
  pinned: number;
  /** The metadata the group's rollouts share (the task), or null for none; its toggle is here. */
  task: Readonly<Record<string, unknown>> | null;
  taskOpen: boolean;
  onTaskToggle: () => void;
  taskPanelId: string;
}) {
  const selectId = useId();
  return (
    <div className={styles.groupBar}>
      <h2 className={styles.heading}>Group {groupId}</h2>
      <span className={styles.muted}>
        {rollouts} rollout{rollouts === 1 ? "" : "s"}
      </span>
      <label htmlFor={selectId} className={styles.control}>
        Columns visible
        <select
          id={selectId}
          value={choice}
          data-testid="columns-visible"
          onChange={(e) => onChoice(Number(e.currentTarget.value))}
        >
          {VISIBLE_CHOICES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <label
        className={styles.control}
        title="Scrolling one transcript scrolls the others to the same relative position"
      >
        <input
          type="checkbox"
          checked={sync}
          data-testid="sync-scroll"
          onChange={(e) => onSync(e.currentTarget.checked)}
        />
        Sync scrolling
      </label>
      <label
        className={styles.control}
        title="Each header's details: where each number comes from, and the GAR factor"
      >
        <input
          type="checkbox"
          checked={details}
          data-testid="column-details"
          onChange={(e) => onDetails(e.currentTarget.checked)}
        />
        Details
      </label>
      <span className={styles.muted}>
        {pinned} of {MAX_PINNED} pinned
      </span>
      {task === null ? null : (
        <MetadataToggle
          title="Task"
          value={task}
          open={taskOpen}
          onToggle={onTaskToggle}
          testId="group.task-meta"
          panelId={taskPanelId}
          className={styles.taskToggle}
        />
      )}
    </div>
  );
});
