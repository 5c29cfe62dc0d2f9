/**
 * Apply the migrations a database lacks (migrations.ts), each in its own transaction, recorded in
 * schema_migrations. Idempotent: a database that has them all is left alone. Concurrent starts
 * (two `view --db` at once, a `users add` during a start) are safe: a session-level advisory lock
 * serialises them, and the second finds the work done.
 */
import type pg from "pg";
import { DbError } from "./errors.ts";
import { MIGRATIONS, type Migration } from "./migrations.ts";

/** The advisory lock's key: any constant the database's other users do not take. */
export const MIGRATION_LOCK = 0x52_6f_6c_6c_53_74;

async function applyOne(client: pg.PoolClient, m: Migration): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query(m.sql);
    await client.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
      m.version,
      m.name,
    ]);
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw new DbError(
      `migration ${m.version} (${m.name}) failed and was rolled back: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/**
 * Bring the database up to the newest migration.
 *
 * @returns the versions applied now, oldest first ([] when it was up to date)
 * @throws an Error (DbError by name) when a migration fails, or the database holds a migration
 *   newer than this build knows
 */
export async function migrate(
  pool: pg.Pool,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await client.query(
        `CREATE TABLE IF NOT EXISTS schema_migrations (
           version     integer PRIMARY KEY,
           name        text NOT NULL,
           applied_at  timestamptz NOT NULL DEFAULT now()
         )`,
      );
      const done = await client.query<{ version: number }>(
        "SELECT version FROM schema_migrations ORDER BY version",
      );
      const have = new Set(done.rows.map((r) => r.version));
      const newest = migrations.reduce((n, m) => Math.max(n, m.version), 0);
      const ahead = done.rows.find((r) => r.version > newest);
      if (ahead !== undefined)
        throw new DbError(
          `the database has migration ${ahead.version}, newer than this rollout-studio knows (${newest}): update rollout-studio`,
        );
      const applied: number[] = [];
      for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
        if (have.has(m.version)) continue;
        await applyOne(client, m);
        applied.push(m.version);
      }
      return applied;
    } finally {
      // A connection that cannot unlock is dropped (its lock ends with its session).
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {
        broken = true;
      });
    }
  } finally {
    client.release(broken);
  }
}
