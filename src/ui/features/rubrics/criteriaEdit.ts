/**
 * The rubric editor's state and its edits, pure: two lists of lines (solution and behavior
 * criteria), each line with a stable key so React keeps an input (and its focus) with its text
 * when lines move. Saving turns the lines into a rubric with `criteriaRubric`.
 */
import { rubricClean, type Rubric } from "../../../core/index.ts";

export type CriteriaList = "solution" | "behavior";

export interface CriterionLine {
  readonly key: number;
  readonly text: string;
}

export interface CriteriaDraft {
  readonly solution: readonly CriterionLine[];
  readonly behavior: readonly CriterionLine[];
  /** The next unused line key. */
  readonly nextKey: number;
}

/** An editor state from a rubric (null: a new rubric, one empty line per list). */
export function criteriaFrom(rubric: Rubric | null): CriteriaDraft {
  let key = 0;
  const lines = (list: readonly string[]): CriterionLine[] =>
    (list.length === 0 ? [""] : list).map((text) => ({ key: key++, text }));
  const solution = lines(rubric?.solution ?? []);
  const behavior = lines(rubric?.behavior ?? []);
  return { solution, behavior, nextKey: key };
}

function withList(
  draft: CriteriaDraft,
  list: CriteriaList,
  lines: readonly CriterionLine[],
  nextKey = draft.nextKey,
): CriteriaDraft {
  return { ...draft, [list]: lines, nextKey };
}

/** Insert an empty line at `index` (clamped); the new line's key is the draft's `nextKey`. */
export function criteriaInsert(
  draft: CriteriaDraft,
  list: CriteriaList,
  index: number,
): CriteriaDraft {
  const lines = [...draft[list]];
  const at = Math.max(0, Math.min(lines.length, index));
  lines.splice(at, 0, { key: draft.nextKey, text: "" });
  return withList(draft, list, lines, draft.nextKey + 1);
}

export function criteriaSetText(
  draft: CriteriaDraft,
  list: CriteriaList,
  index: number,
  text: string,
): CriteriaDraft {
  const lines = draft[list];
  if (index < 0 || index >= lines.length || lines[index]!.text === text) return draft;
  return withList(
    draft,
    list,
    lines.map((l, i) => (i === index ? { ...l, text } : l)),
  );
}

/** Remove a line. The last line of a list is emptied instead, so a list always has one input. */
export function criteriaRemove(
  draft: CriteriaDraft,
  list: CriteriaList,
  index: number,
): CriteriaDraft {
  const lines = draft[list];
  if (index < 0 || index >= lines.length) return draft;
  if (lines.length === 1) return criteriaSetText(draft, list, 0, "");
  return withList(
    draft,
    list,
    lines.filter((_, i) => i !== index),
  );
}

/** Move a line one place up (-1) or down (+1); at either end, nothing changes. */
export function criteriaMove(
  draft: CriteriaDraft,
  list: CriteriaList,
  index: number,
  direction: -1 | 1,
): CriteriaDraft {
  const lines = [...draft[list]];
  const to = index + direction;
  if (index < 0 || index >= lines.length || to < 0 || to >= lines.length) return draft;
  [lines[index], lines[to]] = [lines[to]!, lines[index]!];
  return withList(draft, list, lines);
}

/** The rubric the lines say: trimmed, blank lines dropped. */
export function criteriaRubric(draft: CriteriaDraft): Rubric {
  return rubricClean({
    solution: draft.solution.map((l) => l.text),
    behavior: draft.behavior.map((l) => l.text),
  });
}

/** Criteria that appear more than once in their list (after trimming), for a warning. */
export function criteriaRepeats(draft: CriteriaDraft): string[] {
  const rubric = criteriaRubric(draft);
  const out = new Set<string>();
  for (const list of [rubric.solution, rubric.behavior])
    list.forEach((c, i) => {
      if (list.indexOf(c) !== i) out.add(c);
    });
  return [...out];
}
