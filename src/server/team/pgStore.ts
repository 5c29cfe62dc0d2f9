/**
 * The team store on PostgreSQL (issue 18): one dataset's annotations per person, the gold, and
 * the queues (pgQueues.ts), for the people `rollout-studio users` made (users.ts).
 *
 * Every operation is one transaction that first reads the caller again by id (not revoked; the
 * role from the database, never from the object passed in), so access is decided here whatever
 * calls the store. A write is a single conditional statement on the row: an UPDATE that matches
 * only at the base version, or for a first write an INSERT that does nothing when a row appeared
 * meanwhile; of two writes on one base version exactly one matches, the other is told it is
 * stale and given the row as it is. A write is acknowledged only after COMMIT (synchronous
 * commit: on disk). Every value goes to the server as a parameter.
 */
import type pg from "pg";
import type { Annotations, GroupAnnotation, GroupId } from "../../core/index.ts";
import { annotationsParse } from "../../io/index.ts";
import { dbOpen, inTransaction, type Db, type DbOpenOptions } from "../db/connect.ts";
import {
  annotationIn,
  canonicalJson,
  checkGroupId,
  documentVersion,
  extrasOf,
  NEVER_WRITTEN,
  staleMessage,
  versionNumber,
} from "./groupRows.ts";
import { pgListen, pgNotify } from "./pgNotify.ts";
import { queueBlindGroups, queueCreate, queueList, queueProgress, queueRead } from "./pgQueues.ts";
import {
  datasetFind,
  extrasRead,
  extrasWrite,
  goldRead,
  groupRead,
  groupWrite,
  peopleWithAnnotations,
  personRead,
  stored,
  userIdByName,
  type AnnotationRow,
} from "./pgRows.ts";
import {
  StoreDenied,
  StoreInvalid,
  StoreNotFound,
  type DocumentWrite,
  type GoldAnnotations,
  type GroupState,
  type GroupVersion,
  type GroupWrite,
  type PersonAnnotations,
  type QueueInfo,
  type QueueProgress,
  type QueueSpec,
  type QueueView,
  type StoreUser,
  type TeamStore,
  type UserInfo,
} from "./types.ts";
import { authenticateToken, userList } from "./users.ts";

/** The caller as the database has them now. */
export interface Caller extends StoreUser {
  readonly isLead: boolean;
}

/** A conditional write inside a whole-document write found its row moved: roll it all back. */
class WriteRaced extends Error {}

/** @throws StoreDenied when the caller is unknown or revoked */
async function callerNow(client: pg.PoolClient, caller: StoreUser): Promise<Caller> {
  const result = await client.query<{ id: string; name: string; role: "annotator" | "lead" }>(
    "SELECT id, name, role FROM users WHERE id = $1 AND revoked_at IS NULL",
    [caller.id],
  );
  const row = result.rows[0];
  if (row === undefined) throw new StoreDenied("this token was revoked, or names no one");
  return { id: row.id, name: row.name, role: row.role, isLead: row.role === "lead" };
}

function leadOnly(me: Caller, what: string): void {
  if (!me.isLead) throw new StoreDenied(`only a lead may ${what}`);
}

/** The dataset's id, made on first use. */
async function datasetId(pool: pg.Pool, name: string): Promise<string> {
  if (name === "") throw new StoreInvalid("a dataset needs a name");
  await pool.query("INSERT INTO datasets (name) VALUES ($1) ON CONFLICT (name) DO NOTHING", [name]);
  return (await datasetFind(pool, name))!;
}

export class PostgresTeamStore implements TeamStore {
  readonly kind = "postgres" as const;
  readonly dataset: string;
  readonly location: string;
  private readonly db: Db;
  private readonly datasetKey: string;
  private readonly ownsDb: boolean;
  private closed = false;
  /** The listeners this store started (listen), stopped on close. */
  private readonly listeners = new Set<() => Promise<void>>();

  private constructor(db: Db, dataset: string, datasetKey: string, ownsDb: boolean) {
    this.db = db;
    this.dataset = dataset;
    this.datasetKey = datasetKey;
    this.ownsDb = ownsDb;
    this.location = `${db.where} (dataset ${JSON.stringify(dataset)})`;
  }

  /**
   * Connect, apply the migrations, and serve `dataset`.
   *
   * @throws DbError (password masked) when the database cannot be used
   */
  static async open(
    url: string,
    dataset: string,
    options?: DbOpenOptions,
  ): Promise<PostgresTeamStore> {
    const db = await dbOpen(url, options);
    try {
      return new PostgresTeamStore(db, dataset, await datasetId(db.pool, dataset), true);
    } catch (e) {
      await db.close();
      throw e;
    }
  }

  /** Another dataset on the same connections (closing it leaves them open). */
  async forDataset(dataset: string): Promise<PostgresTeamStore> {
    return new PostgresTeamStore(this.db, dataset, await datasetId(this.db.pool, dataset), false);
  }

  private as<T>(caller: StoreUser, body: (client: pg.PoolClient, me: Caller) => Promise<T>) {
    return inTransaction(this.db.pool, async (client) =>
      body(client, await callerNow(client, caller)),
    );
  }

  authenticate(token: string | null): Promise<StoreUser | null> {
    return authenticateToken(this.db.pool, token);
  }

  async listUsers(caller: StoreUser): Promise<readonly UserInfo[]> {
    return this.as(caller, async (client, me) => {
      const all = await userList(client);
      return me.isLead ? all : all.filter((u) => u.name === me.name);
    });
  }

  async readAnnotations(caller: StoreUser, person?: string): Promise<PersonAnnotations> {
    return this.as(caller, async (client, me) => {
      if (person === undefined || person === me.name)
        return personRead(client, this.datasetKey, me.id, me.name);
      leadOnly(me, "read another person's annotations");
      const id = await userIdByName(client, person);
      if (id === null) throw new StoreNotFound(`no person is named ${JSON.stringify(person)}`);
      return personRead(client, this.datasetKey, id, person);
    });
  }

  async readEveryone(caller: StoreUser): Promise<readonly PersonAnnotations[]> {
    return this.as(caller, async (client, me) => {
      leadOnly(me, "read everyone's annotations");
      const all: PersonAnnotations[] = [];
      for (const p of await peopleWithAnnotations(client, this.datasetKey))
        all.push(await personRead(client, this.datasetKey, p.id, p.name));
      return all;
    });
  }

  async writeGroup(
    caller: StoreUser,
    groupId: GroupId,
    annotation: GroupAnnotation | null,
    baseVersion: GroupVersion,
  ): Promise<GroupWrite> {
    checkGroupId(groupId);
    const base = versionNumber(baseVersion);
    const value = annotationIn(groupId, annotation);
    return this.as(caller, async (client, me) => {
      const written = await groupWrite(client, this.datasetKey, me.id, groupId, value, base);
      if (written !== null) return { kind: "written", version: String(written) };
      const current = await groupRead(client, this.datasetKey, me.id, groupId, me.name);
      return {
        kind: "stale",
        message: staleMessage(groupId, baseVersion, current.version),
        current,
      };
    });
  }

  async writeDocument(
    caller: StoreUser,
    document: Annotations,
    baseVersion: string,
  ): Promise<DocumentWrite> {
    const parsed = annotationsParse("the document", JSON.stringify(document));
    if (!parsed.ok)
      throw new StoreInvalid(
        `the document does not validate: ${parsed.issues.map((i) => i.message).join("; ")}`,
      );
    const wanted = new Map(
      Object.entries(parsed.value.groups).map(([id, a]) => {
        checkGroupId(id);
        return [id, annotationIn(id, a)] as const;
      }),
    );
    const stale = (current: PersonAnnotations): DocumentWrite => ({
      kind: "stale",
      message:
        "the annotations changed since the version this write is based on; merge and write again",
      current,
    });
    try {
      return await this.as(caller, async (client, me) => {
        // One whole-document write of a person at a time: the next reads what this one wrote.
        // NO KEY UPDATE, not UPDATE: it must not block the key-share lock a group write's
        // foreign key takes on the same row (that would deadlock with the write's insert).
        await client.query("SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE", [me.id]);
        const current = await personRead(client, this.datasetKey, me.id, me.name);
        if (current.version !== baseVersion) return stale(current);
        const versions = { ...current.versions };
        const ids = new Set([...Object.keys(current.annotations.groups), ...wanted.keys()]);
        for (const id of ids) {
          const want = wanted.get(id) ?? null;
          const have = Object.hasOwn(current.annotations.groups, id)
            ? current.annotations.groups[id]!
            : null;
          if (canonicalJson(want) === canonicalJson(have)) continue;
          const base = versionNumber(current.versions[id] ?? NEVER_WRITTEN.version);
          const v = await groupWrite(client, this.datasetKey, me.id, id, want, base);
          if (v === null) throw new WriteRaced();
          versions[id] = String(v);
        }
        const extras = await extrasRead(client, this.datasetKey, me.id, me.name);
        let extrasVersion = extras.version;
        const want = extrasOf(parsed.value);
        if (canonicalJson(want) !== canonicalJson(extras.value)) {
          const v = await extrasWrite(
            client,
            this.datasetKey,
            me.id,
            want,
            versionNumber(extras.version),
          );
          if (v === null) throw new WriteRaced();
          extrasVersion = String(v);
        }
        return { kind: "written", version: documentVersion(versions, extrasVersion) };
      });
    } catch (e) {
      if (!(e instanceof WriteRaced)) throw e;
      // A group write (another tab, group by group) landed meanwhile: all of this was rolled back.
      return stale(
        await this.as(caller, (client, me) => personRead(client, this.datasetKey, me.id, me.name)),
      );
    }
  }

  async submitGroup(caller: StoreUser, groupId: GroupId): Promise<GroupState> {
    checkGroupId(groupId);
    return this.as(caller, async (client, me) => {
      const result = await client.query<AnnotationRow>(
        `UPDATE annotations SET submitted_at = COALESCE(submitted_at, now())
         WHERE dataset_id = $1 AND user_id = $2 AND group_id = $3 AND annotation IS NOT NULL
         RETURNING group_id, version, annotation, submitted_at`,
        [this.datasetKey, me.id, groupId],
      );
      const row = result.rows[0];
      if (row === undefined)
        throw new StoreInvalid(
          `nothing to submit: you have no annotation of group ${JSON.stringify(groupId)}`,
        );
      return stored(me.name, row).state;
    });
  }

  async readGold(caller: StoreUser): Promise<GoldAnnotations> {
    return this.as(caller, async (client, me) => {
      leadOnly(me, "read the gold annotations");
      return goldRead(client, this.datasetKey);
    });
  }

  async writeGold(
    caller: StoreUser,
    groupId: GroupId,
    annotation: GroupAnnotation | null,
    baseVersion: GroupVersion,
  ): Promise<GroupWrite> {
    checkGroupId(groupId);
    const base = versionNumber(baseVersion);
    const value = annotationIn(groupId, annotation);
    const json = value === null ? null : JSON.stringify(value);
    return this.as(caller, async (client, me) => {
      leadOnly(me, "write the gold annotations");
      const result =
        base === 0
          ? await client.query<{ version: number }>(
              `INSERT INTO gold (dataset_id, group_id, version, annotation, resolved_by)
               VALUES ($1, $2, 1, $3::jsonb, $4)
               ON CONFLICT (dataset_id, group_id) DO NOTHING RETURNING version`,
              [this.datasetKey, groupId, json, me.id],
            )
          : await client.query<{ version: number }>(
              `UPDATE gold SET version = version + 1, annotation = $3::jsonb, resolved_by = $4,
                 resolved_at = now()
               WHERE dataset_id = $1 AND group_id = $2 AND version = $5 RETURNING version`,
              [this.datasetKey, groupId, json, me.id, base],
            );
      const written = result.rows[0];
      if (written !== undefined) return { kind: "written", version: String(written.version) };
      const now = await client.query<AnnotationRow>(
        `SELECT group_id, version, annotation, resolved_at AS submitted_at FROM gold
         WHERE dataset_id = $1 AND group_id = $2`,
        [this.datasetKey, groupId],
      );
      const current =
        now.rows[0] === undefined ? NEVER_WRITTEN : stored("the gold", now.rows[0]).state;
      return {
        kind: "stale",
        message: staleMessage(groupId, baseVersion, current.version),
        current,
      };
    });
  }

  createQueue(caller: StoreUser, spec: QueueSpec): Promise<QueueInfo> {
    return this.as(caller, (client, me) => {
      leadOnly(me, "make a queue");
      return queueCreate(client, this.datasetKey, me, spec);
    });
  }

  listQueues(caller: StoreUser): Promise<readonly QueueInfo[]> {
    return this.as(caller, (client, me) => queueList(client, this.datasetKey, me));
  }

  readQueue(caller: StoreUser, name: string): Promise<QueueView> {
    return this.as(caller, (client, me) => queueRead(client, this.datasetKey, me, name));
  }

  queueProgress(caller: StoreUser, name: string): Promise<readonly QueueProgress[]> {
    return this.as(caller, (client, me) => queueProgress(client, this.datasetKey, me, name));
  }

  blindGroups(caller: StoreUser): Promise<readonly GroupId[]> {
    return this.as(caller, (client) => queueBlindGroups(client, this.datasetKey));
  }

  notify(text: string): Promise<void> {
    return pgNotify(this.db.pool, text);
  }

  async listen(
    onText: (text: string) => void,
    warn: (message: string) => void,
  ): Promise<() => Promise<void>> {
    const stop = await pgListen(this.db.pool, onText, warn);
    const once = async () => {
      if (!this.listeners.delete(once)) return;
      await stop();
    };
    this.listeners.add(once);
    return once;
  }

  /**
   * Stop this store's listeners, and close the connections (a store made by forDataset leaves
   * them to the one that opened them).
   */
  async close(): Promise<void> {
    await Promise.all([...this.listeners].map((stop) => stop()));
    if (!this.ownsDb || this.closed) return;
    this.closed = true;
    await this.db.close();
  }
}
