/**
 * NVIDIA NeMo Gym rollouts (NVIDIA-NeMo/Gym, `ng_collect_rollouts`): one JSON object per line, the
 * resource server's verify response (`nemo_gym/base_resources_server.py` `BaseVerifyResponse`):
 * `responses_create_params` (the OpenAI Responses API request: `input`, `instructions`, `tools`,
 * sampling), `response` (the Responses API response: `output[]` items, `model`, `usage`),
 * `reward`, whatever the server adds (`info`, `terminated`, ...), and the collection's
 * `_ng_task_index` / `_ng_rollout_index` (`nemo_gym/rollout_collection.py`), with `agent_ref`.
 *
 * - **Prompt.** `responses_create_params.instructions` (a system turn) and `.input`: text (one user
 *   turn) or Responses input items (messages, and earlier calls and their outputs).
 * - **Transcript.** `response.output`: `message` items (`output_text` parts), `function_call`
 *   {call_id, name, arguments JSON text}, `function_call_output` {call_id, output}, `reasoning`
 *   (its summary), and user turns a multi-turn environment adds (messages.ts reads them all).
 * - **Group.** `_ng_task_index` when present (rollouts ordered by `_ng_rollout_index`); else rows
 *   with equal prompts form a group (`prompt-<12 hex>` of the prompt messages).
 * - **Reward.** `reward` (a number or null).
 * - Everything else is kept in meta: the request without its input, the response without its
 *   output, and every other top-level field.
 *
 * Detection: 3 for an object with `responses_create_params` and `response` objects; nothing else
 * writes these.
 */
import type { ChatMessage } from "../../core/index.ts";
import type { ParseIssue } from "../issues.ts";
import {
  integerLike,
  isPlainObject,
  messagesHash,
  notAnObject,
  omitKeys,
  optionalReward,
  schemaIssues,
} from "./fields.ts";
import { messagesSchema } from "./messages.ts";
import type { RecordOutcome } from "./records.ts";
import { describeValue } from "./schemaParts.ts";
import type { FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";

function nemoGymMatch(value: unknown): number {
  return isPlainObject(value) &&
    isPlainObject(value.responses_create_params) &&
    isPlainObject(value.response)
    ? 3
    : 0;
}

/** Responses items (or text, one user turn) as chat messages; issues under `field`. */
function items(ref: RecordRef, field: string, value: unknown, issues: ParseIssue[]): ChatMessage[] {
  if (typeof value === "string")
    return [{ role: "user", content: value, toolCalls: [], toolCallId: null, name: null }];
  const parsed = messagesSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  issues.push(
    ...(Array.isArray(value)
      ? schemaIssues(ref, parsed.error, field)
      : [
          {
            ...ref,
            field,
            message:
              value === undefined
                ? "is required (text or Responses API items)"
                : `expected text or a list of Responses API items, got ${describeValue(value)}`,
          },
        ]),
  );
  return [];
}

/** An index column as a number, or an issue; undefined when absent. */
function indexCell(
  ref: RecordRef,
  field: string,
  value: unknown,
  issues: ParseIssue[],
): number | null {
  if (value === undefined || value === null) return null;
  const parsed = integerLike.safeParse(value);
  if (parsed.success) return parsed.data;
  issues.push({ ...ref, field, message: parsed.error.issues[0]!.message });
  return null;
}

function nemoGymRecord(ref: RecordRef, value: unknown): RecordOutcome {
  if (!isPlainObject(value)) return { ok: false, issues: [notAnObject(ref, value)] };
  const issues: ParseIssue[] = [];
  const params = value.responses_create_params;
  const response = value.response;
  if (!isPlainObject(params))
    issues.push({
      ...ref,
      field: "responses_create_params",
      message: `expected the Responses API request (an object), got ${describeValue(params)}`,
    });
  if (!isPlainObject(response))
    issues.push({
      ...ref,
      field: "response",
      message: `expected the Responses API response (an object), got ${describeValue(response)}`,
    });
  if (!isPlainObject(params) || !isPlainObject(response)) return { ok: false, issues };

  const prompt = items(ref, "responses_create_params.input", params.input, issues);
  if (typeof params.instructions === "string" && params.instructions !== "")
    prompt.unshift({
      role: "system",
      content: params.instructions,
      toolCalls: [],
      toolCallId: null,
      name: null,
    });
  const transcript = items(ref, "response.output", response.output, issues);
  const task = indexCell(ref, "_ng_task_index", value._ng_task_index, issues);
  const order = indexCell(ref, "_ng_rollout_index", value._ng_rollout_index, issues);
  const reward = optionalReward(ref, "reward", value.reward, issues);
  if (issues.length > 0) return { ok: false, issues };

  const meta = omitKeys(value, ["responses_create_params", "response", "reward", "_ng_task_index"]);
  meta.responses_create_params = omitKeys(params, ["input", "instructions"]);
  meta.response = omitKeys(response, ["output"]);
  return {
    ok: true,
    value: {
      groupId: task === null ? `prompt-${messagesHash(prompt)}` : String(task),
      id: null,
      prompt,
      messages: transcript,
      completion: null,
      reward,
      rewards: {},
      answer: null,
      testsPassed: null,
      meta,
      source: ref,
      order: order ?? 0,
    },
  };
}

/** NeMo Gym rollouts: Responses API transcripts, grouped by task. */
export const nemoGymFormat: FormatSpec = {
  ...FORMAT_INFO.nemoGym,
  groupKey: "_ng_task_index (ordered by _ng_rollout_index), else equal prompts",
  match: nemoGymMatch,
  record: nemoGymRecord,
};
