/**
 * Queues in the team store: a lead's queue of groups, who labels which, and each person's
 * progress. The choice of groups and the assignment (overlap, seed) are core's pure functions;
 * the store takes their result, checks it (`queueSpecProblems`) and keeps it in one transaction.
 * An annotator sees only the queues and groups assigned to them, and never who else labels a
 * group. Called inside pgStore.ts's transactions, the caller already read from the database.
 */
import type pg from "pg";
import type { GroupId } from "../../core/index.ts";
import { checkGroupId } from "./groupRows.ts";
import type { Caller } from "./pgStore.ts";
import {
  StoreInvalid,
  StoreNotFound,
  type QueueInfo,
  type QueueItem,
  type QueueProgress,
  type QueueSpec,
  type QueueView,
} from "./types.ts";

/** The longest queue name. */
export const QUEUE_NAME_MAX = 200;

/** What is wrong with a queue's spec (nothing: []). Pure. */
export function queueSpecProblems(spec: QueueSpec): string[] {
  const problems: string[] = [];
  if (typeof spec.name !== "string" || spec.name.trim() === "")
    problems.push("a queue needs a name");
  else if (spec.name.length > QUEUE_NAME_MAX)
    problems.push(`a queue's name has at most ${QUEUE_NAME_MAX} characters`);
  else if (spec.name.includes("\u0000")) problems.push("a queue's name cannot hold a NUL");
  if (typeof spec.blind !== "boolean") problems.push("blind is true or false");
  if (typeof spec.overlap !== "number" || !(spec.overlap >= 0 && spec.overlap <= 1))
    problems.push("the overlap is a share from 0 to 1");
  if (!Number.isSafeInteger(spec.seed)) problems.push("the seed is a whole number");
  let filterText: string | undefined;
  try {
    filterText = JSON.stringify(spec.filter);
  } catch {
    filterText = undefined;
  }
  if (filterText === undefined) problems.push("the filter is JSON");
  else if (filterText.includes("\\u0000")) problems.push("the filter cannot hold a NUL");
  if (spec.groups.length === 0) problems.push("a queue holds at least one group");
  const inQueue = new Set<GroupId>();
  for (const g of spec.groups) {
    try {
      checkGroupId(g);
    } catch (e) {
      problems.push(e instanceof Error ? e.message : String(e));
      continue;
    }
    if (inQueue.has(g)) problems.push(`group ${JSON.stringify(g)} is in the queue twice`);
    inQueue.add(g);
  }
  const pairs = new Set<string>();
  for (const a of spec.assignments) {
    if (!inQueue.has(a.groupId))
      problems.push(`group ${JSON.stringify(a.groupId)} is assigned but not in the queue`);
    const key = JSON.stringify([a.groupId, a.user]);
    if (pairs.has(key))
      problems.push(`group ${JSON.stringify(a.groupId)} is assigned to ${a.user} twice`);
    pairs.add(key);
  }
  return problems;
}

interface QueueRow {
  id: string;
  name: string;
  blind: boolean;
  overlap: number;
  seed: string;
  filter: unknown;
  created_by: string;
  created_at: Date;
  groups: string;
}

/**
 * A queue as `me` is shown it. An annotator is not shown a blind queue's filter: what the groups
 * were chosen by ("mixed", "zero std", a reward range) says something of their rewards.
 */
function info(row: QueueRow, me: Caller): QueueInfo {
  return {
    name: row.name,
    blind: row.blind,
    overlap: row.overlap,
    seed: Number(row.seed),
    filter: row.blind && !me.isLead ? null : row.filter,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    groups: Number(row.groups),
  };
}

/**
 * The queues' rows: all of the dataset's (`forUser` null), or those with a group assigned to
 * `forUser`, counting only that person's groups.
 */
async function queueRows(
  client: pg.PoolClient,
  datasetId: string,
  forUser: string | null,
  name: string | null,
): Promise<QueueRow[]> {
  const result = await client.query<QueueRow>(
    `SELECT q.id, q.name, q.blind, q.overlap, q.seed, q.filter, u.name AS created_by, q.created_at,
       CASE WHEN $2::bigint IS NULL
         THEN (SELECT count(*) FROM queue_items i WHERE i.queue_id = q.id)
         ELSE (SELECT count(*) FROM assignments a WHERE a.queue_id = q.id AND a.user_id = $2::bigint)
       END AS groups
     FROM queues q JOIN users u ON u.id = q.created_by
     WHERE q.dataset_id = $1
       AND ($3::text IS NULL OR q.name = $3::text)
       AND ($2::bigint IS NULL OR EXISTS
             (SELECT 1 FROM assignments a WHERE a.queue_id = q.id AND a.user_id = $2::bigint))
     ORDER BY q.created_at, q.id`,
    [datasetId, forUser, name],
  );
  return result.rows;
}

/** @throws StoreNotFound when the caller has no such queue */
async function oneQueue(
  client: pg.PoolClient,
  datasetId: string,
  me: Caller,
  name: string,
): Promise<QueueRow> {
  const rows = await queueRows(client, datasetId, me.isLead ? null : me.id, name);
  const row = rows[0];
  if (row === undefined)
    throw new StoreNotFound(
      me.isLead
        ? `no queue is named ${JSON.stringify(name)}`
        : `no queue named ${JSON.stringify(name)} is assigned to you`,
    );
  return row;
}

export async function queueCreate(
  client: pg.PoolClient,
  datasetId: string,
  me: Caller,
  spec: QueueSpec,
): Promise<QueueInfo> {
  const problems = queueSpecProblems(spec);
  if (problems.length > 0) throw new StoreInvalid(`the queue is not valid: ${problems.join("; ")}`);
  const names = [...new Set(spec.assignments.map((a) => a.user))];
  const people = await client.query<{ id: string; name: string }>(
    "SELECT id, name FROM users WHERE name = ANY($1::text[]) AND revoked_at IS NULL",
    [names],
  );
  const idOf = new Map(people.rows.map((r) => [r.name, r.id]));
  const missing = names.filter((n) => !idOf.has(n));
  if (missing.length > 0)
    throw new StoreInvalid(
      `the queue is not valid: no active person is named ${missing.map((n) => JSON.stringify(n)).join(", ")}`,
    );
  let made;
  try {
    made = await client.query<{ id: string }>(
      `INSERT INTO queues (dataset_id, name, blind, overlap, seed, filter, created_by)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7) RETURNING id`,
      [
        datasetId,
        spec.name,
        spec.blind,
        spec.overlap,
        spec.seed,
        JSON.stringify(spec.filter),
        me.id,
      ],
    );
  } catch (e) {
    if (typeof e === "object" && e !== null && "code" in e && e.code === "23505")
      throw new StoreInvalid(`a queue named ${JSON.stringify(spec.name)} already exists`);
    throw e;
  }
  const queueId = made.rows[0]!.id;
  await client.query(
    `INSERT INTO queue_items (queue_id, position, group_id)
     SELECT $1, g.position - 1, g.group_id
     FROM unnest($2::text[]) WITH ORDINALITY AS g (group_id, position)`,
    [queueId, spec.groups],
  );
  await client.query(
    `INSERT INTO assignments (queue_id, group_id, user_id)
     SELECT $1, a.group_id, a.user_id FROM unnest($2::text[], $3::bigint[]) AS a (group_id, user_id)`,
    [
      queueId,
      spec.assignments.map((a) => a.groupId),
      spec.assignments.map((a) => idOf.get(a.user)!),
    ],
  );
  const rows = await queueRows(client, datasetId, null, spec.name);
  return info(rows[0]!, me);
}

export async function queueList(
  client: pg.PoolClient,
  datasetId: string,
  me: Caller,
): Promise<QueueInfo[]> {
  return (await queueRows(client, datasetId, me.isLead ? null : me.id, null)).map((r) =>
    info(r, me),
  );
}

export async function queueRead(
  client: pg.PoolClient,
  datasetId: string,
  me: Caller,
  name: string,
): Promise<QueueView> {
  const queue = await oneQueue(client, datasetId, me, name);
  const result = await client.query<{ group_id: string; position: number; assignees: string[] }>(
    `SELECT i.group_id, i.position,
       COALESCE(array_agg(u.name ORDER BY u.name) FILTER (WHERE u.name IS NOT NULL), '{}') AS assignees
     FROM queue_items i
     LEFT JOIN assignments a ON a.queue_id = i.queue_id AND a.group_id = i.group_id
     LEFT JOIN users u ON u.id = a.user_id
     WHERE i.queue_id = $1
     GROUP BY i.group_id, i.position
     HAVING $2::bigint IS NULL OR bool_or(a.user_id = $2::bigint)
     ORDER BY i.position`,
    [queue.id, me.isLead ? null : me.id],
  );
  const items: QueueItem[] = result.rows.map((r) => ({
    groupId: r.group_id,
    position: r.position,
    assignees: me.isLead ? r.assignees : [me.name],
  }));
  return { queue: info(queue, me), items };
}

export async function queueProgress(
  client: pg.PoolClient,
  datasetId: string,
  me: Caller,
  name: string,
): Promise<QueueProgress[]> {
  const queue = await oneQueue(client, datasetId, me, name);
  const result = await client.query<{
    name: string;
    assigned: string;
    annotated: string;
    submitted: string;
  }>(
    `SELECT u.name, count(*) AS assigned,
       count(*) FILTER (WHERE n.annotation IS NOT NULL) AS annotated,
       count(*) FILTER (WHERE n.submitted_at IS NOT NULL) AS submitted
     FROM assignments a
     JOIN users u ON u.id = a.user_id
     LEFT JOIN annotations n
       ON n.dataset_id = $2 AND n.user_id = a.user_id AND n.group_id = a.group_id
     WHERE a.queue_id = $1 AND ($3::bigint IS NULL OR a.user_id = $3::bigint)
     GROUP BY u.name ORDER BY u.name`,
    [queue.id, datasetId, me.isLead ? null : me.id],
  );
  return result.rows.map((r) => ({
    user: r.name,
    assigned: Number(r.assigned),
    annotated: Number(r.annotated),
    submitted: Number(r.submitted),
  }));
}

/** The groups of every blind queue of the dataset, each once, sorted (see TeamStore.blindGroups). */
export async function queueBlindGroups(
  client: pg.PoolClient,
  datasetId: string,
): Promise<GroupId[]> {
  const result = await client.query<{ group_id: string }>(
    `SELECT DISTINCT i.group_id FROM queue_items i JOIN queues q ON q.id = i.queue_id
     WHERE q.dataset_id = $1 AND q.blind ORDER BY i.group_id`,
    [datasetId],
  );
  return result.rows.map((r) => r.group_id);
}
