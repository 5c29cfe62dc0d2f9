/**
 * benchmax rollouts (cgftinc/benchmax, `BaseRollout`; methods.md 1.1-1.3): one JSON object per
 * rollout, `{rollout_id, messages, example_args, rewards, termination_reason, split?, error?}`.
 * `messages` is the whole OpenAI-style transcript (prompt messages, then assistant and tool turns;
 * tool results may be content-part lists); `rewards` is a RewardMap (finite numbers, no booleans)
 * or null.
 *
 * - **Group.** All rollouts of a group share one `Example.id` (methods.md 1.2). `example_args` is
 *   the example payload minus `prompt_messages` and does not hold that id, so a dump must carry it:
 *   the group is the first of `example_id` (the Example.id beside the rollout), `example_args.id`,
 *   `example_args.example_id`. A row with none is rejected with an issue naming the three.
 * - **Id / order.** `rollout_id` is the rollout id; rollouts keep file order.
 * - **Rewards.** The RewardMap is the components; `reward` stays null, so the analysis sums them (a
 *   rollout settled with zero rewards sums to 0). `rewards: null` gives no components: unscorable.
 * - **Prompt.** The messages before the first assistant turn; the rest is the transcript.
 *   `termination_reason`, `split`, `error` and `example_args` are kept in meta.
 */
import { z } from "zod";
import {
  expected,
  fieldAt,
  isPlainObject,
  omitKeys,
  schemaIssues,
  splitTranscript,
} from "./fields.ts";
import { messagesSchema } from "./messages.ts";
import type { RecordOutcome } from "./records.ts";
import { finiteNumber, idLike } from "./schemaParts.ts";
import type { FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";

const nonEmpty = (what: string) =>
  z.string({ error: expected(what) }).refine((s) => s.trim() !== "", {
    error: `expected ${what}, got an empty string`,
  });

/** One benchmax BaseRollout as dumped; other keys pass through to meta. */
export const benchmaxRowSchema = z.looseObject({
  rollout_id: nonEmpty("a non-empty string"),
  termination_reason: nonEmpty("a non-empty string"),
  messages: messagesSchema,
  example_args: z.record(z.string(), z.unknown(), { error: expected("an object") }).optional(),
  rewards: z
    .record(
      z.string().refine((k) => k.trim() !== "", { error: "reward names must be non-empty" }),
      finiteNumber,
    )
    .nullable()
    .optional(),
  example_id: idLike.optional(),
});

const GROUP_PATHS = ["example_id", "example_args.id", "example_args.example_id"] as const;

/**
 * Detection. 3: `rollout_id` with `example_args` (benchmax's own field name); 2: `rollout_id`,
 * `termination_reason` and `messages`.
 */
function benchmaxMatch(value: unknown): number {
  if (!isPlainObject(value) || !("rollout_id" in value)) return 0;
  if ("example_args" in value && "messages" in value) return 3;
  return "termination_reason" in value && "messages" in value ? 2 : 0;
}

function benchmaxRecord(ref: RecordRef, value: unknown): RecordOutcome {
  const parsed = benchmaxRowSchema.safeParse(value);
  if (!parsed.success) return { ok: false, issues: schemaIssues(ref, parsed.error) };
  const row = parsed.data;
  const path = GROUP_PATHS.find((p) => {
    const v = fieldAt(row, p);
    return idLike.safeParse(v).success;
  });
  if (path === undefined) {
    return {
      ok: false,
      issues: [
        {
          ...ref,
          field: "example_id",
          message:
            "no example id: benchmax groups rollouts by Example.id; give it as example_id, example_args.id or example_args.example_id",
        },
      ],
    };
  }
  const { prompt, messages } = splitTranscript(row.messages);
  return {
    ok: true,
    value: {
      groupId: String(fieldAt(row, path)),
      id: row.rollout_id,
      prompt,
      messages,
      completion: null,
      reward: null,
      rewards: row.rewards ?? {},
      answer: null,
      testsPassed: null,
      meta: omitKeys(row, ["rollout_id", "messages", "rewards"]),
      source: ref,
      order: 0,
    },
  };
}

/** benchmax rollouts; grouped by the example id. */
export const benchmaxFormat: FormatSpec = {
  ...FORMAT_INFO.benchmax,
  groupKey: "example id (example_id | example_args.id | example_args.example_id)",
  match: benchmaxMatch,
  record: benchmaxRecord,
};
