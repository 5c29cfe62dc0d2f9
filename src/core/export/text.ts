/**
 * Shared pieces of the training exports (src/core/export): how a prompt becomes text, JSONL
 * serialisation, the typed error every builder throws, and the look-ups of judge runs and rollouts.
 */
import type { JudgeMode, JudgeRun } from "../judge/runs.ts";
import type { ChatMessage, RolloutGroup, RolloutId } from "../types.ts";

/**
 * A problem that stops an export: the annotations ask for something they do not hold (an unknown
 * judge run, a run of the wrong mode) or a judge run names a rollout the data does not have.
 * `field` is the dotted path in the annotations document, for "file: field: message".
 */
export class ExportError extends Error {
  override name = "ExportError";
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

/**
 * The prompt as one text, for the `prompt` field of every export: a text prompt as it is; a chat
 * prompt of one message is that message's content (so a TRL standard-format prompt keys the same
 * way); a longer chat prompt is every message as `role: content`, separated by a blank line.
 * No prompt gives "".
 */
export function exportPromptText(prompt: string | readonly ChatMessage[] | null): string {
  if (prompt === null) return "";
  if (typeof prompt === "string") return prompt;
  if (prompt.length === 1) return prompt[0]!.content;
  return prompt.map((m) => `${m.role}: ${m.content}`).join("\n\n");
}

/** JSON Lines: one compact JSON object per row, each ending in "\n" (no rows: ""). */
export function exportJsonl(rows: readonly object[]): string {
  return rows.map((row) => `${JSON.stringify(row)}\n`).join("");
}

/** A number for JSON: finite as it is, NaN or an infinity as null (JSON has no NaN). */
export function exportNumber(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/**
 * The judge run an export reads: the run with `id`, or, when `id` is null, the newest run whose
 * mode is one of `modes` (null when there is none).
 *
 * @throws ExportError when `id` names no run, or a run whose mode is not one of `modes`
 */
export function exportJudgeRun(
  runs: readonly JudgeRun[],
  id: string | null,
  modes: readonly JudgeMode[],
): JudgeRun | null {
  if (id === null) {
    for (let i = runs.length - 1; i >= 0; i--)
      if (modes.includes(runs[i]!.info.mode)) return runs[i]!;
    return null;
  }
  const at = runs.findIndex((r) => r.info.id === id);
  if (at === -1) {
    const known = runs.map((r) => r.info.id);
    throw new ExportError(
      "judgeRuns",
      `no judge run has id "${id}" (${known.length === 0 ? "there are no runs" : `runs: ${known.join(", ")}`})`,
    );
  }
  const run = runs[at]!;
  if (!modes.includes(run.info.mode))
    throw new ExportError(
      `judgeRuns[${at}].info.mode`,
      `judge run "${id}" is a ${run.info.mode} run; this export needs a ${modes.join(" or ")} run`,
    );
  return run;
}

/**
 * Indices of rollout ids within a group, for a judge run's ids.
 *
 * @throws ExportError naming the run's field when an id is not in the group
 */
export function exportIndices(
  group: RolloutGroup,
  ids: readonly RolloutId[],
  field: string,
): number[] {
  return ids.map((id) => {
    const i = group.rollouts.findIndex((r) => r.id === id);
    if (i === -1)
      throw new ExportError(field, `names rollout "${id}", which is not in group "${group.id}"`);
    return i;
  });
}

/** The field path of a judge run's group result, e.g. `judgeRuns[0].groups.g1`. */
export function exportRunField(runs: readonly JudgeRun[], run: JudgeRun, groupId: string): string {
  return `judgeRuns[${runs.indexOf(run)}].groups.${groupId}`;
}
