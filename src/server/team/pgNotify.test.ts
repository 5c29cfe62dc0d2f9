// The team store's channel between server processes (pgNotify.ts) on a real PostgreSQL server:
// a notification reaches every listener, a listener whose connection is cut reconnects and hears
// again, and stopping gives the connection back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbOpen, type Db } from "../db/connect.ts";
import { startPostgres, type TestPostgres } from "../../test/postgres.ts";
import { pgListen, pgNotify } from "./pgNotify.ts";

let server: TestPostgres;
let db: Db;

beforeAll(async () => {
  server = await startPostgres();
  db = await dbOpen(await server.createDatabase(`notify_${process.pid}`));
});
afterAll(async () => {
  await db?.close();
  await server?.stop();
});

const until = async (ok: () => boolean, what: string) => {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ok(), what).toBe(true);
};

describe("pgListen / pgNotify", () => {
  it("every listener hears each text; a cut connection reconnects; stop gives it back", async () => {
    const heard: string[][] = [[], []];
    const warnings: string[] = [];
    const stops = await Promise.all(
      heard.map((list) =>
        pgListen(
          db.pool,
          (t) => list.push(t),
          (m) => warnings.push(m),
        ),
      ),
    );
    await pgNotify(db.pool, "one 'quoted'; text");
    await until(() => heard.every((l) => l.length === 1), "both heard");
    expect(heard).toEqual([["one 'quoted'; text"], ["one 'quoted'; text"]]);

    // The database ends the listeners' sessions (a restart, a failover, an admin).
    await db.pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
    );
    await until(() => warnings.length === 2, "both told");
    expect(warnings[0]).toMatch(/broke .*reconnecting/);
    // Sent until heard: what is sent while a listener is away is lost, by design.
    await until(() => {
      pgNotify(db.pool, "two").catch(() => undefined);
      return heard.every((l) => l.includes("two"));
    }, "heard after reconnecting");

    for (const stop of stops) await stop();
    let listening = -1;
    const count = async () => {
      const result = await db.pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
      );
      listening = Number(result.rows[0]!.n);
    };
    for (let i = 0; i < 100 && listening !== 0; i++) {
      await count();
      if (listening !== 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(listening).toBe(0);
    const before = heard.map((l) => l.length);
    await pgNotify(db.pool, "three");
    await new Promise((r) => setTimeout(r, 100));
    expect(heard.map((l) => l.length)).toEqual(before);
  });
});
