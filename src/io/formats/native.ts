/**
 * The studio's native JSONL: one rollout per line (foundation issue):
 * `group_id` (string or number, required), `id` (default `<group_id>/<index in group>`), `prompt`
 * (text or messages), `completion` (text) or `messages` (chat messages), `reward` (number; if absent,
 * the sum of `rewards`), `rewards` (named components; null = not applicable), optional `answer`,
 * `tests_passed` (test ids) and `meta`. Any other key is kept in meta.
 */
import { z } from "zod";
import type { ParseIssue } from "../issues.ts";
import { messagesSchema, normaliseMessage } from "./messages.ts";
import type { RecordOutcome, RolloutDraft } from "./records.ts";
import { finiteNumber, idLike } from "./schemaParts.ts";
import { zodIssues } from "./zodIssues.ts";

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

/** True when a parsed record looks like a native row (used by format detection). */
export function nativeLooksLike(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && "group_id" in value
  );
}

export function nativeRecord(file: string, line: number, value: unknown): RecordOutcome {
  const parsed = nativeRowSchema.safeParse(value);
  if (!parsed.success) return { ok: false, issues: zodIssues(file, line, parsed.error) };
  const row = parsed.data;
  const issues: ParseIssue[] = [];
  if (row.completion != null && row.messages !== undefined) {
    issues.push({
      file,
      line,
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
        : row.prompt.map(normaliseMessage);
  const draft: RolloutDraft = {
    groupId: String(row.group_id),
    id: row.id === undefined ? null : String(row.id),
    prompt,
    messages: (row.messages ?? []).map(normaliseMessage),
    completion: row.messages !== undefined ? null : (row.completion ?? null),
    reward: row.reward ?? null,
    rewards: row.rewards ?? {},
    answer: row.answer === undefined || row.answer === null ? null : String(row.answer),
    testsPassed:
      row.tests_passed === undefined || row.tests_passed === null
        ? null
        : row.tests_passed.map(String),
    meta: { ...(row.meta ?? {}), ...extra },
    source: { file, line },
    order: 0,
  };
  return { ok: true, value: draft };
}
