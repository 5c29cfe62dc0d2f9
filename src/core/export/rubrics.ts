/**
 * Rubrics as JSON keyed by task id: the mapping whileai's `GroupwiseGrading(mode="reward",
 * rubrics=...)` takes (methods.md 2.4). GroupwiseGrading hands each task's value unchanged to the
 * grader as `grader(item, rubric)`; here that value is the task's current rubric,
 * `{"solution": [...], "behavior": [...]}`, the solution and behavior criteria of MiMo-V2.6's
 * Groupwise Reward Synthesis (equation 2), so a grader reads `rubric["solution"]` and
 * `rubric["behavior"]`. Tasks without a rubric are absent; older versions stay in the annotations.
 */
import type { Rubric } from "../judge/rubric.ts";
import { rubricCurrent, type RubricBook } from "../judge/rubricBook.ts";
import type { GroupId, RolloutGroup } from "../types.ts";

/**
 * The current rubric of every task in the book: the tasks of the data first, in data order, then
 * any other task of the book in code-point order (so the output does not depend on how the book
 * object was built). JSON objects list integer-like keys first, in ascending order, whatever the
 * insertion order; that too is deterministic.
 */
export function exportRubrics(
  book: RubricBook,
  groups: readonly RolloutGroup[],
): Record<GroupId, Rubric> {
  const inData = groups.map((g) => g.id).filter((id) => Object.hasOwn(book, id));
  const known = new Set(inData);
  const others = Object.keys(book)
    .filter((id) => !known.has(id))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: Record<GroupId, Rubric> = {};
  for (const task of [...inData, ...others]) {
    const current = rubricCurrent(book, task);
    if (current !== null)
      out[task] = { solution: [...current.solution], behavior: [...current.behavior] };
  }
  return out;
}

/** The rubrics file's text: the mapping, indented by two spaces, ending in a newline. */
export function exportRubricsJson(rubrics: Readonly<Record<GroupId, Rubric>>): string {
  return `${JSON.stringify(rubrics, null, 2)}\n`;
}
