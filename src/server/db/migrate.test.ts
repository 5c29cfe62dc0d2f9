// The team store's migrations and connection, against a real PostgreSQL server (one throwaway
// cluster for this file: src/test/postgres.ts).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../../test/postgres.ts";
import { DbError, dbOpen, inTransaction } from "./connect.ts";
import { migrate } from "./migrate.ts";
import { MIGRATIONS } from "./migrations.ts";

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});

async function tables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    );
    return result.rows.map((r) => r.table_name);
  } finally {
    await client.end();
  }
}

describe("migrations", () => {
  it("apply once at the first start, recorded in schema_migrations; a second start applies nothing", async () => {
    const url = await server.createDatabase("m_once");
    const first = await dbOpen(url);
    expect(first.applied).toEqual(MIGRATIONS.map((m) => m.version));
    const recorded = await first.pool.query<{ version: number; name: string }>(
      "SELECT version, name FROM schema_migrations ORDER BY version",
    );
    expect(recorded.rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    await first.close();
    expect(await tables(url)).toEqual([
      "annotations",
      "assignments",
      "datasets",
      "documents",
      "gold",
      "queue_items",
      "queues",
      "schema_migrations",
      "users",
    ]);
    const second = await dbOpen(url);
    expect(second.applied).toEqual([]);
    await second.close();
  });

  it("concurrent starts are safe: the advisory lock lets one apply and the others find it done", async () => {
    const url = await server.createDatabase("m_concurrent");
    const opened = await Promise.all([dbOpen(url), dbOpen(url), dbOpen(url), dbOpen(url)]);
    const applied = opened.map((d) => d.applied);
    expect(applied.filter((a) => a.length > 0)).toEqual([MIGRATIONS.map((m) => m.version)]);
    expect(applied.filter((a) => a.length === 0)).toHaveLength(3);
    await Promise.all(opened.map((d) => d.close()));
  });

  it("a failing migration is rolled back whole and not recorded; the next start tries it again", async () => {
    const url = await server.createDatabase("m_fail");
    const db = await dbOpen(url);
    const broken = [
      ...MIGRATIONS,
      {
        version: 99,
        name: "broken",
        sql: "CREATE TABLE half (x int); SELECT * FROM no_such_table",
      },
    ];
    await expect(migrate(db.pool, broken)).rejects.toThrow(
      /migration 99 \(broken\) failed and was rolled back: .*no_such_table/,
    );
    const half = await db.pool.query("SELECT to_regclass('half') AS t");
    expect(half.rows[0]).toEqual({ t: null });
    const versions = await db.pool.query("SELECT max(version) AS v FROM schema_migrations");
    expect(versions.rows[0]).toEqual({ v: MIGRATIONS.at(-1)!.version });
    const fixed = [...MIGRATIONS, { version: 99, name: "fixed", sql: "CREATE TABLE half (x int)" }];
    expect(await migrate(db.pool, fixed)).toEqual([99]);
    // This build does not know migration 99: it refuses the newer database rather than guess.
    await expect(migrate(db.pool)).rejects.toThrow(
      /migration 99, newer than this rollout-studio knows/,
    );
    await db.close();
  });

  it("a transaction commits when its body returns and rolls back when it throws", async () => {
    const url = await server.createDatabase("m_tx");
    const db = await dbOpen(url);
    await db.pool.query("CREATE TABLE t (x int)");
    await inTransaction(db.pool, (c) => c.query("INSERT INTO t VALUES (1)"));
    await expect(
      inTransaction(db.pool, async (c) => {
        await c.query("INSERT INTO t VALUES (2)");
        throw new Error("body failed");
      }),
    ).rejects.toThrow("body failed");
    expect((await db.pool.query("SELECT x FROM t")).rows).toEqual([{ x: 1 }]);
    await db.close();
  });
});

describe("connection errors never show the password", () => {
  it("a wrong password: DbError naming the URL redacted", async () => {
    const wrong = server.url.replace(server.password, "not-the-password-42");
    const error = await dbOpen(wrong).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DbError);
    const message = (error as Error).message;
    expect(message).toMatch(/password authentication failed/);
    expect(message).toContain(`postgres://studio:***@127.0.0.1:${server.port}/studio`);
    expect(message).not.toContain("not-the-password-42");
  });

  it("an unreachable server: DbError naming the URL redacted", async () => {
    const url = `postgres://studio:${server.password}@127.0.0.1:1/studio`;
    const error = await dbOpen(url).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DbError);
    const message = (error as Error).message;
    expect(message).toMatch(/ECONNREFUSED/);
    expect(message).toContain("postgres://studio:***@127.0.0.1:1/studio");
    expect(message).not.toContain(server.password);
  });
});
