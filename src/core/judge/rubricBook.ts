/**
 * Rubrics per task (the group key) for Groupwise Reward Synthesis, with their history: every save
 * appends a version, old versions are kept for the diff, and the human labels made while a version
 * was current remember it, so labels made under an older rubric can be marked.
 */
import type { GroupId, RolloutId } from "../types.ts";
import type { Rubric } from "./rubric.ts";

export interface RubricVersion extends Rubric {
  /** 1, 2, 3, … in order of saving. */
  readonly version: number;
  /** ISO 8601 time of the save. */
  readonly savedAt: string;
  /** Who wrote this version: the user, or the judge's draft (before the user edits it). */
  readonly author: "human" | "judge";
}

export interface TaskRubric {
  /** Oldest first; the last is current. Never empty. */
  readonly versions: readonly RubricVersion[];
  /** The rubric version current when each human label of this task was set. */
  readonly labelVersions: Readonly<Record<RolloutId, number>>;
}

/** Rubrics keyed by task id (the group id). */
export type RubricBook = Readonly<Record<GroupId, TaskRubric>>;

/** The current version of a task's rubric, or null when the task has none. */
export function rubricCurrent(book: RubricBook, task: GroupId): RubricVersion | null {
  const versions = Object.hasOwn(book, task) ? book[task]!.versions : [];
  return versions.length === 0 ? null : versions[versions.length - 1]!;
}

/** A rubric with every criterion trimmed and blank lines dropped (what an editor's lines mean). */
export function rubricClean(rubric: Rubric): Rubric {
  const clean = (list: readonly string[]): string[] =>
    list.map((c) => c.trim()).filter((c) => c !== "");
  return { solution: clean(rubric.solution), behavior: clean(rubric.behavior) };
}

/** Same criteria in the same order in both lists (authors and times are not compared). */
export function rubricEquals(a: Rubric, b: Rubric): boolean {
  const same = (x: readonly string[], y: readonly string[]): boolean =>
    x.length === y.length && x.every((c, i) => c === y[i]);
  return same(a.solution, b.solution) && same(a.behavior, b.behavior);
}

/** One version of a task's rubric, or null when the task has no such version. */
export function rubricVersionOf(
  book: RubricBook,
  task: GroupId,
  version: number,
): RubricVersion | null {
  const versions = Object.hasOwn(book, task) ? book[task]!.versions : [];
  return versions.find((v) => v.version === version) ?? null;
}

/**
 * Save a rubric for a task: the criteria are cleaned (`rubricClean`), and a new version n + 1 is
 * appended only when they differ from the current version's; otherwise the same book object comes
 * back (callers can test `next === book`). The labels' versions are kept, so labels made under the
 * previous version become stale (`rubricStaleLabels`).
 *
 * @param now the save time, stored as ISO 8601
 * @throws RangeError when the cleaned rubric has no criterion at all
 */
export function rubricSave(
  book: RubricBook,
  task: GroupId,
  rubric: Rubric,
  author: RubricVersion["author"],
  now: Date,
): RubricBook {
  const clean = rubricClean(rubric);
  if (clean.solution.length + clean.behavior.length === 0)
    throw new RangeError(`the rubric for task ${task} has no criterion`);
  const current = rubricCurrent(book, task);
  if (current !== null && rubricEquals(current, clean)) return book;
  const previous: TaskRubric = Object.hasOwn(book, task)
    ? book[task]!
    : { versions: [], labelVersions: {} };
  const version: RubricVersion = {
    version: (current?.version ?? 0) + 1,
    savedAt: now.toISOString(),
    author,
    solution: clean.solution,
    behavior: clean.behavior,
  };
  return { ...book, [task]: { ...previous, versions: [...previous.versions, version] } };
}

/** A line of a criteria list diff. */
export interface RubricDiffLine {
  readonly kind: "added" | "removed" | "unchanged";
  readonly text: string;
}

/**
 * A line diff from `from` to `to` over a longest common subsequence of equal lines: the unchanged
 * lines are as many as can be kept, and at each change the removed lines come before the added
 * ones. O(n x m) time and space; criteria lists are short.
 */
export function rubricLineDiff(from: readonly string[], to: readonly string[]): RubricDiffLine[] {
  const n = from.length;
  const m = to.length;
  // lcs[i * (m + 1) + j]: the LCS length of from[i..] and to[j..].
  const lcs = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number): number => lcs[i * (m + 1) + j]!;
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * (m + 1) + j] =
        from[i] === to[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
  const out: RubricDiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && from[i] === to[j]) {
      out.push({ kind: "unchanged", text: from[i]! });
      i++;
      j++;
    } else if (j >= m || (i < n && at(i + 1, j) >= at(i, j + 1))) {
      out.push({ kind: "removed", text: from[i]! });
      i++;
    } else {
      out.push({ kind: "added", text: to[j]! });
      j++;
    }
  }
  return out;
}

export interface RubricDiff {
  readonly solution: readonly RubricDiffLine[];
  readonly behavior: readonly RubricDiffLine[];
  /** Lines added and removed over both lists. */
  readonly added: number;
  readonly removed: number;
}

/** The line diff of both criteria lists from one rubric (version) to another. */
export function rubricDiff(from: Rubric, to: Rubric): RubricDiff {
  const solution = rubricLineDiff(from.solution, to.solution);
  const behavior = rubricLineDiff(from.behavior, to.behavior);
  const count = (kind: RubricDiffLine["kind"]): number =>
    [...solution, ...behavior].filter((l) => l.kind === kind).length;
  return { solution, behavior, added: count("added"), removed: count("removed") };
}

/** A human label made under an older rubric version than the current one. */
export interface RubricStaleLabel {
  readonly rolloutId: RolloutId;
  /** The version current when the label was set; null when the label predates every rubric. */
  readonly version: number | null;
}

/**
 * The labelled rollouts of a task whose label was made under an older rubric version than the
 * current one, or whose label has no recorded version although the task has a rubric (it was set
 * before the first version). Empty when the task has no rubric. In the order of `labels`' keys.
 *
 * @param labels the task's human labels by rollout id (only the keys are read)
 */
export function rubricStaleLabels(
  book: RubricBook,
  task: GroupId,
  labels: Readonly<Record<RolloutId, unknown>>,
): RubricStaleLabel[] {
  const current = rubricCurrent(book, task);
  if (current === null) return [];
  const recorded = book[task]!.labelVersions;
  const out: RubricStaleLabel[] = [];
  for (const rolloutId of Object.keys(labels)) {
    const version = Object.hasOwn(recorded, rolloutId) ? recorded[rolloutId]! : null;
    if (version === null || version < current.version) out.push({ rolloutId, version });
  }
  return out;
}

/**
 * Record that labels were re-checked under the current rubric: their versions become the current
 * one. The same book comes back when the task has no rubric or nothing changes.
 */
export function rubricConfirmLabels(
  book: RubricBook,
  task: GroupId,
  rolloutIds: readonly RolloutId[],
): RubricBook {
  const current = rubricCurrent(book, task);
  if (current === null) return book;
  const entry = book[task]!;
  const pending = rolloutIds.filter((id) => entry.labelVersions[id] !== current.version);
  if (pending.length === 0) return book;
  const labelVersions = { ...entry.labelVersions };
  for (const id of pending) labelVersions[id] = current.version;
  return { ...book, [task]: { ...entry, labelVersions } };
}
