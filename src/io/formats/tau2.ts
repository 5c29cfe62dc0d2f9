/**
 * tau2-bench results (sierra-research/tau2-bench, `Results` in `src/tau2/data_model/simulation.py`;
 * methods.md 4.6): one JSON document `{timestamp, info, tasks[], simulations[], simulation_index?}`.
 * Each `simulations[i]` is one rollout, referenced in messages by that path.
 *
 * - **Group.** `task_id`; rollouts are ordered by `trial`, and the id is `<task_id>/<trial>` (the
 *   simulation's own `id`, a uuid, when it has no trial; the uuid is kept in meta as
 *   `simulation_id`).
 * - **Reward.** `reward_info.reward`; null when `reward_info` is null (not evaluated). The checks
 *   (`db_check`, `action_checks`, `nl_assertions`, `communicate_checks`, `reward_breakdown`) stay in
 *   meta with the rest of `reward_info`: tau2 multiplies the breakdown, so summing it as components
 *   would be wrong.
 * - **Messages.** Flat tool calls `{id, name, arguments: dict, requestor}` and tool results `{id,
 *   role: "tool", content, requestor, error}`, normalised by messages.ts (a user's tool call in the
 *   telecom domain keeps `requestor: "user"`). The prompt is the messages before the first assistant
 *   turn (usually none: the agent greets first), else null.
 * - `termination_reason`, `agent_cost`, `user_cost`, `review`, times and seed stay in meta, with the
 *   matching `tasks[]` entry as `task` (shared, not copied) and the document's `info` as `run`.
 */
import { z } from "zod";
import { expected, isPlainObject, omitKeys, schemaIssues, splitTranscript } from "./fields.ts";
import { messagesSchema } from "./messages.ts";
import type { RecordOutcome } from "./records.ts";
import { finiteNumber, idLike } from "./schemaParts.ts";
import type { EmptyHolder, FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";

/** One tau2 SimulationRun; other keys pass through to meta. */
export const tau2SimulationSchema = z.looseObject({
  id: idLike.optional(),
  task_id: idLike,
  trial: z
    .number({ error: expected("an integer") })
    .check(z.int())
    .optional(),
  reward_info: z
    .looseObject({ reward: finiteNumber }, { error: expected("an object with a reward") })
    .nullable()
    .optional(),
  messages: messagesSchema,
});

/** What explode hands to record: one simulation with the document context it refers to. */
interface Envelope {
  readonly simulation: unknown;
  readonly task: unknown;
  readonly run: unknown;
}

const isEnvelope = (value: unknown): value is Envelope =>
  isPlainObject(value) && "simulation" in value && "task" in value && "run" in value;

/** A task or simulation id as map key: tau2 writes strings; integers are accepted too. */
const idKey = (value: unknown): string | null =>
  typeof value === "string" || typeof value === "number" ? String(value) : null;

function tau2Explode(document: unknown): { value: Envelope; path: string }[] | null {
  if (!isPlainObject(document)) return null;
  const simulations: unknown = document.simulations;
  const tasks: unknown = document.tasks;
  if (!Array.isArray(simulations) || !Array.isArray(tasks) || !("info" in document)) return null;
  const simulationList: readonly unknown[] = simulations;
  const taskList: readonly unknown[] = tasks;
  const byId = new Map<string, unknown>();
  for (const t of taskList) {
    const key = isPlainObject(t) ? idKey(t.id) : null;
    if (key !== null) byId.set(key, t);
  }
  return simulationList.map((simulation, i) => {
    const key = isPlainObject(simulation) ? idKey(simulation.task_id) : null;
    return {
      value: {
        simulation,
        task: key === null ? null : (byId.get(key) ?? null),
        run: document.info ?? null,
      },
      path: `simulations[${i}]`,
    };
  });
}

/** A Results file without simulations (a run stopped before its first one was saved), said plainly. */
function tau2DescribeEmpty(holder: EmptyHolder): string {
  const tasks = "document" in holder && isPlainObject(holder.document) ? holder.document.tasks : [];
  const listed = Array.isArray(tasks) ? tasks.length : 0;
  return `no simulations in this tau2 results file (${listed} task(s) listed, none run to the end); the run may have been stopped before its first simulation was saved`;
}

/** Detection inside a document is by explode; a bare simulation object also scores 3. */
function tau2Match(value: unknown): number {
  if (!isPlainObject(value)) return 0;
  const sim = isPlainObject(value.simulation) ? value.simulation : value;
  return "task_id" in sim && "messages" in sim && "termination_reason" in sim ? 3 : 0;
}

function tau2Record(ref: RecordRef, value: unknown): RecordOutcome {
  const envelope = isEnvelope(value) ? value : null;
  const parsed = tau2SimulationSchema.safeParse(envelope === null ? value : envelope.simulation);
  if (!parsed.success) return { ok: false, issues: schemaIssues(ref, parsed.error) };
  const sim = parsed.data;
  const { prompt, messages } = splitTranscript(sim.messages);
  const groupId = String(sim.task_id);
  const id =
    sim.trial !== undefined
      ? `${groupId}/${sim.trial}`
      : sim.id !== undefined
        ? String(sim.id)
        : null;
  const meta: Record<string, unknown> = omitKeys(sim, ["id", "task_id", "messages"]);
  if (sim.id !== undefined) meta.simulation_id = sim.id;
  if (envelope !== null) {
    meta.task = envelope.task;
    meta.run = envelope.run;
  }
  return {
    ok: true,
    value: {
      groupId,
      id,
      prompt,
      messages,
      completion: null,
      reward: sim.reward_info?.reward ?? null,
      rewards: {},
      answer: null,
      testsPassed: null,
      meta,
      source: ref,
      order: sim.trial ?? 0,
    },
  };
}

/** tau2-bench Results documents; grouped by task_id. */
export const tau2Format: FormatSpec = {
  ...FORMAT_INFO.tau2,
  groupKey: "task_id (trials in order)",
  match: tau2Match,
  explode: tau2Explode,
  describeEmpty: tau2DescribeEmpty,
  record: tau2Record,
};
