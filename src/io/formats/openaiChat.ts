/**
 * OpenAI chat rows with tools (methods.md 4.3, "the lingua franca"): one JSON object per rollout with
 * `messages` (system/user/assistant/tool turns; nested tool calls with JSON-string arguments), a
 * reward, and a group key.
 *
 * - **Group.** The first of `group_id`, `prompt_id`, `task_id`, `example_id` the row has. Without
 *   one, rows whose prompts are equal form a group: the id is `prompt-<12 hex of sha256>` over the
 *   prompt messages' roles, contents and tool calls.
 * - **Prompt / transcript.** The messages before the first assistant turn are the prompt; the rest
 *   are the transcript. Without an assistant turn every message is the transcript (fields.ts
 *   `splitTranscript`); equal-prompt grouping still compares the messages before the first reply.
 * - **Reward.** `reward`, else `score` (a number or null); `rewards` (named components) when given.
 * - `id` is the rollout id when present. Every other key is kept in meta.
 *
 * Detection scores 1 at most: native rows with `group_id` score 2 and win; this format is the
 * fallback for chat rows no other format claims.
 */
import { z } from "zod";
import { isPlainObject, messagesHash, omitKeys, schemaIssues, splitTranscript } from "./fields.ts";
import { messagesSchema } from "./messages.ts";
import type { RecordOutcome } from "./records.ts";
import { finiteNumber, idLike } from "./schemaParts.ts";
import type { FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";

const GROUP_KEYS = ["group_id", "prompt_id", "task_id", "example_id"] as const;

/** One OpenAI chat row; other keys pass through to meta. */
export const openaiRowSchema = z.looseObject({
  messages: messagesSchema,
  id: idLike.optional(),
  reward: finiteNumber.nullable().optional(),
  score: finiteNumber.nullable().optional(),
  rewards: z.record(z.string(), finiteNumber.nullable()).optional(),
  group_id: idLike.optional(),
  prompt_id: idLike.optional(),
  task_id: idLike.optional(),
  example_id: idLike.optional(),
});

/** Detection: 1 for any object with a `messages` array (a generic match: the user may confirm). */
function openaiMatch(value: unknown): number {
  return isPlainObject(value) && Array.isArray(value.messages) ? 1 : 0;
}

function openaiRecord(ref: RecordRef, value: unknown): RecordOutcome {
  const parsed = openaiRowSchema.safeParse(value);
  if (!parsed.success) return { ok: false, issues: schemaIssues(ref, parsed.error) };
  const row = parsed.data;
  const { prompt, messages, lead } = splitTranscript(row.messages);
  const key = GROUP_KEYS.find((k) => row[k] !== undefined);
  const groupId = key === undefined ? `prompt-${messagesHash(lead)}` : String(row[key]);
  const rewardKey = row.reward !== undefined ? "reward" : row.score !== undefined ? "score" : null;
  return {
    ok: true,
    value: {
      groupId,
      id: row.id === undefined ? null : String(row.id),
      prompt,
      messages,
      completion: null,
      reward: row.reward ?? row.score ?? null,
      rewards: row.rewards ?? {},
      answer: null,
      testsPassed: null,
      meta: omitKeys(row, [
        "messages",
        "id",
        "rewards",
        ...(key ? [key] : []),
        ...(rewardKey ? [rewardKey] : []),
      ]),
      source: ref,
      order: 0,
    },
  };
}

/** OpenAI chat rows; the fallback for chat rows no other format claims. */
export const openaiFormat: FormatSpec = {
  ...FORMAT_INFO.openai,
  groupKey: "group_id | prompt_id | task_id | example_id, else equal prompt messages",
  match: openaiMatch,
  record: openaiRecord,
};
