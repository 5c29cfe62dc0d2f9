/**
 * tau-bench result arrays (sierra-research/tau-bench `run.py`, methods.md 4.5): a JSON array of
 * `{task_id, trial, reward, info, traj}`. A group is a task_id; rollouts are ordered by trial.
 * The prompt is the transcript before the first assistant turn (policy and opening user message);
 * `info` (task, source, costs, reward_info) is kept in meta.
 */
import { z } from "zod";
import { messagesSchema } from "./messages.ts";
import type { FormatSpec, RecordRef } from "./spec.ts";
import type { RecordOutcome } from "./records.ts";
import { finiteNumber, idLike } from "./schemaParts.ts";
import { zodIssues } from "./zodIssues.ts";
import { splitTranscript } from "./fields.ts";
import { FORMAT_INFO } from "./catalog.ts";

export const tauBenchRecordSchema = z.looseObject({
  task_id: idLike,
  trial: z.number().check(z.int()).optional(),
  reward: finiteNumber,
  info: z.record(z.string(), z.unknown()).optional(),
  traj: messagesSchema,
});

function tauBenchMatch(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  return "task_id" in value && "traj" in value && "reward" in value ? 3 : 0;
}

function tauBenchRecord(ref: RecordRef, value: unknown): RecordOutcome {
  const parsed = tauBenchRecordSchema.safeParse(value);
  if (!parsed.success) return { ok: false, issues: zodIssues(ref, parsed.error) };
  const { task_id, trial, reward, info, traj, ...rest } = parsed.data;
  const messages = traj;
  const { prompt, messages: transcript } = splitTranscript(messages);
  const groupId = String(task_id);
  return {
    ok: true,
    value: {
      groupId,
      id: trial === undefined ? null : `${groupId}/${trial}`,
      prompt,
      messages: transcript,
      completion: null,
      reward,
      rewards: {},
      answer: null,
      testsPassed: null,
      meta: { ...rest, trial, info },
      source: ref,
      order: trial ?? 0,
    },
  };
}

export const tauBenchFormat: FormatSpec = {
  ...FORMAT_INFO.tauBench,
  groupKey: "task_id (trials in order)",
  match: tauBenchMatch,
  record: tauBenchRecord,
};
