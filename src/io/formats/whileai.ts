/**
 * whileai rows (whilehq/whileai-sdk, `whileai/simulations/schemas/row-v1.json` and `schema.py`;
 * methods.md 2.8): one JSONL row per rollout.
 *
 * **Version 1** (`schema_version: "1"`): required `prompt`, `steps`, `final_text`. A step is
 * `{user}`, `{tool, arguments, result, text?}` or `{text}`. `scenario_id` is the group key and
 * `rollout_index` the position in the group; `reward` (number or null) is the reward; `reason`,
 * `judge_name`, `judge_status`, `gold_reward` (the trusted 0/1 label, for judge calibration),
 * `gold_labels`, `markers`, `model_version`, `finish_reason`, `group_id` and any other key stay in
 * meta.
 *
 * **Legacy rows** (version 0, no stamp) are recognised by their keys in the SDK's own order
 * (`schema.detect_shape`): `hf_flat` (`steps_json` / `messages_json` / `metadata_json` text columns,
 * parsed here), `training` (`messages` without `steps` or `final_text`), `engine` (`scenario_id`),
 * `platform_pull` (`tool_trace` of `{tool, input, output}` without `steps`), `otel`
 * (`conversation_id`). They are read like version 1 with the SDK's lenient rules (a boolean or
 * numeric-text reward is a number); what cannot be read (unparseable `*_json`, a row with no prompt,
 * steps or messages at all) is reported, and the shape is kept in meta as `whileaiShape`.
 *
 * - **Transcript.** `messages` when the row carries them (the SDK's export does the same), else the
 *   SDK's `conversation()` rule: `opener` (assistant), the prompt (user), then per step a user turn,
 *   an assistant turn with the tool call plus a tool turn with the result (JSON text unless it is
 *   text already), or an assistant text turn; `final_text` is appended as the last assistant turn
 *   unless an assistant turn already says it. Unlike the SDK, trailing user turns are kept. The
 *   prompt is the messages before the first assistant turn (the prompt text when that is empty);
 *   per-step sampling facts (`logprob`, `n_tokens`, ...) are kept in meta as `step_extras`.
 * - **Group.** `scenario_id`; without one, the SDK's `task_<first 12 hex of sha256(prompt)>` (the
 *   first user message stands in for a missing prompt).
 * - **Id / order.** `rollout_id` (or OTel's `conversation_id`) when present, else
 *   `<group>/<rollout_index>`; rollouts are ordered by `rollout_index`.
 */
import { z } from "zod";
import type { ChatMessage } from "../../core/index.ts";
import type { ParseIssue } from "../issues.ts";
import {
  expected,
  integerLike,
  isPlainObject,
  notAnObject,
  numericCell,
  omitKeys,
  schemaIssues,
  splitTranscript,
} from "./fields.ts";
import { shortHash } from "./hash.ts";
import { messagesSchema } from "./messages.ts";
import type { RecordOutcome } from "./records.ts";
import { describeValue, finiteNumber, idLike } from "./schemaParts.ts";
import type { FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";

type Shape = "v1" | "hf_flat" | "training" | "engine" | "platform_pull" | "otel";

const JSON_TEXT_KEYS = ["steps_json", "messages_json", "metadata_json"] as const;

const stepSchema = z
  .looseObject({
    user: z.string({ error: expected("text") }).optional(),
    tool: z.string({ error: expected("the tool's name") }).optional(),
    arguments: z.unknown().optional(),
    result: z.unknown().optional(),
    text: z
      .string({ error: expected("text") })
      .nullable()
      .optional(),
  })
  .refine((s) => s.user !== undefined || s.tool !== undefined || s.text != null, {
    error: "expected a step: {user}, {tool, arguments, result, text?} or {text}",
  });

const toolTraceSchema = z.array(
  z.looseObject({
    tool: z.string({ error: expected("the tool's name") }),
    input: z.unknown().optional(),
    output: z.unknown().optional(),
  }),
  { error: expected("a list of {tool, input, output}") },
);

const rowFields = {
  prompt: z.string({ error: expected("the prompt text") }),
  steps: z.array(stepSchema, { error: expected("a list of steps") }),
  final_text: z.string({ error: expected("the final reply text") }),
  scenario_id: idLike.optional(),
  rollout_index: integerLike.optional(),
  rollout_id: idLike.optional(),
  conversation_id: idLike.optional(),
  opener: z.string({ error: expected("text") }).optional(),
  messages: messagesSchema.optional(),
};

/** Version 1: the schema's required fields and a reward that is a number or null. */
const v1Schema = z.looseObject({
  ...rowFields,
  reward: finiteNumber.nullable().optional(),
  tool_trace: toolTraceSchema.optional(),
});

/** Version 0: every field optional; the reward is checked by legacyReward. */
const legacySchema = z.looseObject({
  ...rowFields,
  prompt: rowFields.prompt.optional(),
  steps: rowFields.steps.optional(),
  final_text: rowFields.final_text.optional(),
  tool_trace: toolTraceSchema.optional(),
});

type LegacyRow = z.infer<typeof legacySchema>;

/** The SDK's `detect_shape`, for rows without a version stamp; null for none of them. */
function legacyShape(row: Record<string, unknown>): Shape | null {
  if (JSON_TEXT_KEYS.some((k) => typeof row[k] === "string")) return "hf_flat";
  const hasSteps = Array.isArray(row.steps) && row.steps.length > 0;
  if (Array.isArray(row.messages) && row.messages.length > 0 && !hasSteps && !("final_text" in row))
    return "training";
  if (row.scenario_id !== undefined && row.scenario_id !== null) return "engine";
  if (Array.isArray(row.tool_trace) && !hasSteps) return "platform_pull";
  if (row.conversation_id !== undefined && row.conversation_id !== null) return "otel";
  return null;
}

/**
 * Detection. 3: a `schema_version` stamp (only whileai writes it); 2: a legacy shape's marker key
 * (`scenario_id`, `tool_trace`, `*_json` text columns, `conversation_id`).
 */
function whileaiMatch(value: unknown): number {
  if (!isPlainObject(value)) return 0;
  if ("schema_version" in value) return 3;
  const shape = legacyShape(value);
  if (shape === null) return 0;
  // A training export is an OpenAI chat row; it is whileai's only with its scenario_id.
  return shape === "training" && value.scenario_id == null ? 0 : 2;
}

type Step = z.infer<typeof stepSchema>;

const STEP_KEYS = new Set(["user", "tool", "arguments", "result", "text"]);

const asText = (value: unknown): string =>
  typeof value === "string" ? value : (JSON.stringify(value) ?? "null");

function message(role: string, content: string, extra: Partial<ChatMessage> = {}): ChatMessage {
  return { role, content, toolCalls: [], toolCallId: null, name: null, ...extra };
}

/** The SDK's `conversation(row)`, keeping trailing user turns. */
function conversation(
  opener: string | undefined,
  prompt: string | undefined,
  steps: readonly Step[],
  finalText: string | undefined,
): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (opener) out.push(message("assistant", opener));
  if (prompt) out.push(message("user", prompt));
  for (const step of steps) {
    if (step.user) {
      out.push(message("user", step.user));
      continue;
    }
    const spoken = step.text ?? "";
    if (step.tool) {
      out.push(
        message("assistant", spoken, {
          toolCalls: [{ id: null, name: step.tool, arguments: asText(step.arguments ?? {}) }],
        }),
      );
      out.push(message("tool", asText(step.result ?? null), { name: step.tool }));
    } else if (spoken) out.push(message("assistant", spoken));
  }
  if (finalText) {
    const said = out.some((m) => m.role === "assistant" && m.content === finalText);
    const last = out[out.length - 1];
    if (said) return out;
    if (last?.role === "assistant" && last.content.trim() === "") {
      out[out.length - 1] = { ...last, content: finalText };
    } else out.push(message("assistant", finalText));
  }
  return out;
}

/** A legacy reward: the SDK's `_number` (booleans are 0/1, numeric text is parsed). */
function legacyReward(
  ref: RecordRef,
  value: unknown,
): { ok: true; value: number | null } | { ok: false; issue: ParseIssue } {
  if (typeof value === "boolean") return { ok: true, value: value ? 1 : 0 };
  const cell = numericCell(value);
  if (cell.kind === "number") return { ok: true, value: cell.value };
  if (cell.kind === "missing") return { ok: true, value: null };
  return {
    ok: false,
    issue: {
      ...ref,
      field: "reward",
      message: `expected a finite number or null, got ${describeValue(value)}`,
    },
  };
}

/** Parse the hf_flat `*_json` text columns in place of their list/object columns. */
function unflatten(
  ref: RecordRef,
  row: Record<string, unknown>,
): { ok: true; row: Record<string, unknown> } | { ok: false; issues: ParseIssue[] } {
  const out: Record<string, unknown> = { ...row };
  const issues: ParseIssue[] = [];
  for (const key of JSON_TEXT_KEYS) {
    const text = row[key];
    if (typeof text !== "string") continue;
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch (e) {
      issues.push({
        ...ref,
        field: key,
        message: `not valid JSON text (${e instanceof Error ? e.message : String(e)})`,
      });
      continue;
    }
    delete out[key];
    const target = key.slice(0, -"_json".length);
    if (out[target] === undefined || out[target] === null) out[target] = value;
    else out[`${key}_parsed`] = value;
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, row: out };
}

function whileaiRecord(ref: RecordRef, value: unknown): RecordOutcome {
  if (!isPlainObject(value)) return { ok: false, issues: [notAnObject(ref, value)] };
  let shape: Shape;
  let source: Record<string, unknown> = value;
  if ("schema_version" in value) {
    const version = value.schema_version;
    if (version !== "1" && version !== 1) {
      return {
        ok: false,
        issues: [
          {
            ...ref,
            field: "schema_version",
            message: `unsupported whileai row version ${describeValue(version)}; the studio reads version "1" and the unstamped legacy shapes`,
          },
        ],
      };
    }
    shape = "v1";
  } else {
    const legacy = legacyShape(value);
    if (legacy === null) {
      return {
        ok: false,
        issues: [
          {
            ...ref,
            message:
              "not a whileai row: no schema_version, and none of the legacy keys (scenario_id, tool_trace, steps_json/messages_json/metadata_json, conversation_id, messages)",
          },
        ],
      };
    }
    shape = legacy;
    if (shape === "hf_flat") {
      const flat = unflatten(ref, value);
      if (!flat.ok) return { ok: false, issues: flat.issues };
      source = flat.row;
    }
  }

  let row: LegacyRow;
  let reward: number | null;
  if (shape === "v1") {
    const parsed = v1Schema.safeParse(source);
    if (!parsed.success) return { ok: false, issues: schemaIssues(ref, parsed.error) };
    row = parsed.data;
    reward = parsed.data.reward ?? null;
  } else {
    const parsed = legacySchema.safeParse(source);
    if (!parsed.success) return { ok: false, issues: schemaIssues(ref, parsed.error) };
    row = parsed.data;
    const r = legacyReward(ref, parsed.data.reward);
    if (!r.ok) return { ok: false, issues: [r.issue] };
    reward = r.value;
  }

  const steps: Step[] =
    row.steps ??
    (row.tool_trace ?? []).map((t) => ({ tool: t.tool, arguments: t.input, result: t.output }));
  const carried = row.messages !== undefined && row.messages.length > 0 ? row.messages : null;
  const fromMessages = carried !== null;
  const transcript =
    carried !== null ? carried : conversation(row.opener, row.prompt, steps, row.final_text);
  if (transcript.length === 0) {
    return {
      ok: false,
      issues: [
        {
          ...ref,
          message: `this ${shape === "v1" ? "row" : `legacy (${shape}) row`} has no prompt, steps, final_text or messages: nothing to show`,
        },
      ],
    };
  }
  const { prompt, messages } = splitTranscript(transcript);
  const promptText = row.prompt ?? transcript.find((m) => m.role === "user")?.content ?? "";
  const groupId =
    row.scenario_id !== undefined ? String(row.scenario_id) : `task_${shortHash(promptText)}`;
  const id =
    row.rollout_id !== undefined
      ? String(row.rollout_id)
      : row.conversation_id !== undefined
        ? String(row.conversation_id)
        : row.rollout_index !== undefined
          ? `${groupId}/${row.rollout_index}`
          : null;

  // The prompt text is consumed when it built the transcript or stands in as the prompt.
  const promptUsed = !fromMessages || prompt === null;
  const consumed = [
    "schema_version",
    ...(promptUsed ? ["prompt"] : []),
    "scenario_id",
    "rollout_id",
    "reward",
    ...(fromMessages ? ["messages"] : ["steps", "tool_trace", "final_text", "opener"]),
  ];
  const meta: Record<string, unknown> = omitKeys(row, consumed);
  if (!fromMessages) {
    const extras = steps
      .map((s, index) => ({ index, ...omitKeys(s, STEP_KEYS) }))
      .filter((e) => Object.keys(e).length > 1);
    if (extras.length > 0) meta.step_extras = extras;
  }
  if (shape !== "v1") meta.whileaiShape = shape;

  return {
    ok: true,
    value: {
      groupId,
      id,
      prompt: prompt ?? row.prompt ?? null,
      messages,
      completion: null,
      reward,
      rewards: {},
      answer: null,
      testsPassed: null,
      meta,
      source: ref,
      order: row.rollout_index ?? 0,
    },
  };
}

/** whileai rows, version 1 and the legacy shapes; grouped by scenario_id. */
export const whileaiFormat: FormatSpec = {
  ...FORMAT_INFO.whileai,
  groupKey: "scenario_id (rollout_index in order)",
  match: whileaiMatch,
  record: whileaiRecord,
};
