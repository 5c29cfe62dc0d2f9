import { TRAINER_ADVANTAGE_KEY } from "../../core/index.ts";
/**
 * TRL GRPOTrainer logged completions (huggingface/trl, `log_completions=True`; methods.md 3.3): the
 * table TRL writes to `<output_dir>/completions/completions_{step:05d}.parquet` (since v0.28), read
 * from Parquet, or the same table exported as JSONL or CSV.
 *
 * Columns: `step` (an int since v0.28, a string from v0.16 to v0.27), `prompt` (chat-templated
 * text), `completion` (text), one column per reward function holding its raw score (NaN or null when
 * the function did not apply), any `log_extra` columns, `advantage`, and optionally `image`.
 *
 * - **Groups.** One group per (step, prompt): the id is `<step>/<first 12 hex of sha256(prompt)>`,
 *   or just the hash when the table has no step column. Rows of a group keep file order, so the
 *   key survives a shuffle and non-adjacent rows of one prompt still meet. Two identical prompts in
 *   one batch (methods.md warns of it) fall into one group: nothing in the table tells them apart.
 * - **Rewards.** `reward` stays null: the analysis sums the components with the user's weights, as
 *   TRL does. With `rewardKeys` set (the CLI's --reward-key) exactly those columns are components.
 *   Otherwise every column whose name contains "reward" is one (number or numeric text; NaN, null
 *   or empty is a null component, "not applicable"; other text is an error), and so is every other
 *   column holding a number in a typed row (JSONL, Parquet). v0.16's single `reward` column is
 *   therefore the one component. The table does not mark `log_extra` columns, so a numeric one
 *   becomes a component too (give it weight 0, or pass --reward-key). In CSV every cell is text and
 *   "42" may be a reward or a logged answer, so there only reward-named columns are components.
 * - `advantage` is kept in meta as `trainerAdvantage`; every other column (text `log_extra`,
 *   `image`, a pandas index) is kept in meta under its own name.
 */
import type { ParseIssue } from "../issues.ts";
import { describeValue } from "./schemaParts.ts";
import { fieldAt, integerLike, isPlainObject, notAnObject, rewardCell } from "./fields.ts";
import { shortHash } from "./hash.ts";
import type { RecordOutcome } from "./records.ts";
import type { FormatOptions, FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";

/** Columns with a fixed meaning; never reward components. */
const FIXED = new Set(["step", "prompt", "completion", "advantage", "image"]);

/**
 * Detection. 3: prompt, completion and advantage (the per-function era, v0.19+); 2: prompt,
 * completion and step (v0.16's table); 1: prompt and completion only (any text pair, e.g. a generic
 * dump: the user should confirm).
 */
function trlMatch(value: unknown): number {
  if (!isPlainObject(value) || !("prompt" in value) || !("completion" in value)) return 0;
  // TRL's table has no group_id column: a row with one is native JSONL that happens to log a step.
  if ("group_id" in value) return 1;
  if ("advantage" in value) return 3;
  return "step" in value ? 2 : 1;
}

function textCell(ref: RecordRef, field: string, value: unknown, issues: ParseIssue[]): string {
  if (typeof value === "string") return value;
  issues.push({
    ...ref,
    field,
    message:
      value === undefined ? "is required (text)" : `expected text, got ${describeValue(value)}`,
  });
  return "";
}

function trlRecord(ref: RecordRef, value: unknown, options: FormatOptions): RecordOutcome {
  if (!isPlainObject(value)) return { ok: false, issues: [notAnObject(ref, value)] };
  const issues: ParseIssue[] = [];
  const prompt = textCell(ref, "prompt", value.prompt, issues);
  const completion = textCell(ref, "completion", value.completion, issues);

  let step: number | null = null;
  if (value.step !== undefined && value.step !== null) {
    const parsed = integerLike.safeParse(
      typeof value.step === "string" ? value.step.trim() : value.step,
    );
    if (parsed.success) step = parsed.data;
    else issues.push({ ...ref, field: "step", message: parsed.error.issues[0]!.message });
  }

  let trainerAdvantage: number | null = null;
  if (value.advantage !== undefined) {
    const cell = rewardCell(ref, "advantage", value.advantage);
    if (cell.ok) trainerAdvantage = cell.value;
    else issues.push(cell.issue);
  }

  const rewards: Record<string, number | null> = {};
  const meta: Record<string, unknown> = {};
  const chosen = options.rewardKeys;
  if (chosen !== undefined && chosen.length > 0) {
    for (const key of chosen) {
      const cell = fieldAt(value, key);
      if (cell === undefined) {
        issues.push({ ...ref, field: key, message: "is required (the reward column you named)" });
        continue;
      }
      const parsed = rewardCell(ref, key, cell);
      if (parsed.ok) rewards[key] = parsed.value;
      else issues.push(parsed.issue);
    }
  }
  // CSV rows arrive with every cell as text, so "42" may be a reward or a log_extra answer: there,
  // only reward-named columns are components. Typed rows (JSONL, Parquet) say which cells are numbers.
  const untyped = Object.values(value).every((cell) => typeof cell === "string");
  for (const [key, cell] of Object.entries(value)) {
    if (FIXED.has(key) || Object.hasOwn(rewards, key)) continue;
    if (chosen !== undefined && chosen.length > 0) {
      meta[key] = cell;
      continue;
    }
    if (/reward/i.test(key)) {
      const parsed = rewardCell(ref, key, cell);
      if (parsed.ok) rewards[key] = parsed.value;
      else issues.push(parsed.issue);
    } else if (!untyped && typeof cell === "number") {
      if (Number.isNaN(cell)) rewards[key] = null;
      else if (Number.isFinite(cell)) rewards[key] = cell;
      else
        issues.push({
          ...ref,
          field: key,
          message: `expected a finite number, got ${cell}`,
        });
    } else {
      meta[key] = cell;
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  if (value.image !== undefined) meta.image = value.image;
  if (value.advantage !== undefined) meta[TRAINER_ADVANTAGE_KEY] = trainerAdvantage;

  const hash = shortHash(prompt);
  return {
    ok: true,
    value: {
      groupId: step === null ? hash : `${step}/${hash}`,
      id: null,
      prompt,
      messages: [],
      completion,
      reward: null,
      rewards,
      answer: null,
      testsPassed: null,
      meta: step === null ? meta : { step, ...meta },
      source: ref,
      order: 0,
    },
  };
}

/** TRL logged completions: Parquet, JSONL or CSV; grouped by (step, prompt). */
export const trlFormat: FormatSpec = {
  ...FORMAT_INFO.trl,
  groupKey: "(step, prompt)",
  match: trlMatch,
  record: trlRecord,
};
