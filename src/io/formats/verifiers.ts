/**
 * PrimeIntellect verifiers `vf-eval` output: `results.jsonl`, one rollout per line, with the
 * `metadata.json` beside it as the run's header. Field lists, from PrimeIntellect-ai/verifiers:
 *
 * - 0.1.x `verifiers/utils/eval_utils.py` (`prepare_dataset` / `make_dataset`): `id` (the example's
 *   index, `i // rollouts_per_example`), `prompt`, `completion` (both run through
 *   `sanitize_tool_calls`, so each tool call is a JSON string), `task`, `generation_ms`,
 *   `scoring_ms`, `total_ms`, `info` and `answer` when set, `reward`, then one column per reward
 *   function (`results.metrics`);
 * - later eval_utils: `example_id` instead of `id`, the same columns;
 * - current `verifiers/utils/save_utils.py` (`state_to_output`, RolloutOutput): `example_id`,
 *   `prompt`, `completion`, `answer`, `info`, `reward`, `error`, `timing` {generation_ms, ...},
 *   `is_completed`, `is_truncated`, `stop_condition`, `metrics` {...}, `tool_defs`, `token_usage`,
 *   plus each metric flattened to a top-level column ("backwards compatibility") and any
 *   `state_columns`.
 *
 * Prompts and completions are message lists (chat environments) or text (completion
 * environments). Multi-turn environments put the environment's replies in the completion as user
 * or tool turns.
 *
 * - **Group.** `example_id`, else the older `id`.
 * - **Prompt / transcript.** `prompt` as given; `completion` as the transcript (or the text).
 * - **Reward.** `reward`, the rubric's weighted sum. Every other numeric top-level column (the
 *   reward functions and metrics, a metric written as Python's `NaN` as null) is a named component;
 *   the timing columns are not.
 * - `answer` (the ground truth), `info`, `task` and every other field are kept in meta.
 *
 * Detection: 3 for `prompt` + `completion` + `reward` + `example_id` (or `id` with `task`), 2
 * without `reward`. TRL's table has text `prompt`/`completion` with `step` or `advantage` and no
 * example key; a row with `advantage` scores 1 here, so TRL's 3 wins. A row with `group_id` is
 * native's.
 */
import { z } from "zod";
import type { ChatMessage } from "../../core/index.ts";
import type { ParseIssue } from "../issues.ts";
import { isPlainObject, notAnObject, omitKeys, optionalReward, schemaIssues } from "./fields.ts";
import { messagesSchema } from "./messages.ts";
import type { RecordOutcome } from "./records.ts";
import { describeValue, idLike } from "./schemaParts.ts";
import type { FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";

/** Columns with a fixed meaning: never reward components. */
const FIXED = new Set([
  "example_id",
  "id",
  "prompt",
  "completion",
  "reward",
  "answer",
  "info",
  "task",
  "generation_ms",
  "scoring_ms",
  "total_ms",
  "error",
  "timing",
  "is_completed",
  "is_truncated",
  "stop_condition",
  "metrics",
  "tool_defs",
  "token_usage",
]);

function verifiersMatch(value: unknown): number {
  if (!isPlainObject(value) || !("prompt" in value) || !("completion" in value)) return 0;
  if ("group_id" in value) return 0;
  const keyed = "example_id" in value || ("id" in value && "task" in value);
  if (!keyed) return 0;
  if ("advantage" in value || "step" in value) return 1;
  return "reward" in value ? 3 : 2;
}

/** A prompt or completion: text, a message list in any dialect, or nothing (an errored rollout). */
function turns(
  ref: RecordRef,
  field: string,
  value: unknown,
  issues: ParseIssue[],
): string | ChatMessage[] | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    const parsed = messagesSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    issues.push(...schemaIssues(ref, parsed.error, field));
    return null;
  }
  issues.push({
    ...ref,
    field,
    message: `expected text or a list of chat messages, got ${describeValue(value)}`,
  });
  return null;
}

function verifiersRecord(ref: RecordRef, value: unknown): RecordOutcome {
  if (!isPlainObject(value)) return { ok: false, issues: [notAnObject(ref, value)] };
  const issues: ParseIssue[] = [];
  const keyField = value.example_id !== undefined ? "example_id" : "id";
  const key = idLike.safeParse(value[keyField]);
  if (!key.success)
    issues.push({
      ...ref,
      field: keyField,
      message:
        value[keyField] === undefined
          ? "is required (example_id, or the older id)"
          : key.error.issues[0]!.message,
    });
  const prompt = turns(ref, "prompt", value.prompt, issues);
  const completion = turns(ref, "completion", value.completion, issues);

  const reward = optionalReward(ref, "reward", value.reward, issues);
  const rewards: Record<string, number | null> = {};
  for (const [k, cell] of Object.entries(value)) {
    if (FIXED.has(k)) continue;
    if (typeof cell === "number" && Number.isFinite(cell)) rewards[k] = cell;
    // Python's json.dumps writes a NaN metric as NaN, read as the text "NaN": not applicable.
    else if (cell === "NaN") rewards[k] = null;
  }
  if (issues.length > 0 || !key.success) return { ok: false, issues };

  return {
    ok: true,
    value: {
      groupId: String(key.data),
      id: null,
      prompt,
      messages: Array.isArray(completion) ? completion : [],
      completion: typeof completion === "string" ? completion : null,
      reward,
      rewards,
      answer: null,
      testsPassed: null,
      meta: omitKeys(value, [keyField, "prompt", "completion", "reward", ...Object.keys(rewards)]),
      source: ref,
      order: 0,
    },
  };
}

/** verifiers `vf-eval` results.jsonl rows; grouped by example. */
export const verifiersFormat: FormatSpec = {
  ...FORMAT_INFO.verifiers,
  groupKey: "example_id (older files: id)",
  match: verifiersMatch,
  record: verifiersRecord,
};

/** A run's header: one line, and every field of the file it came from. */
export interface RunHeaderInfo {
  /** "wordle · gpt-5-mini · 5 examples x 3" */
  readonly title: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

const metadataSchema = z.looseObject({
  env_id: z.string().optional(),
  env: z.string().optional(),
  model: z.string(),
  num_examples: z.number(),
  rollouts_per_example: z.number(),
});

/**
 * A verifiers `metadata.json` as a run header, or null when the value is not one. Its fields
 * (eval_utils `prepare_metadata` in 0.1.x: `env`, `model`, `num_examples`, `rollouts_per_example`,
 * `sampling_args`, `date`, `time_ms`, `avg_reward`, `avg_<metric>`; save_utils `GenerateMetadata`
 * now: `env_id`, `env_args`, `base_url`, `time`, `avg_metrics`, `avg_error`, `pass_at_k`, `usage`,
 * `version_info`, `state_columns`, `tools`, ...) are all kept.
 */
export function verifiersRunHeader(value: unknown): RunHeaderInfo | null {
  const parsed = metadataSchema.safeParse(value);
  if (!parsed.success) return null;
  const m = parsed.data;
  const env = m.env_id ?? m.env;
  if (env === undefined) return null;
  return {
    title: `${env} · ${m.model} · ${m.num_examples} example${m.num_examples === 1 ? "" : "s"} x ${m.rollouts_per_example}`,
    fields: m,
  };
}
