/**
 * SWE-agent trajectories (SWE-agent/SWE-agent): one `.traj` JSON document per run of one instance,
 * as `DefaultAgent.get_trajectory_data` writes it (sweagent/agent/agents.py):
 * `{trajectory[], history[], info, replay_config, environment}`, saved by `save_trajectory` as
 * `<output_dir>/<instance id>/<instance id>.traj` (sweagent/run/run_batch.py). The RetryAgent adds
 * `attempts[]` (each the same shape) with the chosen one's fields at the top. mini-swe-agent's
 * `.traj.json` (`{info, messages[], trajectory_format: "mini-swe-agent-1…"}`) is read the same way.
 *
 * One file is one rollout.
 * - **Group.** The instance id: `replay_config.problem_statement.id` (replay_config is JSON text,
 *   or an object), else `info.instance_id`, else the file's name without `.traj` / `.traj.json` /
 *   `.json`. Rollouts of one instance in several files (several runs) form one group in a run.
 * - **Messages.** `history[]` (mini-swe-agent: `messages[]`): OpenAI-style chat messages with
 *   `tool_calls` (JSON-string arguments) and, on tool results, `tool_call_ids[]` (the first is the
 *   call answered). The prompt is the messages before the first assistant turn (system prompt,
 *   demonstrations, the issue); with no assistant turn every message is the transcript (fields.ts
 *   `splitTranscript`). A file without a history is read from `trajectory[]`: each step's
 *   `response` (else `thought`) is an assistant turn whose `action` is one tool call (its first
 *   word the name, `{"command": action}` the arguments), and its `observation` the tool result.
 * - **Final text.** `info.submission` (the patch) when it is text.
 * - **Reward.** None inside: SWE-bench's evaluation report gives it (evalReports.ts, applied to a
 *   run); without a report the rollout is unscored (null), never 0.
 * - Everything else stays in meta: `info` (exit_status, submission, model_stats, ...),
 *   `trajectory` (when the history was used), `replay_config` (parsed), `environment`, `attempts`.
 */
import type { ChatMessage } from "../../core/index.ts";
import { isPlainObject, notAnObject, omitKeys } from "./fields.ts";
import { messageSchema, normaliseMessage } from "./messages.ts";
import type { RecordOutcome } from "./records.ts";
import type { FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";
import {
  baseName,
  message,
  objectOrJsonObject,
  stripExtensions,
  text,
  toolCall,
} from "./trajectoryParts.ts";
import type { ParseIssue } from "../issues.ts";
import { schemaIssues, splitTranscript } from "./fields.ts";

/** True for a SWE-agent (or mini-swe-agent) trajectory document. */
function isTrajectory(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  if (typeof value.trajectory_format === "string" && value.trajectory_format.startsWith("mini-swe"))
    return Array.isArray(value.messages);
  const history = value.history;
  const steps = value.trajectory;
  if (!Array.isArray(history) && !Array.isArray(steps)) return false;
  if (Array.isArray(steps) && isPlainObject(value.info)) return true;
  // A history-only file (SWE-agent's demonstrations): chat messages tagged by SWE-agent's
  // `agent` and `message_type` keys, which no chat format writes.
  return (
    Array.isArray(history) &&
    history.some(
      (m) => isPlainObject(m) && typeof m.role === "string" && "message_type" in m && "agent" in m,
    )
  );
}

function sweAgentExplode(document: unknown): { value: unknown; path: string }[] | null {
  return isTrajectory(document) ? [{ value: document, path: "trajectory" }] : null;
}

/** Detection for a trajectory read as one JSON line (a compact `.traj`). */
const sweAgentMatch = (value: unknown): number => (isTrajectory(value) ? 3 : 0);

/** The instance id: the replay config's problem statement, the info, else the file's name. */
export function sweAgentInstanceId(file: string, doc: Readonly<Record<string, unknown>>): string {
  const replay = objectOrJsonObject(doc.replay_config);
  const problem = replay === null ? null : objectOrJsonObject(replay.problem_statement);
  const fromReplay = problem === null ? null : text(problem.id);
  if (fromReplay !== null) return fromReplay;
  const info = isPlainObject(doc.info) ? doc.info : null;
  const fromInfo = info === null ? null : text(info.instance_id);
  if (fromInfo !== null) return fromInfo;
  return stripExtensions(baseName(file), [".traj.json", ".traj", ".json", ".jsonl"]);
}

/** SWE-agent's history message: `tool_call_ids` (a list) names the call a tool result answers. */
function historyMessage(
  ref: RecordRef,
  raw: unknown,
  at: string,
): { ok: true; value: ChatMessage } | { ok: false; issues: ParseIssue[] } {
  const value =
    isPlainObject(raw) &&
    raw.tool_call_id === undefined &&
    Array.isArray(raw.tool_call_ids) &&
    typeof raw.tool_call_ids[0] === "string"
      ? { ...raw, tool_call_id: raw.tool_call_ids[0] }
      : raw;
  const parsed = messageSchema.safeParse(value);
  if (!parsed.success) return { ok: false, issues: schemaIssues(ref, parsed.error, at) };
  return { ok: true, value: normaliseMessage(parsed.data) };
}

/** A trajectory step as an assistant turn with one tool call, and its observation. */
function stepMessages(step: unknown, index: number): ChatMessage[] {
  if (!isPlainObject(step)) return [];
  const said = text(step.response) ?? text(step.thought) ?? "";
  const action = typeof step.action === "string" ? step.action.trim() : "";
  const id = `step-${index}`;
  const out: ChatMessage[] = [];
  const name = action.split(/\s+/)[0] ?? "";
  out.push(
    message("assistant", said, {
      toolCalls: action === "" ? [] : [toolCall(id, name, { command: action })],
    }),
  );
  if (typeof step.observation === "string" && (action !== "" || step.observation !== ""))
    out.push(message("tool", step.observation, { toolCallId: action === "" ? null : id, name }));
  return out;
}

function sweAgentRecord(ref: RecordRef, value: unknown): RecordOutcome {
  if (!isPlainObject(value)) return { ok: false, issues: [notAnObject(ref, value)] };
  if (!isTrajectory(value))
    return {
      ok: false,
      issues: [
        {
          ...ref,
          field: "history",
          message: "expected a SWE-agent trajectory (history[] or trajectory[] with info)",
        },
      ],
    };
  const historyKey = Array.isArray(value.history) ? "history" : "messages";
  const history: unknown = value[historyKey];
  const messages: ChatMessage[] = [];
  const issues: ParseIssue[] = [];
  if (Array.isArray(history) && history.length > 0) {
    history.forEach((raw: unknown, i: number) => {
      const m = historyMessage(ref, raw, `${historyKey}[${i}]`);
      if (m.ok) messages.push(m.value);
      else issues.push(...m.issues);
    });
  } else if (Array.isArray(value.trajectory)) {
    value.trajectory.forEach((step: unknown, i: number) => messages.push(...stepMessages(step, i)));
  }
  if (issues.length > 0) return { ok: false, issues };
  const turns = splitTranscript(messages);
  const info = isPlainObject(value.info) ? value.info : null;
  const usedHistory = Array.isArray(history) && history.length > 0;
  const meta = omitKeys(value, usedHistory ? [historyKey] : [historyKey, "trajectory"]);
  const replay = objectOrJsonObject(value.replay_config);
  if (replay !== null) meta.replay_config = replay;
  const groupId = sweAgentInstanceId(ref.file, value);
  return {
    ok: true,
    value: {
      groupId,
      id: null,
      prompt: turns.prompt,
      messages: turns.messages,
      completion: info === null ? null : text(info.submission),
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

/** SWE-agent `.traj` files; one file is one rollout, grouped by instance id. */
export const sweAgentFormat: FormatSpec = {
  ...FORMAT_INFO.sweAgent,
  groupKey: "instance id (one file per rollout)",
  match: sweAgentMatch,
  explode: sweAgentExplode,
  record: sweAgentRecord,
};
