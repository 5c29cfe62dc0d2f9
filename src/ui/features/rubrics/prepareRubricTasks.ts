/**
 * The rubrics panel's view model: one row per task (group id) with its rubric status (none, or the
 * current version with its author and time), its criteria counts, its labels and how many of them
 * were made under an older rubric version. Filtered, then capped ("N of M" shown).
 */
import {
  rubricCurrent,
  rubricStaleLabels,
  type GroupAnnotation,
  type RubricBook,
} from "../../../core/index.ts";

export type RubricTaskFilter = "all" | "with-rubric" | "without-rubric" | "stale";

export const RUBRIC_TASK_FILTERS: readonly { id: RubricTaskFilter; label: string }[] = [
  { id: "all", label: "All tasks" },
  { id: "with-rubric", label: "With a rubric" },
  { id: "without-rubric", label: "Without a rubric" },
  { id: "stale", label: "With stale labels" },
];

export interface RubricTaskRow {
  readonly task: string;
  /** The current version, or null when the task has no rubric. */
  readonly version: number | null;
  readonly author: "human" | "judge" | null;
  readonly savedAt: string | null;
  readonly solution: number;
  readonly behavior: number;
  readonly labels: number;
  readonly stale: number;
  /** "none", or e.g. "version 2 (judge)". */
  readonly status: string;
}

export interface RubricTasks {
  readonly rows: readonly RubricTaskRow[];
  /** Rows that pass the filter (before the cap). */
  readonly matching: number;
  readonly tasks: number;
  readonly withRubric: number;
  readonly staleLabels: number;
  /** Tasks with a rubric that are not groups of the loaded dataset (an imported file's). */
  readonly elsewhere: number;
}

export function prepareRubricTasks(
  taskIds: readonly string[],
  book: RubricBook,
  groups: Readonly<Record<string, GroupAnnotation>>,
  filter: RubricTaskFilter,
  query: string,
  limit: number,
): RubricTasks {
  const all = taskIds.map((task): RubricTaskRow => {
    const current = rubricCurrent(book, task);
    const labels = Object.hasOwn(groups, task) ? groups[task]!.labels : {};
    return {
      task,
      version: current?.version ?? null,
      author: current?.author ?? null,
      savedAt: current?.savedAt ?? null,
      solution: current?.solution.length ?? 0,
      behavior: current?.behavior.length ?? 0,
      labels: Object.keys(labels).length,
      stale: rubricStaleLabels(book, task, labels).length,
      status: current === null ? "none" : `version ${current.version} (${current.author})`,
    };
  });
  const q = query.trim().toLowerCase();
  const matches = all.filter(
    (r) =>
      (q === "" || r.task.toLowerCase().includes(q)) &&
      (filter === "all" ||
        (filter === "with-rubric" && r.version !== null) ||
        (filter === "without-rubric" && r.version === null) ||
        (filter === "stale" && r.stale > 0)),
  );
  const known = new Set(taskIds);
  return {
    rows: matches.slice(0, Math.max(0, limit)),
    matching: matches.length,
    tasks: all.length,
    withRubric: all.filter((r) => r.version !== null).length,
    staleLabels: all.reduce((sum, r) => sum + r.stale, 0),
    elsewhere: Object.keys(book).filter((t) => !known.has(t) && rubricCurrent(book, t) !== null)
      .length,
  };
}
