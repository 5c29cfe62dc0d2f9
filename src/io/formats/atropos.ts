/**
 * NousResearch Atropos scored groups: the JSONL an environment writes with
 * `--env.data_path_to_save_groups` (`atroposlib/envs/base.py`, `jsonl_writer.write(group)`), one
 * `ScoredDataGroup` per line, which is one GRPO group. Field list (`ScoredDataGroup`, a TypedDict in
 * atroposlib/envs/base.py): `tokens` (per rollout, token ids), `masks` (per rollout, -100 where no
 * loss), `scores` (per rollout), and optionally `advantages` and `ref_logprobs` (per rollout, per
 * token), `messages` (per rollout, a message list; with `include_messages` and none given, the
 * decoded token text), `generation_params`, `inference_logprobs` (per rollout), `group_overrides`
 * (the group's), `overrides` (per rollout), `images`, `distill_token_ids`, `distill_logprobs`.
 *
 * - **Records.** A group line holds several rollouts: it is split (`explodeRecord`) into one record
 *   per rollout, member `[i]` of its line, so records = rollouts + rejected still holds and a bad
 *   rollout costs only itself. A line that is not a group (no `scores` list, per-rollout lists whose
 *   lengths disagree) is one record, rejected with its reason.
 * - **Group.** The line: `line-<n>`. Lines are groups; two lines with the same prompt stay two groups,
 *   as the trainer saw them.
 * - **Prompt / transcript.** `messages[i]` split at the first assistant turn; decoded text is the
 *   rollout's text; a rollout without messages has no text (its tokens are in meta).
 * - **Reward.** `scores[i]`.
 * - **Meta.** The rollout's own entries, as arrays, for later token views: `tokens`, `masks`,
 *   `advantages`, `ref_logprobs`, `inference_logprobs`, `overrides`, ...; and the group's fields
 *   (`group_overrides`, `generation_params`, anything else the line carries), shared by reference.
 *
 * Detection: 3 for an object with a `scores` list and a `tokens`, `masks` or `messages` list; the
 * OpenAI chat reader's 1 for any `messages` list loses to it.
 */
import type { ParseIssue } from "../issues.ts";
import { isPlainObject, notAnObject, rewardCell, schemaIssues, splitTranscript } from "./fields.ts";
import { messagesSchema } from "./messages.ts";
import type { RecordOutcome, RolloutDraft } from "./records.ts";
import { describeValue } from "./schemaParts.ts";
import type { FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";

/** ScoredDataGroup fields that hold one entry per rollout. */
const PER_ROLLOUT = [
  "scores",
  "tokens",
  "masks",
  "messages",
  "advantages",
  "ref_logprobs",
  "inference_logprobs",
  "overrides",
  "distill_token_ids",
  "distill_logprobs",
] as const;

/** What one rollout's record holds once its line is split. */
interface AtroposPart {
  readonly rollout: number;
  /** The rollout's entry of each per-rollout list the line has. */
  readonly own: Readonly<Record<string, unknown>>;
  /** The line's other fields. */
  readonly group: Readonly<Record<string, unknown>>;
}

const PART = Symbol("atropos part");

function atroposMatch(value: unknown): number {
  if (!isPlainObject(value) || !Array.isArray(value.scores)) return 0;
  return ["tokens", "masks", "messages"].some((k) => Array.isArray(value[k])) ? 3 : 0;
}

/** Why a line is not a group this reader can split (field and message), or null when it is one. */
function notAGroup(
  value: Readonly<Record<string, unknown>>,
): { field: string; message: string } | null {
  const scores = value.scores;
  if (!Array.isArray(scores))
    return {
      field: "scores",
      message:
        scores === undefined
          ? "is required (the list of per-rollout scores of an Atropos group)"
          : `expected the list of per-rollout scores, got ${describeValue(scores)}`,
    };
  if (scores.length === 0)
    return { field: "scores", message: "is empty: the group holds no rollout" };
  for (const k of PER_ROLLOUT) {
    const list = value[k];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list))
      return { field: k, message: `expected one entry per rollout, got ${describeValue(list)}` };
    if (list.length !== scores.length)
      return {
        field: k,
        message: `has ${list.length} entr${list.length === 1 ? "y" : "ies"} but scores has ${scores.length}: the rollouts cannot be paired`,
      };
  }
  return null;
}

/** A group line split into one record per rollout; null when the line is not a group. */
function atroposExplode(
  value: unknown,
): readonly { readonly value: unknown; readonly member: string }[] | null {
  if (!isPlainObject(value) || notAGroup(value) !== null) return null;
  const scores = value.scores as unknown[];
  const group: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    if (!(PER_ROLLOUT as readonly string[]).includes(k)) group[k] = v;
  return scores.map((_, i) => {
    const own: Record<string, unknown> = {};
    for (const k of PER_ROLLOUT) {
      const list = value[k];
      if (Array.isArray(list)) own[k] = list[i];
    }
    const part: AtroposPart & { [PART]: true } = { rollout: i, own, group, [PART]: true };
    return { value: part, member: `[${i}]` };
  });
}

const isPart = (value: unknown): value is AtroposPart =>
  typeof value === "object" && value !== null && PART in value;

/** The group id of a rollout record: its line (a JSONL line is a group). */
function groupOf(ref: RecordRef): string {
  return ref.line > 0 ? `line-${ref.line}` : `record-${ref.member ?? "0"}`;
}

function atroposRecord(ref: RecordRef, value: unknown): RecordOutcome {
  if (!isPart(value)) {
    if (!isPlainObject(value)) return { ok: false, issues: [notAnObject(ref, value)] };
    const why = notAGroup(value) ?? { field: "scores", message: "is not an Atropos scored group" };
    return { ok: false, issues: [{ ...ref, ...why }] };
  }
  const { rollout: i, own, group } = value;
  const issues: ParseIssue[] = [];
  const score = rewardCell(ref, `scores[${i}]`, own.scores);
  if (!score.ok) issues.push(score.issue);

  let prompt: RolloutDraft["prompt"] = null;
  let messages: RolloutDraft["messages"] = [];
  let completion: string | null = null;
  const m = own.messages;
  if (typeof m === "string") completion = m;
  else if (Array.isArray(m)) {
    const parsed = messagesSchema.safeParse(m);
    if (parsed.success) {
      ({ prompt, messages } = splitTranscript(parsed.data));
    } else issues.push(...schemaIssues(ref, parsed.error, `messages[${i}]`));
  } else if (m !== undefined && m !== null)
    issues.push({
      ...ref,
      field: `messages[${i}]`,
      message: `expected a list of chat messages or text, got ${describeValue(m)}`,
    });
  if (!score.ok || issues.length > 0) return { ok: false, issues };

  const meta: Record<string, unknown> = { ...group };
  for (const [k, v] of Object.entries(own))
    if (k !== "scores" && k !== "messages" && v !== undefined) meta[k] = v;
  const groupId = groupOf(ref);
  return {
    ok: true,
    value: {
      groupId,
      // The rollout's place in its line, so a rejected neighbour does not renumber it.
      id: `${groupId}/${i}`,
      prompt,
      messages,
      completion,
      reward: score.value,
      rewards: {},
      answer: null,
      testsPassed: null,
      meta,
      source: ref,
      order: i,
    },
  };
}

/** Atropos ScoredDataGroup lines: one GRPO group per line. */
export const atroposFormat: FormatSpec = {
  ...FORMAT_INFO.atropos,
  groupKey: "the line (one ScoredDataGroup per line)",
  match: atroposMatch,
  explodeRecord: atroposExplode,
  record: atroposRecord,
};
