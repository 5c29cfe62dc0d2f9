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
