/**
 * OpenHands evaluation output (All-Hands-AI/OpenHands): `output.jsonl`, one `EvalOutput` per line
 * (evaluation/utils/shared.py: `instance_id`, `instruction`, `test_result`, `metadata`, `history`,
 * `metrics`, `error`, `instance`, ...), `history` being the run's events as
 * openhands/events/serialization writes them (`event_to_dict`): every event has `id`, `timestamp`,
 * `source` (agent, user, environment) and `message`; an action has `action` and `args`, an
 * observation `observation`, `content`, `extras` and `cause` (the id of the action it answers); an
 * event the model produced through function calling has `tool_call_metadata` (`function_name`,
 * `tool_call_id`, `model_response` with the raw completion). Older outputs hold `history` as
 * `[action, observation]` pairs; both are read.
 *
 * - **Group.** `instance_id`; one line is one rollout (id `<instance_id>/<n>` in file order).
 * - **Messages.** `system` and `message` actions are system, user or assistant turns (by source;
 *   the text is `args.content`, else `message`). Every other action is a tool call: named by
 *   `tool_call_metadata.function_name` (else the action), with the arguments the model wrote
 *   (the matching `tool_calls[].function.arguments` of `model_response`, else `args` without
 *   `thought`), its id the tool call id (else `event-<id>`); the turn's text is the model's content,
 *   else `args.thought`, else (the agent's own actions only) the event's `message`. Calls of one model response (same `model_response.id`) are one turn.
 *   An observation is the tool result of the call it answers (`tool_call_metadata.tool_call_id`,
 *   else `event-<cause>`), named by its observation type; an `error` observation, or a non-zero
 *   `extras.metadata.exit_code`, is marked as a tool error. Agent state changes (and `null` events)
 *   are left out and counted in meta as `skipped_events`. The prompt is the turns before the first
 *   assistant turn (with none, every turn is the transcript: fields.ts `splitTranscript`); when
 *   no user turn states the task, `instruction` is the prompt.
 * - **Final text.** `test_result.git_patch` when it is text.
 * - **Reward.** `test_result.report.resolved` (1 or 0) when the line carries it (after OpenHands'
 *   eval_infer updates the output); else the `report.json` beside the file (evalReports.ts, applied
 *   to a run); else unscored (null), never 0.
 * - Everything else stays in meta: `test_result`, `metrics`, `metadata`, `instance`, `error`,
 *   `instruction`, and any other key.
 */
import type { ChatMessage, ToolCall } from "../../core/index.ts";
import { isPlainObject, notAnObject, omitKeys, splitTranscript } from "./fields.ts";
import type { RecordOutcome } from "./records.ts";
import type { FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";
import { message, text, toolCall } from "./trajectoryParts.ts";
import { idLike } from "./schemaParts.ts";
import { describeValue } from "./schemaParts.ts";

/** Detection: `instance_id` and a `history` list, with one of EvalOutput's other fields. */
function openhandsMatch(value: unknown): number {
  if (!isPlainObject(value) || !("instance_id" in value) || !Array.isArray(value.history)) return 0;
  return ["test_result", "instruction", "metrics", "metadata"].some((k) => k in value) ? 3 : 0;
}

/** An event id (`id`, `cause`): an integer or text, else null. */
const eventId = (v: unknown): string | null =>
  typeof v === "number" || (typeof v === "string" && v !== "") ? String(v) : null;

const SKIPPED = new Set(["change_agent_state", "agent_state_changed", "null"]);

/** The events of `history`, old `[action, observation]` pairs flattened. */
function events(history: readonly unknown[]): unknown[] {
  return history.flatMap((e) => (Array.isArray(e) ? (e as unknown[]) : [e]));
}

interface CallMeta {
  readonly name: string | null;
  readonly id: string | null;
  readonly responseId: string | null;
  /** The model's own text and this call's arguments, from `model_response`. */
  readonly content: string | null;
  readonly arguments: unknown;
}

function callMeta(event: Readonly<Record<string, unknown>>): CallMeta | null {
  const tcm = event.tool_call_metadata;
  if (!isPlainObject(tcm)) return null;
  const id = text(tcm.tool_call_id);
  const response = isPlainObject(tcm.model_response) ? tcm.model_response : null;
  let content: string | null = null;
  let args: unknown = undefined;
  const choices: unknown = response?.choices;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  if (isPlainObject(first) && isPlainObject(first.message)) {
    content = text(first.message.content);
    const calls: unknown = first.message.tool_calls;
    if (Array.isArray(calls))
      for (const c of calls as unknown[])
        if (isPlainObject(c) && c.id === id && isPlainObject(c.function))
          args = c.function.arguments;
  }
  return {
    name: text(tcm.function_name),
    id,
    responseId: response === null ? null : text(response.id),
    content,
    arguments: args,
  };
}

const eventText = (event: Readonly<Record<string, unknown>>, args: unknown): string =>
  (isPlainObject(args) ? text(args.content) : null) ?? text(event.message) ?? "";

const roleOf = (source: unknown): string =>
  source === "agent" ? "assistant" : source === "environment" ? "user" : "user";

/** Whether an observation reports a failure: an error observation or a non-zero exit code. */
function observationError(event: Readonly<Record<string, unknown>>): boolean {
  if (event.observation === "error") return true;
  const extras = isPlainObject(event.extras) ? event.extras : null;
  const meta = extras !== null && isPlainObject(extras.metadata) ? extras.metadata : null;
  const code = meta?.exit_code ?? extras?.exit_code;
  return typeof code === "number" && code > 0;
}

/** The transcript of a history; `skipped` counts the events left out by type. */
export function openhandsMessages(history: readonly unknown[]): {
  messages: ChatMessage[];
  skipped: Record<string, number>;
} {
  const messages: ChatMessage[] = [];
  const skipped: Record<string, number> = {};
  let lastResponse: string | null = null;
  const skip = (kind: string) => (skipped[kind] = (skipped[kind] ?? 0) + 1);
  for (const event of events(history)) {
    if (!isPlainObject(event)) {
      skip("not an object");
      continue;
    }
    const action = text(event.action);
    const observation = text(event.observation);
    const args = event.args;
    if (action !== null) {
      if (SKIPPED.has(action)) {
        skip(action);
        continue;
      }
      const meta = callMeta(event);
      if ((action === "system" || action === "message") && meta === null) {
        messages.push(
          message(action === "system" ? "system" : roleOf(event.source), eventText(event, args)),
        );
        lastResponse = null;
        continue;
      }
      const rest = isPlainObject(args) ? omitKeys(args, ["thought"]) : args;
      const call: ToolCall = toolCall(
        meta?.id ?? `event-${eventId(event.id) ?? messages.length}`,
        meta?.name ?? action,
        meta?.arguments ?? rest ?? {},
      );
      const thought = isPlainObject(args) ? text(args.thought) : null;
      const previous = messages[messages.length - 1];
      if (
        meta?.responseId != null &&
        meta.responseId === lastResponse &&
        previous !== undefined &&
        previous.role === "assistant"
      ) {
        messages[messages.length - 1] = { ...previous, toolCalls: [...previous.toolCalls, call] };
        continue;
      }
      // An action's `message` is OpenHands' own description of it ("Running command: ls"): the
      // agent's text when the model wrote none, but never a user's words (a `recall` the runtime
      // makes on the user's behalf says "Retrieving content for: …", which is not the task).
      const described = meta === null && event.source === "agent" ? text(event.message) : null;
      const said = meta?.content ?? thought ?? described ?? "";
      messages.push(message(roleOf(event.source), said, { toolCalls: [call] }));
      lastResponse = meta?.responseId ?? null;
      continue;
    }
    if (observation !== null) {
      if (SKIPPED.has(observation)) {
        skip(observation);
        continue;
      }
      const meta = callMeta(event);
      const cause = eventId(event.cause);
      const answers = meta?.id ?? (cause === null ? null : `event-${cause}`);
      messages.push(
        message(
          "tool",
          typeof event.content === "string" ? event.content : eventText(event, undefined),
          {
            toolCallId: answers,
            name: observation,
            error: observationError(event),
          },
        ),
      );
      lastResponse = null;
      continue;
    }
    skip("neither action nor observation");
  }
  return { messages, skipped };
}

/** `test_result.report.resolved` as a reward, when the line carries it. */
function resolvedReward(testResult: unknown): number | null {
  if (!isPlainObject(testResult) || !isPlainObject(testResult.report)) return null;
  const resolved = testResult.report.resolved;
  return typeof resolved === "boolean" ? (resolved ? 1 : 0) : null;
}

function openhandsRecord(ref: RecordRef, value: unknown): RecordOutcome {
  if (!isPlainObject(value)) return { ok: false, issues: [notAnObject(ref, value)] };
  const id = idLike.safeParse(value.instance_id);
  if (!id.success)
    return {
      ok: false,
      issues: [
        {
          ...ref,
          field: "instance_id",
          message:
            value.instance_id === undefined
              ? "is required (a non-empty string or an integer)"
              : `expected a non-empty string or an integer, got ${describeValue(value.instance_id)}`,
        },
      ],
    };
  if (!Array.isArray(value.history))
    return {
      ok: false,
      issues: [
        {
          ...ref,
          field: "history",
          message: `expected a list of events, got ${describeValue(value.history)}`,
        },
      ],
    };
  const { messages, skipped } = openhandsMessages(value.history);
  const split = splitTranscript(messages);
  const instruction = text(value.instruction);
  // The instruction is the task when no user turn before the first reply (or at all) states it.
  const prompt =
    instruction === null || split.lead.some((m) => m.role === "user")
      ? split.prompt
      : [...(split.prompt ?? []), message("user", instruction)];
  const testResult = value.test_result;
  const meta = omitKeys(value, ["instance_id", "history"]);
  if (Object.keys(skipped).length > 0) meta.skipped_events = skipped;
  return {
    ok: true,
    value: {
      groupId: String(id.data),
      id: null,
      prompt,
      messages: split.messages,
      completion: isPlainObject(testResult) ? text(testResult.git_patch) : null,
      reward: resolvedReward(testResult),
      rewards: {},
      answer: null,
      testsPassed: null,
      meta,
      source: ref,
      order: 0,
    },
  };
}

/** OpenHands evaluation `output.jsonl`; grouped by instance_id. */
export const openhandsFormat: FormatSpec = {
  ...FORMAT_INFO.openhands,
  groupKey: "instance_id",
  match: openhandsMatch,
  record: openhandsRecord,
};
