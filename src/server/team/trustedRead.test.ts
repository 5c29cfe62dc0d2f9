// The trusted read (export --db's) against a real PostgreSQL server (one throwaway cluster for
// this file, src/test/postgres.ts; a fresh database per test): a person's document and the gold
// read by name are what the store gives a lead, a revoked person's work is still read, and an
// unknown dataset or person is refused with the names there are, never made.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../../test/postgres.ts";
import { labelled, teamFixture, type TeamFixture } from "../../test/teamFixture.ts";
import { DatasetNotFound, documentsRead, GOLD } from "./trustedRead.ts";
import { NO_DOCUMENT_VERSION, NO_GROUP_VERSION, StoreNotFound } from "./types.ts";
import { userRevoke } from "./users.ts";

let server: TestPostgres;
let team: TeamFixture | null = null;
beforeAll(async () => {
  server = await startPostgres();
});
afterEach(async () => {
  await team?.close();
  team = null;
});
afterAll(async () => {
  await server?.stop();
});

async function fresh(): Promise<TeamFixture> {
  team = await teamFixture(server);
  return team;
}

describe("documentsRead", () => {
  it("reads a person's document and the gold as the store gives them to a lead", async () => {
    const t = await fresh();
    await t.store.writeGroup(t.ann, "g1", labelled({ r0: "pass" }, "ann's"), NO_GROUP_VERSION);
    await t.store.writeGroup(t.ann, "g2", labelled({ r1: "fail" }), NO_GROUP_VERSION);
    await t.store.writeGroup(t.bob, "g1", labelled({ r0: "fail" }), NO_GROUP_VERSION);
    await t.store.writeGold(t.lead, "g1", labelled({ r0: "pass" }, "resolved"), NO_GROUP_VERSION);
    const [ann, gold, bob] = await documentsRead(t.admin.pool, "run-a", ["ann", GOLD, "bob"]);
    expect(ann).toEqual(await t.store.readAnnotations(t.lead, "ann"));
    expect(bob).toEqual(await t.store.readAnnotations(t.lead, "bob"));
    expect(gold).toEqual(await t.store.readGold(t.lead));
    expect(ann!.annotations.annotator).toBe("ann");
    expect(Object.keys(ann!.annotations.groups)).toEqual(["g1", "g2"]);
    expect(gold!.user).toBe("gold");
    expect(gold!.annotations.groups.g1!.notes).toBe("resolved");
    expect(gold).toMatchObject({ resolvedBy: { g1: "lee" } });
  });

  it("another dataset's annotations stay out; a person with nothing there reads empty", async () => {
    const t = await fresh();
    const other = await t.store.forDataset("run-b");
    await other.writeGroup(t.ann, "g9", labelled({ r0: "pass" }), NO_GROUP_VERSION);
    await t.store.writeGroup(t.bob, "g1", labelled({ r0: "fail" }), NO_GROUP_VERSION);
    const [ann, gold] = await documentsRead(t.admin.pool, "run-a", ["ann", GOLD]);
    expect(ann!.version).toBe(NO_DOCUMENT_VERSION);
    expect(ann!.annotations.groups).toEqual({});
    expect(gold!.annotations.groups).toEqual({});
    const [inB] = await documentsRead(t.admin.pool, "run-b", ["ann"]);
    expect(Object.keys(inB!.annotations.groups)).toEqual(["g9"]);
  });

  it("a revoked person's annotations are still read (they stay when the token goes)", async () => {
    const t = await fresh();
    await t.store.writeGroup(t.bob, "g1", labelled({ r0: "defer" }), NO_GROUP_VERSION);
    await userRevoke(t.admin.pool, "bob");
    const [bob] = await documentsRead(t.admin.pool, "run-a", ["bob"]);
    expect(bob!.annotations.groups.g1!.labels).toEqual({ r0: "defer" });
  });

  it("an unknown dataset is refused with the datasets there are, and not made", async () => {
    const t = await fresh();
    await t.store.forDataset("run-b");
    const read = documentsRead(t.admin.pool, "run-z", ["ann"]);
    await expect(read).rejects.toBeInstanceOf(DatasetNotFound);
    await expect(read).rejects.toThrow(
      'no dataset is named "run-z" in the database; its datasets: "run-a", "run-b"',
    );
    const names = await t.admin.pool.query<{ name: string }>("SELECT name FROM datasets");
    expect(names.rows.map((r) => r.name).sort()).toEqual(["run-a", "run-b"]);
  });

  it("an unknown person is refused with the people who have annotations of the dataset", async () => {
    const t = await fresh();
    const none = documentsRead(t.admin.pool, "run-a", [GOLD, "zed"]);
    await expect(none).rejects.toBeInstanceOf(StoreNotFound);
    await expect(none).rejects.toThrow(
      'no person is named "zed"; no one has annotations of dataset "run-a" yet',
    );
    await t.store.writeGroup(t.bob, "g1", labelled({ r0: "fail" }), NO_GROUP_VERSION);
    await t.store.writeGroup(t.ann, "g1", labelled({ r0: "pass" }), NO_GROUP_VERSION);
    await expect(documentsRead(t.admin.pool, "run-a", ["zed"])).rejects.toThrow(
      'no person is named "zed"; the people with annotations of dataset "run-a": "ann", "bob"',
    );
  });

  it("reads by name as a parameter: a name that would break string-built SQL is only a name", async () => {
    const t = await fresh();
    await expect(
      documentsRead(t.admin.pool, "run-a'; DROP TABLE users; --", ["ann"]),
    ).rejects.toBeInstanceOf(DatasetNotFound);
    await expect(documentsRead(t.admin.pool, "run-a", ["x' OR '1'='1"])).rejects.toThrow(
      /no person is named "x' OR '1'='1"/,
    );
    const users = await t.admin.pool.query("SELECT count(*)::int AS n FROM users");
    expect(users.rows[0]).toEqual({ n: 3 });
  });
});
