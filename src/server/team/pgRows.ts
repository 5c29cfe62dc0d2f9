/**
 * The PostgreSQL store's statements on one person's rows: read them (groups and document
 * fields), and the conditional writes every versioned write is made of. Each write is a single
 * statement that matches only at the base version (an UPDATE ... WHERE version = base, or for a
 * first write an INSERT ... ON CONFLICT DO NOTHING), so of two writes on one base exactly one
 * matches. Also the lookups and whole reads both the store (pgStore.ts) and the trusted reads
 * (trustedRead.ts) make. Called inside their transactions; every value is a parameter.
 */
import type pg from "pg";
import { TEAM_GOLD_ANNOTATOR, type GroupAnnotation, type GroupId } from "../../core/index.ts";
import {
  annotationOut,
  EXTRAS_EMPTY,
  extrasOut,
  NEVER_WRITTEN,
  personAnnotations,
  type DocumentExtras,
  type StoredGroup,
} from "./groupRows.ts";
import {
  NO_GROUP_VERSION,
  type GoldAnnotations,
  type GroupState,
  type PersonAnnotations,
} from "./types.ts";

/** A connection of the pool, or the pool itself (a read outside a transaction). */
type Queryable = pg.Pool | pg.PoolClient;

export interface AnnotationRow {
  group_id: string;
  version: number;
  annotation: unknown;
  submitted_at: Date | null;
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export function stored(who: string, row: AnnotationRow): StoredGroup {
  return {
    groupId: row.group_id,
    state: {
      version: String(row.version),
      annotation: annotationOut(`group ${JSON.stringify(row.group_id)} of ${who}`, row.annotation),
      submittedAt: iso(row.submitted_at),
    },
  };
}

/** A person's document fields and their version (the defaults, version "0", when none). */
export async function extrasRead(
  client: pg.PoolClient,
  datasetId: string,
  userId: string,
  who: string,
): Promise<{ value: DocumentExtras; version: string }> {
  const result = await client.query<{ version: number; extras: unknown }>(
    "SELECT version, extras FROM documents WHERE dataset_id = $1 AND user_id = $2",
    [datasetId, userId],
  );
  const row = result.rows[0];
  return row === undefined
    ? { value: EXTRAS_EMPTY, version: NO_GROUP_VERSION }
    : { value: extrasOut(`the document of ${who}`, row.extras), version: String(row.version) };
}

/** A person's whole document: groups, document fields, versions. */
export async function personRead(
  client: pg.PoolClient,
  datasetId: string,
  userId: string,
  who: string,
): Promise<PersonAnnotations> {
  const result = await client.query<AnnotationRow>(
    `SELECT group_id, version, annotation, submitted_at FROM annotations
     WHERE dataset_id = $1 AND user_id = $2 ORDER BY group_id`,
    [datasetId, userId],
  );
  const rows = result.rows.map((r) => stored(who, r));
  return personAnnotations(who, rows, await extrasRead(client, datasetId, userId, who));
}

/** One group of one person as stored now. */
export async function groupRead(
  client: pg.PoolClient,
  datasetId: string,
  userId: string,
  groupId: GroupId,
  who: string,
): Promise<GroupState> {
  const result = await client.query<AnnotationRow>(
    `SELECT group_id, version, annotation, submitted_at FROM annotations
     WHERE dataset_id = $1 AND user_id = $2 AND group_id = $3`,
    [datasetId, userId, groupId],
  );
  const row = result.rows[0];
  return row === undefined ? NEVER_WRITTEN : stored(who, row).state;
}

/**
 * Write a person's group if it is at `base` (0: never written).
 *
 * @returns the new version, or null when the row is not at `base` (nothing written)
 */
export async function groupWrite(
  client: pg.PoolClient,
  datasetId: string,
  userId: string,
  groupId: GroupId,
  annotation: GroupAnnotation | null,
  base: number,
): Promise<number | null> {
  const json = annotation === null ? null : JSON.stringify(annotation);
  const result =
    base === 0
      ? await client.query<{ version: number }>(
          `INSERT INTO annotations (dataset_id, user_id, group_id, version, annotation)
           VALUES ($1, $2, $3, 1, $4::jsonb)
           ON CONFLICT (dataset_id, user_id, group_id) DO NOTHING RETURNING version`,
          [datasetId, userId, groupId, json],
        )
      : await client.query<{ version: number }>(
          `UPDATE annotations SET version = version + 1, annotation = $4::jsonb, updated_at = now()
           WHERE dataset_id = $1 AND user_id = $2 AND group_id = $3 AND version = $5
           RETURNING version`,
          [datasetId, userId, groupId, json, base],
        );
  return result.rows[0]?.version ?? null;
}

/**
 * Write a person's document fields if they are at `base` (0: never written).
 *
 * @returns the new version, or null when they are not at `base`
 */
export async function extrasWrite(
  client: pg.PoolClient,
  datasetId: string,
  userId: string,
  extras: DocumentExtras,
  base: number,
): Promise<number | null> {
  const json = JSON.stringify(extras);
  const result =
    base === 0
      ? await client.query<{ version: number }>(
          `INSERT INTO documents (dataset_id, user_id, version, extras) VALUES ($1, $2, 1, $3::jsonb)
           ON CONFLICT (dataset_id, user_id) DO NOTHING RETURNING version`,
          [datasetId, userId, json],
        )
      : await client.query<{ version: number }>(
          `UPDATE documents SET version = version + 1, extras = $3::jsonb, updated_at = now()
           WHERE dataset_id = $1 AND user_id = $2 AND version = $4 RETURNING version`,
          [datasetId, userId, json, base],
        );
  return result.rows[0]?.version ?? null;
}

/** A dataset's id by name, or null when the database has no dataset of that name. */
export async function datasetFind(client: Queryable, name: string): Promise<string | null> {
  const result = await client.query<{ id: string }>("SELECT id FROM datasets WHERE name = $1", [
    name,
  ]);
  return result.rows[0]?.id ?? null;
}

/** A person's id by name (a revoked person too: their annotations stay), or null. */
export async function userIdByName(client: Queryable, name: string): Promise<string | null> {
  const result = await client.query<{ id: string }>("SELECT id FROM users WHERE name = $1", [name]);
  return result.rows[0]?.id ?? null;
}

/** The people who have annotations or document fields stored for the dataset, by name. */
export async function peopleWithAnnotations(
  client: Queryable,
  datasetId: string,
): Promise<{ readonly id: string; readonly name: string }[]> {
  const result = await client.query<{ id: string; name: string }>(
    `SELECT u.id, u.name FROM users u
     WHERE EXISTS (SELECT 1 FROM annotations a WHERE a.dataset_id = $1 AND a.user_id = u.id)
        OR EXISTS (SELECT 1 FROM documents d WHERE d.dataset_id = $1 AND d.user_id = u.id)
     ORDER BY u.name`,
    [datasetId],
  );
  return result.rows;
}

/** The dataset's gold annotations as a version-1 document ("gold"), with who resolved each group. */
export async function goldRead(client: Queryable, datasetId: string): Promise<GoldAnnotations> {
  const result = await client.query<AnnotationRow & { resolver: string }>(
    `SELECT g.group_id, g.version, g.annotation, g.resolved_at AS submitted_at, u.name AS resolver
     FROM gold g JOIN users u ON u.id = g.resolved_by
     WHERE g.dataset_id = $1 ORDER BY g.group_id`,
    [datasetId],
  );
  const gold = personAnnotations(
    TEAM_GOLD_ANNOTATOR,
    result.rows.map((r) => stored("the gold", r)),
  );
  const resolvedBy = Object.fromEntries(result.rows.map((r) => [r.group_id, r.resolver]));
  return { ...gold, resolvedBy };
}
