/**
 * Harbor's Agent Trajectory Interchange Format (laude-institute/harbor, docs/rfcs/0001-trajectory-
 * format.md and the models in src/harbor/models/trajectories/): one `trajectory.json` per trial,
 * `{schema_version: "ATIF-v1.x", session_id, agent: {name, version, model_name?}, steps[], notes?,
 * final_metrics?, extra?}`. A step is `{step_id, timestamp?, source: system | user | agent,
 * message, reasoning_content?, tool_calls?: [{tool_call_id, function_name, arguments}],
 * observation?: {results: [{source_call_id?, content?, subagent_trajectory_ref?}]}, metrics?,
 * extra?, model_name?, reasoning_effort?}`. Harbor writes it to
 * `<jobs dir>/<job>/<trial>/agent/trajectory.json`, the trial folder named `<task>__<suffix>`, with
 * the trial's `result.json` (`task_name`, `trial_name`, `verifier_result.rewards`) beside `agent/`.
 *
 * One file is one rollout.
 * - **Group.** The task: the trial folder's name up to its last `__` (the folder holding `agent/`,
 *   or the file's folder when it is named `<task>__<suffix>`), else `session_id`. The trial's name is kept in meta as `trial_name`.
 *   The trials of one task across a jobs folder form one group.
 * - **Messages.** A system step is a system turn, a user step a user turn, an agent step an
 *   assistant turn with its tool calls (arguments an object, or JSON text kept as written); each
 *   observation result is a tool result answering `source_call_id` (a result without one is a tool
 *   turn with no call id; a subagent reference with no content shows as its session id).
 *   `reasoning_content` stays in meta under `steps`. The prompt is the turns before the first agent
 *   step; with no agent step every turn is the transcript (fields.ts `splitTranscript`).
 * - **Final text.** The last agent step's message, as the transcript shows it (no completion).
 * - **Reward.** The trial's `result.json` (`verifier_result.rewards.reward`) when the run holds it
 *   (evalReports.ts); else unscored (null), never 0.
 * - Everything else stays in meta: `schema_version`, `session_id`, `agent`, `notes`,
 *   `final_metrics`, `extra`, and per step (`steps[]`) its id, timestamp, model, reasoning,
 *   metrics and extra.
 */
import type { ChatMessage, ToolCall } from "../../core/index.ts";
import { isPlainObject, notAnObject, omitKeys, splitTranscript } from "./fields.ts";
import type { RecordOutcome } from "./records.ts";
import type { FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";
import { message, pathFolders, text, toolCall } from "./trajectoryParts.ts";
import { describeValue } from "./schemaParts.ts";
import type { ParseIssue } from "../issues.ts";

function isAtif(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value) || !Array.isArray(value.steps)) return false;
  if (typeof value.schema_version === "string" && /^ATIF/i.test(value.schema_version)) return true;
  return "session_id" in value && isPlainObject(value.agent);
}

function atifExplode(document: unknown): { value: unknown; path: string }[] | null {
  return isAtif(document) ? [{ value: document, path: "trajectory" }] : null;
}

/**
 * Detection for a trajectory read as one JSON line: 4 with the `ATIF-v…` stamp, a marker value,
 * which beats formats that look for a `schema_version` key alone (whileai scores 3 for the key);
 * 3 for an unstamped one (`session_id`, `agent`, `steps`).
 */
const atifMatch = (value: unknown): number =>
  !isAtif(value)
    ? 0
    : typeof value.schema_version === "string" && /^ATIF/i.test(value.schema_version)
      ? 4
      : 3;

/**
 * The Harbor trial folder of a trajectory path: the folder holding `agent/`, else the file's
 * folder when it is named as Harbor names trials (`<task>__<suffix>`); null otherwise (a file
 * elsewhere says nothing about its task by where it is).
 */
export function atifTrialName(file: string): string | null {
  const folders = pathFolders(file);
  const last = folders[folders.length - 1];
  if (last === undefined) return null;
  if (last === "agent") return folders[folders.length - 2] ?? null;
  return last.lastIndexOf("__") > 0 ? last : null;
}

/** A Harbor trial's task: its name up to the last `__` (Harbor's `<task>__<suffix>`). */
export function atifTaskOfTrial(trial: string): string {
  const at = trial.lastIndexOf("__");
  return at > 0 ? trial.slice(0, at) : trial;
}

const STEP_MAPPED = ["source", "message", "tool_calls", "observation"];

function stepMessages(step: Readonly<Record<string, unknown>>): ChatMessage[] {
  const source = step.source;
  const said = typeof step.message === "string" ? step.message : "";
  if (source === "system" || source === "user") {
    const out = [message(source, said)];
    return out.concat(observationMessages(step));
  }
  const calls: ToolCall[] = [];
  if (Array.isArray(step.tool_calls))
    for (const c of step.tool_calls as unknown[])
      if (isPlainObject(c))
        calls.push(toolCall(text(c.tool_call_id), text(c.function_name) ?? "", c.arguments));
  return [message("assistant", said, { toolCalls: calls }), ...observationMessages(step)];
}

function observationMessages(step: Readonly<Record<string, unknown>>): ChatMessage[] {
  const observation = step.observation;
  if (!isPlainObject(observation) || !Array.isArray(observation.results)) return [];
  const out: ChatMessage[] = [];
  for (const r of observation.results as unknown[]) {
    if (!isPlainObject(r)) continue;
    let content = typeof r.content === "string" ? r.content : "";
    if (content === "" && Array.isArray(r.subagent_trajectory_ref))
      content = (r.subagent_trajectory_ref as unknown[])
        .map((s) => (isPlainObject(s) ? `subagent ${String(s.session_id)}` : ""))
        .join("\n");
    out.push(message("tool", content, { toolCallId: text(r.source_call_id) }));
  }
  return out;
}

function atifRecord(ref: RecordRef, value: unknown): RecordOutcome {
  if (!isPlainObject(value)) return { ok: false, issues: [notAnObject(ref, value)] };
  const steps: unknown = value.steps;
  if (!isAtif(value))
    return {
      ok: false,
      issues: [
        {
          ...ref,
          field: "steps",
          message: `expected an ATIF trajectory (steps[]), got ${describeValue(steps)}`,
        },
      ],
    };
  const messages: ChatMessage[] = [];
  const issues: ParseIssue[] = [];
  const stepsMeta: Record<string, unknown>[] = [];
  (value.steps as unknown[]).forEach((step, i) => {
    if (!isPlainObject(step) || typeof step.source !== "string") {
      issues.push({
        ...ref,
        field: `steps[${i}].source`,
        message: `expected a step with a source, got ${describeValue(step)}`,
      });
      return;
    }
    messages.push(...stepMessages(step));
    const rest = omitKeys(step, STEP_MAPPED);
    if (Object.keys(rest).length > 0) stepsMeta.push(rest);
  });
  if (issues.length > 0) return { ok: false, issues };
  const trial = atifTrialName(ref.file);
  const session = text(value.session_id);
  const groupId = trial !== null ? atifTaskOfTrial(trial) : (session ?? "trajectory");
  const turns = splitTranscript(messages);
  const meta = omitKeys(value, ["steps"]);
  if (trial !== null) meta.trial_name = trial;
  if (stepsMeta.length > 0) meta.steps = stepsMeta;
  return {
    ok: true,
    value: {
      groupId,
      id: null,
      prompt: turns.prompt,
      messages: turns.messages,
      completion: null,
      reward: null,
      rewards: {},
      answer: null,
      testsPassed: null,
      meta,
      source: ref,
      order: 0,
    },
  };
}

/** Harbor ATIF trajectories; one file per trial, grouped by task. */
export const atifFormat: FormatSpec = {
  ...FORMAT_INFO.atif,
  groupKey: "task (one trial per rollout)",
  match: atifMatch,
  explode: atifExplode,
  record: atifRecord,
};
