/**
 * The dataset-level "Rubrics" panel: every task (group id) with its rubric status (none, or the
 * current version and who wrote it), its criteria counts and how many of its labels were made
 * under an older rubric version. Opening a task opens its group; the group's "Rubric" tab edits it.
 */
import { useDeferredValue, useId, useMemo, useState } from "react";
import { useStore } from "../../../store/index.ts";
import { useDataset } from "../../../store/hooks.ts";
import {
  prepareRubricTasks,
  RUBRIC_TASK_FILTERS,
  type RubricTaskFilter,
} from "./prepareRubricTasks.ts";
import { rubricTime } from "./RubricHistory.tsx";
import styles from "./Rubrics.module.css";

/** Rows rendered at once; the rest are counted ("N of M"). */
const ROW_LIMIT = 200;

export default function RubricsPanel() {
  const dataset = useDataset();
  const book = useStore((s) => s.annotations.rubrics);
  const groups = useStore((s) => s.annotations.groups);
  const selectGroup = useStore((s) => s.selectGroup);
  const [filter, setFilter] = useState<RubricTaskFilter>("all");
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const filterId = useId();
  const searchId = useId();
  const summaries = dataset?.summaries;
  const ids = useMemo(() => summaries?.map((s) => s.id) ?? [], [summaries]);
  const tasks = useMemo(
    () => prepareRubricTasks(ids, book, groups, filter, deferredQuery, ROW_LIMIT),
    [ids, book, groups, filter, deferredQuery],
  );
  if (dataset === null) return null;
  return (
    <section className={styles.panel} aria-label="Rubrics" data-testid="rubrics.panel">
      <div className={styles.head}>
        <h2 className={styles.title}>Rubrics per task</h2>
        <span className={styles.muted} data-testid="rubrics.summary">
          {tasks.withRubric} of {tasks.tasks} tasks have a rubric; {tasks.staleLabels}{" "}
          {tasks.staleLabels === 1 ? "label was" : "labels were"} made under an older version.
          {tasks.elsewhere > 0
            ? ` ${tasks.elsewhere} rubric${tasks.elsewhere === 1 ? " is" : "s are"} for tasks not in this dataset.`
            : ""}
        </span>
      </div>
      <div className={styles.toolbar}>
        <label htmlFor={filterId}>Show</label>
        <select
          id={filterId}
          value={filter}
          data-testid="rubrics.filter"
          onChange={(e) => setFilter(e.currentTarget.value as RubricTaskFilter)}
        >
          {RUBRIC_TASK_FILTERS.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </select>
        <label htmlFor={searchId}>Task</label>
        <input
          id={searchId}
          type="search"
          value={query}
          placeholder="Search task ids"
          data-testid="rubrics.search"
          onChange={(e) => setQuery(e.currentTarget.value)}
        />
        {tasks.matching > tasks.rows.length ? (
          <span className={styles.muted} data-testid="rubrics.capped">
            showing {tasks.rows.length} of {tasks.matching}
          </span>
        ) : null}
      </div>
      {tasks.rows.length === 0 ? (
        <p className={styles.muted}>No task matches.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th>Task</th>
                <th>Rubric</th>
                <th>Saved</th>
                <th className={styles.num}>Solution</th>
                <th className={styles.num}>Behavior</th>
                <th className={styles.num}>Labels</th>
                <th className={styles.num}>Stale labels</th>
              </tr>
            </thead>
            <tbody>
              {tasks.rows.map((row) => (
                <tr key={row.task} data-testid="rubrics.row" data-task={row.task}>
                  <td>
                    <button
                      type="button"
                      className={styles.linkButton}
                      title="Open this group; its Rubric tab edits the rubric"
                      data-testid="rubrics.row.open"
                      onClick={() => selectGroup(row.task)}
                    >
                      {row.task}
                    </button>
                  </td>
                  <td data-testid="rubrics.row.status" data-version={row.version ?? 0}>
                    {row.status}
                  </td>
                  <td>{row.savedAt === null ? "" : rubricTime(row.savedAt)}</td>
                  <td className={styles.num}>{row.solution}</td>
                  <td className={styles.num}>{row.behavior}</td>
                  <td className={styles.num}>{row.labels}</td>
                  <td className={styles.num} data-testid="rubrics.row.stale">
                    {row.stale}
                    {row.stale > 0 ? <span className={styles.staleTag}>stale</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
