/**
 * Shared pieces of the training exports (src/core/export): how a prompt and a transcript become
 * message lists (TRL's conversational form) or text, JSONL serialisation, the typed error every
 * builder throws, and the look-ups of judge runs and rollouts.
 */
import { rolloutText, type CompletionRule } from "../analysis/text.ts";
import type { JudgeMode, JudgeRun } from "../judge/runs.ts";
import type { ChatMessage, Rollout, RolloutGroup, RolloutId } from "../types.ts";

/**
 * How the exports write a chat transcript: "messages" (default), its prompt and completion as
 * message lists, TRL's conversational form with the tool calls; "text" (`--text`), the prompt as
 * text and the completion as the text judges read under the completion rule. A rollout the source
 * gave as plain text (a `completion` string) is text in both forms.
 */
export type TranscriptForm = "messages" | "text";
export const TRANSCRIPT_FORMS: readonly TranscriptForm[] = ["messages", "text"];

/** A tool call in OpenAI's form; `arguments` is the JSON text exactly as the source gave it. */
export interface ExportToolCall {
  /** Absent when the source has no call id (TRL's calls). */
  readonly id?: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}

/**
 * One message as TRL's conversational datasets and chat templates take it: `role` and `content`
 * (text; "" for an assistant turn that only calls tools), with `tool_calls` on a turn that makes
 * calls and `tool_call_id` / `name` on a tool result when the source says them.
 */
export interface ExportMessage {
  readonly role: string;
  readonly content: string;
  readonly tool_calls?: readonly ExportToolCall[];
  readonly tool_call_id?: string;
  readonly name?: string;
}

/** A message in the export's form (keys absent rather than null, in a fixed order). */
export function exportMessage(m: ChatMessage): ExportMessage {
  return {
    role: m.role,
    content: m.content,
    ...(m.toolCalls.length === 0
      ? {}
      : {
          tool_calls: m.toolCalls.map((c): ExportToolCall => ({
            ...(c.id === null ? {} : { id: c.id }),
            type: "function",
            function: { name: c.name, arguments: c.arguments },
          })),
        }),
    ...(m.toolCallId === null ? {} : { tool_call_id: m.toolCallId }),
    ...(m.name === null ? {} : { name: m.name }),
  };
}

/** A chat transcript: the source gave messages, not a completion text. */
export function exportIsChat(rollout: Rollout): boolean {
  return rollout.completion === null;
}

/**
 * A rollout as TRL's prompt / completion message lists. A text prompt is one user message; with
 * no prompt, the messages before the first assistant turn are the prompt (as the loaders split a
 * conversation), and the rest the completion. A plain-text completion (only paired with a chat
 * transcript, see exportDpo) is one assistant message.
 */
export function exportConversation(rollout: Rollout): {
  readonly prompt: ExportMessage[];
  readonly completion: ExportMessage[];
} {
  const { prompt } = rollout;
  const messages: readonly ChatMessage[] =
    rollout.completion === null
      ? rollout.messages
      : [
          {
            role: "assistant",
            content: rollout.completion,
            toolCalls: [],
            toolCallId: null,
            name: null,
          },
        ];
  if (prompt === null) {
    const first = messages.findIndex((m) => m.role === "assistant");
    const split = first === -1 ? 0 : first;
    return {
      prompt: messages.slice(0, split).map(exportMessage),
      completion: messages.slice(split).map(exportMessage),
    };
  }
  return {
    prompt:
      typeof prompt === "string" ? [{ role: "user", content: prompt }] : prompt.map(exportMessage),
    completion: messages.map(exportMessage),
  };
}

/**
 * A row's `prompt` and `completion` in the chosen form: message lists for a chat rollout in the
 * "messages" form, else text (`exportPromptText`, and `rolloutText` under the completion rule).
 */
export function exportPromptCompletion(
  rollout: Rollout,
  form: TranscriptForm,
  rule: CompletionRule,
): {
  readonly prompt: string | ExportMessage[];
  readonly completion: string | ExportMessage[];
} {
  if (form === "messages" && exportIsChat(rollout)) return exportConversation(rollout);
  return { prompt: exportPromptText(rollout.prompt), completion: rolloutText(rollout, rule) };
}

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
