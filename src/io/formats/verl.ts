/**
 * verl rollout dumps (volcengine/verl `trainer.rollout_data_dir` / `validation_data_dir`; methods.md
 * 4.1): `{dir}/{global_step}.jsonl`, one row `{input, output, gts, score, step, ...extra}` per
 * response. `input` is the chat-templated prompt text, `output` the response, `gts` the ground
 * truth, `score` the sum of the token-level scores (the reward before any KL penalty).
 *
 * - **Groups.** verl does not dump the GRPO `uid`, so a group is every row of one step with an equal
 *   `input`: the id is `<step>/<first 12 hex of sha256(input)>` (the hash alone without a step).
 *   Training dumps may be reordered (`balance_batch`), so rows need not be adjacent; they keep file
 *   order within the group.
 * - **Reward.** `reward` = `score`. Extra keys (`acc`, `pred`, validation's `reward`, any
 *   `reward_extra_infos_dict` entry) stay in meta, numeric or not; `score` is the reward.
 * - `pred`, when text or a number, is also the rollout's `answer` (for self-consistency).
 */
import { z } from "zod";
import { expected, integerLike, isPlainObject, omitKeys, schemaIssues } from "./fields.ts";
import { shortHash } from "./hash.ts";
import type { RecordOutcome } from "./records.ts";
import { finiteNumber } from "./schemaParts.ts";
import type { FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";

/** One verl dump row; extra keys pass through to meta. */
export const verlRowSchema = z.looseObject({
  input: z.string({ error: expected("the prompt text") }),
  output: z.string({ error: expected("the response text") }),
  score: finiteNumber,
  step: integerLike.optional(),
});

/** Detection: 3 with `gts` (verl's own name for the ground truth), 2 with input/output/score. */
function verlMatch(value: unknown): number {
  if (!isPlainObject(value) || !("input" in value) || !("output" in value)) return 0;
  if ("gts" in value && "score" in value) return 3;
  return "score" in value ? 2 : 0;
}

function verlRecord(ref: RecordRef, value: unknown): RecordOutcome {
  const parsed = verlRowSchema.safeParse(value);
  if (!parsed.success) return { ok: false, issues: schemaIssues(ref, parsed.error) };
  const row = parsed.data;
  const hash = shortHash(row.input);
  const pred = row.pred;
  return {
    ok: true,
    value: {
      groupId: row.step === undefined ? hash : `${row.step}/${hash}`,
      id: null,
      prompt: row.input,
      messages: [],
      completion: row.output,
      reward: row.score,
      rewards: {},
      answer: typeof pred === "string" || typeof pred === "number" ? String(pred) : null,
      testsPassed: null,
      meta: omitKeys(row, ["input", "output", "score"]),
      source: ref,
      order: 0,
    },
  };
}

/** verl rollout dumps; grouped by (step, input). */
export const verlFormat: FormatSpec = {
  ...FORMAT_INFO.verl,
  groupKey: "(step, input)",
  match: verlMatch,
  record: verlRecord,
};
