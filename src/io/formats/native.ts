/**
 * The studio's native JSONL: one rollout per line (foundation issue):
 * `group_id` (string or number, required), `id` (default `<group_id>/<index in group>`), `prompt`
 * (text or messages), `completion` (text) or `messages` (chat messages), `reward` (number; if absent,
 * the sum of `rewards`), `rewards` (named components; null = not applicable), optional `answer`,
 * `tests_passed` (test ids) and `meta`. Any other key is kept in meta.
 */
import { z } from "zod";
import type { ParseIssue } from "../issues.ts";
import { messagesSchema } from "./messages.ts";
import type { FormatSpec, RecordRef } from "./spec.ts";
import type { RecordOutcome, RolloutDraft } from "./records.ts";
import { finiteNumber, idLike } from "./schemaParts.ts";
import { zodIssues } from "./zodIssues.ts";
import { FORMAT_INFO } from "./catalog.ts";

export const nativeRowSchema = z.looseObject({
  group_id: idLike,
  id: idLike.optional(),
  prompt: z.union([z.string(), messagesSchema, z.null()]).optional(),
  completion: z.union([z.string(), z.null()]).optional(),
  messages: messagesSchema.optional(),
  reward: finiteNumber.nullable().optional(),
  rewards: z.record(z.string(), finiteNumber.nullable()).optional(),
  answer: z.union([z.string(), z.number(), z.null()]).optional(),
  tests_passed: z.union([z.array(z.union([z.string(), z.number()])), z.null()]).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

const KNOWN = new Set(Object.keys(nativeRowSchema.shape));

/** Detection: a record with `group_id` and something to read or score. */
function nativeMatch(value: unknown): number {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return 0;
  if (!("group_id" in value)) return 0;
  return ["completion", "messages", "reward", "rewards"].some((k) => k in value) ? 2 : 1;
}

function nativeRecord(ref: RecordRef, value: unknown): RecordOutcome {
  const parsed = nativeRowSchema.safeParse(value);
  if (!parsed.success) return { ok: false, issues: zodIssues(ref, parsed.error) };
  const row = parsed.data;
  const issues: ParseIssue[] = [];
  if (row.completion != null && row.messages !== undefined) {
    issues.push({
      ...ref,
      field: "completion",
      message: "give either completion or messages, not both",
    });
    return { ok: false, issues };
  }
  const extra = Object.fromEntries(Object.entries(row).filter(([k]) => !KNOWN.has(k)));
  const prompt =
    row.prompt === undefined || row.prompt === null
      ? null
      : typeof row.prompt === "string"
        ? row.prompt
        : row.prompt;
  const draft: RolloutDraft = {
    groupId: String(row.group_id),
    id: row.id === undefined ? null : String(row.id),
    prompt,
    messages: row.messages ?? [],
    completion: row.messages !== undefined ? null : (row.completion ?? null),
    reward: row.reward ?? null,
    rewards: row.rewards ?? {},
    answer: row.answer === undefined || row.answer === null ? null : String(row.answer),
    testsPassed:
      row.tests_passed === undefined || row.tests_passed === null
        ? null
        : row.tests_passed.map(String),
    meta: { ...(row.meta ?? {}), ...extra },
    source: ref,
    order: 0,
  };
  return { ok: true, value: draft };
}

export const nativeFormat: FormatSpec = {
  ...FORMAT_INFO.native,
  groupKey: "group_id",
  match: nativeMatch,
  record: nativeRecord,
};
