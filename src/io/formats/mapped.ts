/**
 * Any table of rollouts, read through a field mapping the user gives (the studio's field-mapping
 * dialog, the CLI's --group-key / --text-key / --reward-key / --id-key): JSONL, a JSON array, CSV
 * or Parquet. One format id, "mapped", for every container; it is never detected (it would match
 * anything), only chosen.
 *
 * - `groupKey` (required): the group; text or an integer.
 * - `textKey` (required): the rollout's text, or a list of chat messages, read as a transcript
 *   (the messages before the first assistant turn are the prompt).
 * - `rewardKeys` (optional): one field is the reward; several are named components whose sum, with
 *   the user's weights, is the reward. Numbers, numeric text (CSV), and true/false (1/0) are read;
 *   empty, null and NaN mean "none".
 * - `idKey` (optional): the rollout id; else `<group>/<index in group>`.
 *
 * Paths may be dotted (`meta.task.id`, `scores[0]`); a key that itself contains dots (a CSV header
 * such as `reward.format`) is matched whole first. Every top-level field not mapped stays in meta.
 */
import type { ParseIssue } from "../issues.ts";
import {
  fieldAt,
  isPlainObject,
  notAnObject,
  omitKeys,
  rewardCell,
  schemaIssues,
  splitTranscript,
} from "./fields.ts";
import { messagesSchema } from "./messages.ts";
import type { RecordOutcome, RolloutDraft } from "./records.ts";
import { describeValue } from "./schemaParts.ts";
import type { FormatOptions, FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";

/** The message for a load without the mapping this format needs. */
export const MAPPING_REQUIRED =
  "the mapped format needs a field mapping: pass --group-key FIELD and --text-key FIELD (and --reward-key FIELD, --id-key FIELD when the rows have them), or choose the fields in the studio's field-mapping dialog";

function idCell(
  ref: RecordRef,
  field: string,
  value: unknown,
  what: string,
  issues: ParseIssue[],
): string | null {
  if (typeof value === "string" && value.trim() !== "") return value;
  if (typeof value === "number" && Number.isInteger(value)) return String(value);
  issues.push({
    ...ref,
    field,
    message:
      value === undefined || value === null || value === ""
        ? `is required (${what})`
        : `expected ${what} (text or an integer), got ${describeValue(value)}`,
  });
  return null;
}

function mappedRecord(ref: RecordRef, value: unknown, options: FormatOptions): RecordOutcome {
  const { groupKey, textKey, idKey } = options;
  const rewardKeys = options.rewardKeys ?? [];
  if (!groupKey || !textKey) return { ok: false, issues: [{ ...ref, message: MAPPING_REQUIRED }] };
  if (!isPlainObject(value)) return { ok: false, issues: [notAnObject(ref, value)] };
  const issues: ParseIssue[] = [];

  const groupId = idCell(
    ref,
    groupKey,
    fieldAt(value, groupKey),
    "the group key you mapped",
    issues,
  );
  const id = idKey
    ? idCell(ref, idKey, fieldAt(value, idKey), "the rollout id you mapped", issues)
    : null;

  const text = fieldAt(value, textKey);
  let completion: string | null = null;
  let prompt: RolloutDraft["prompt"] = null;
  let messages: RolloutDraft["messages"] = [];
  if (typeof text === "string") completion = text;
  else if (Array.isArray(text)) {
    const parsed = messagesSchema.safeParse(text);
    if (parsed.success) {
      ({ prompt, messages } = splitTranscript(parsed.data));
    } else issues.push(...schemaIssues(ref, parsed.error, textKey));
  } else {
    issues.push({
      ...ref,
      field: textKey,
      message:
        text === undefined || text === null
          ? "is required (the text field you mapped)"
          : `expected text or a list of chat messages, got ${describeValue(text)}`,
    });
  }

  const rewards: Record<string, number | null> = {};
  for (const key of rewardKeys) {
    const cell = fieldAt(value, key);
    const parsed =
      typeof cell === "boolean"
        ? { ok: true as const, value: cell ? 1 : 0 }
        : rewardCell(ref, key, cell);
    if (parsed.ok) rewards[key] = parsed.value;
    else issues.push(parsed.issue);
  }
  if (issues.length > 0 || groupId === null) return { ok: false, issues };

  const single = rewardKeys.length === 1 ? rewardKeys[0]! : null;
  return {
    ok: true,
    value: {
      groupId,
      id,
      prompt,
      messages,
      completion,
      reward: single === null ? null : (rewards[single] ?? null),
      rewards: single === null ? rewards : {},
      answer: null,
      testsPassed: null,
      meta: omitKeys(value, [groupKey, textKey, ...(idKey ? [idKey] : []), ...rewardKeys]),
      source: ref,
      order: 0,
    },
  };
}

/** The field-mapped reader: never detected, chosen with a mapping. */
export const mappedFormat: FormatSpec = {
  ...FORMAT_INFO.mapped,
  groupKey: "the fields you map (--group-key, --text-key, --reward-key, --id-key)",
  match: () => 0,
  record: mappedRecord,
};
