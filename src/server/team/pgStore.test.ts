// The PostgreSQL team store against a real server (one throwaway cluster for this file,
// src/test/postgres.ts; a fresh database per test): tokens, versioned writes, two tabs racing,
// who may read and write what, the gold, submission, and values that would break string-built SQL.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ANNOTATIONS_EMPTY, type Annotations } from "../../core/index.ts";
import { startPostgres, type TestPostgres } from "../../test/postgres.ts";
import { labelled, teamFixture, type TeamFixture } from "../../test/teamFixture.ts";
import { PostgresTeamStore } from "./pgStore.ts";
import {
  NO_DOCUMENT_VERSION,
  NO_GROUP_VERSION,
  StoreDenied,
  StoreInvalid,
  StoreNotFound,
} from "./types.ts";
import { userAdd, userList, userRevoke } from "./users.ts";

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

describe("tokens", () => {
  it("a token names its person; a wrong, malformed or unknown one names no one", async () => {
    const t = await fresh();
    expect(await t.store.authenticate(t.tokens.ann)).toEqual(t.ann);
    expect(await t.store.authenticate(t.tokens.lead)).toEqual({ ...t.lead, role: "lead" });
    const [id, secret] = t.tokens.ann.split(".") as [string, string];
    const flipped = `${id}.${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
    expect(await t.store.authenticate(flipped)).toBeNull();
    expect(await t.store.authenticate(`${"x".repeat(12)}.${secret}`)).toBeNull();
    expect(await t.store.authenticate("not-a-token")).toBeNull();
    expect(await t.store.authenticate(null)).toBeNull();
    // Only the id and a hash are stored: the secret is nowhere in the row.
    const row = await t.admin.pool.query<Record<string, unknown>>(
      "SELECT * FROM users WHERE name = 'ann'",
    );
    expect(JSON.stringify(row.rows[0])).not.toContain(secret);
    expect(JSON.stringify(await userList(t.admin.pool))).not.toContain(id);
  });

  it("a revoked token names no one from the next call on, and the store refuses its person", async () => {
    const t = await fresh();
    await t.store.writeGroup(t.ann, "g1", labelled({ r0: "pass" }), NO_GROUP_VERSION);
    expect(await userRevoke(t.admin.pool, "ann")).toMatchObject({ already: false });
    expect(await t.store.authenticate(t.tokens.ann)).toBeNull();
    await expect(t.store.readAnnotations(t.ann)).rejects.toBeInstanceOf(StoreDenied);
    await expect(
      t.store.writeGroup(t.ann, "g1", labelled({ r0: "fail" }), "1"),
    ).rejects.toBeInstanceOf(StoreDenied);
    expect(await userRevoke(t.admin.pool, "ann")).toMatchObject({ already: true });
    expect(await userRevoke(t.admin.pool, "nobody")).toBeNull();
    // Their work stays, for the lead.
    const theirs = await t.store.readAnnotations(t.lead, "ann");
    expect(theirs.annotations.groups.g1!.labels).toEqual({ r0: "pass" });
  });

  it("names are unique and checked", async () => {
    const t = await fresh();
    await expect(userAdd(t.admin.pool, "ann", "lead")).rejects.toThrow(
      /already a person named "ann"/,
    );
    await expect(userAdd(t.admin.pool, " x", "lead")).rejects.toBeInstanceOf(StoreInvalid);
    await expect(userAdd(t.admin.pool, "gold", "lead")).rejects.toBeInstanceOf(StoreInvalid);
    await expect(userAdd(t.admin.pool, "a\nb", "lead")).rejects.toBeInstanceOf(StoreInvalid);
  });
});

describe("versioned writes", () => {
  it("a write lands at the version it was read at; a stale one is refused with the current row, nothing lost", async () => {
    const t = await fresh();
    const first = await t.store.writeGroup(t.ann, "g1", labelled({ r0: "pass" }), "0");
    expect(first).toEqual({ kind: "written", version: "1" });
    const second = await t.store.writeGroup(t.ann, "g1", labelled({ r0: "fail" }, "v2"), "1");
    expect(second).toEqual({ kind: "written", version: "2" });
    const stale = await t.store.writeGroup(t.ann, "g1", labelled({ r0: "defer" }), "1");
    expect(stale.kind).toBe("stale");
    if (stale.kind !== "stale") throw new Error("unreachable");
    expect(stale.message).toMatch(
      /changed since version 1 \(it is at version 2 now\): this write was not applied/,
    );
    expect(stale.current).toMatchObject({ version: "2", submittedAt: null });
    expect(stale.current.annotation).toEqual(labelled({ r0: "fail" }, "v2"));
    // A first write on a group someone already wrote is stale too.
    const again = await t.store.writeGroup(t.ann, "g1", labelled({ r1: "pass" }), "0");
    expect(again).toMatchObject({ kind: "stale", current: { version: "2" } });
    const read = await t.store.readAnnotations(t.ann);
    expect(read.annotations.groups.g1).toEqual(labelled({ r0: "fail" }, "v2"));
    expect(read.versions).toEqual({ g1: "2" });
    expect(read.annotations).toMatchObject({ version: 1, annotator: "ann" });
  });

  it("clearing keeps the row and its version; an empty annotation is a clear", async () => {
    const t = await fresh();
    await t.store.writeGroup(t.ann, "g1", labelled({ r0: "pass" }), "0");
    expect(await t.store.writeGroup(t.ann, "g1", null, "1")).toEqual({
      kind: "written",
      version: "2",
    });
    let read = await t.store.readAnnotations(t.ann);
    expect(read.annotations.groups).toEqual({});
    expect(read.versions).toEqual({ g1: "2" });
    await t.store.writeGroup(t.ann, "g1", labelled({ r0: "pass" }), "2");
    expect(await t.store.writeGroup(t.ann, "g1", labelled({}), "3")).toEqual({
      kind: "written",
      version: "4",
    });
    read = await t.store.readAnnotations(t.ann);
    expect(read.annotations.groups).toEqual({});
  });

  it("refuses a malformed version and an annotation that does not validate", async () => {
    const t = await fresh();
    for (const v of ["", "-1", "1.5", "abc", "99999999999"])
      await expect(t.store.writeGroup(t.ann, "g", labelled({}), v)).rejects.toBeInstanceOf(
        StoreInvalid,
      );
    const bad = { ...labelled({}), labels: { r0: "maybe" } } as never;
    await expect(t.store.writeGroup(t.ann, "g", bad, "0")).rejects.toThrow(/does not validate/);
    await expect(
      t.store.writeGroup(t.ann, "", labelled({ r0: "pass" }), "0"),
    ).rejects.toBeInstanceOf(StoreInvalid);
    await expect(
      t.store.writeGroup(t.ann, "g", labelled({ r0: "pass" }, "nul \u0000 here"), "0"),
    ).rejects.toThrow(/NUL/);
    expect((await t.store.readAnnotations(t.ann)).versions).toEqual({});
  });

  it("two tabs of one annotator write the same group at once: exactly one wins per base version", async () => {
    const t = await fresh();
    // Two tabs: two stores, two connection pools, one person.
    const tab2 = await PostgresTeamStore.open(t.url, "run-a");
    try {
      let base = NO_GROUP_VERSION;
      const acknowledged: { version: string; notes: string }[] = [];
      for (let round = 0; round < 15; round++) {
        const [a, b] = await Promise.all([
          t.store.writeGroup(t.ann, "g", labelled({ r0: "pass" }, `tab1 round ${round}`), base),
          tab2.writeGroup(t.ann, "g", labelled({ r0: "fail" }, `tab2 round ${round}`), base),
        ]);
        const results = [a, b];
        const won = results.filter((r) => r.kind === "written");
        const lost = results.filter((r) => r.kind === "stale");
        expect([won.length, lost.length]).toEqual([1, 1]);
        const winner = won[0]!;
        if (winner.kind !== "written" || lost[0]!.kind !== "stale") throw new Error("unreachable");
        const notes = winner === a ? `tab1 round ${round}` : `tab2 round ${round}`;
        expect(winner.version).toBe(String(round + 1));
        // The loser is shown the winner's write.
        expect(lost[0]!.current.version).toBe(winner.version);
        expect(lost[0]!.current.annotation!.notes).toBe(notes);
        acknowledged.push({ version: winner.version, notes });
        base = winner.version;
      }
      const read = await tab2.readAnnotations(t.ann);
      expect(read.versions.g).toBe(acknowledged.at(-1)!.version);
      expect(read.annotations.groups.g!.notes).toBe(acknowledged.at(-1)!.notes);
    } finally {
      await tab2.close();
    }
  });

  it("eight writers on one base version: one lands, seven are stale", async () => {
    const t = await fresh();
    const tabs = await Promise.all(
      Array.from({ length: 3 }, () => PostgresTeamStore.open(t.url, "run-a")),
    );
    try {
      const stores = [t.store, ...tabs];
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          stores[i % stores.length]!.writeGroup(t.bob, "g", labelled({}, `writer ${i}`), "0"),
        ),
      );
      expect(results.filter((r) => r.kind === "written")).toEqual([
        { kind: "written", version: "1" },
      ]);
      expect(results.filter((r) => r.kind === "stale")).toHaveLength(7);
    } finally {
      await Promise.all(tabs.map((s) => s.close()));
    }
  });
});

describe("who reads and writes what", () => {
  it("an annotator reads and writes only their own annotations", async () => {
    const t = await fresh();
    await t.store.writeGroup(t.ann, "g1", labelled({ r0: "pass" }), "0");
    await t.store.writeGroup(t.bob, "g1", labelled({ r0: "fail" }), "0");
    expect((await t.store.readAnnotations(t.ann)).annotations.groups.g1!.labels).toEqual({
      r0: "pass",
    });
    expect((await t.store.readAnnotations(t.bob)).annotations.groups.g1!.labels).toEqual({
      r0: "fail",
    });
    expect((await t.store.readAnnotations(t.ann, "ann")).user).toBe("ann");
    await expect(t.store.readAnnotations(t.ann, "bob")).rejects.toBeInstanceOf(StoreDenied);
    await expect(t.store.readAnnotations(t.ann, "lee")).rejects.toBeInstanceOf(StoreDenied);
    await expect(t.store.readAnnotations(t.ann, "nobody")).rejects.toBeInstanceOf(StoreDenied);
    await expect(t.store.readEveryone(t.ann)).rejects.toBeInstanceOf(StoreDenied);
    expect((await t.store.listUsers(t.ann)).map((u) => u.name)).toEqual(["ann"]);
    // A caller object that claims to be a lead is read again from the database.
    const forged = { ...t.ann, role: "lead" as const };
    await expect(t.store.readAnnotations(forged, "bob")).rejects.toBeInstanceOf(StoreDenied);
    await expect(t.store.readGold(forged)).rejects.toBeInstanceOf(StoreDenied);
  });

  it("a lead reads anyone's and everyone's, and writes only their own and the gold", async () => {
    const t = await fresh();
    await t.store.writeGroup(t.ann, "g1", labelled({ r0: "pass" }), "0");
    await t.store.writeGroup(t.bob, "g2", labelled({ r1: "fail" }), "0");
    await t.store.writeGroup(t.lead, "g1", labelled({ r0: "defer" }), "0");
    expect((await t.store.readAnnotations(t.lead, "ann")).annotations.groups.g1!.labels).toEqual({
      r0: "pass",
    });
    await expect(t.store.readAnnotations(t.lead, "nobody")).rejects.toBeInstanceOf(StoreNotFound);
    const everyone = await t.store.readEveryone(t.lead);
    expect(everyone.map((p) => [p.user, Object.keys(p.annotations.groups)])).toEqual([
      ["ann", ["g1"]],
      ["bob", ["g2"]],
      ["lee", ["g1"]],
    ]);
    expect((await t.store.listUsers(t.lead)).map((u) => [u.name, u.role])).toEqual([
      ["lee", "lead"],
      ["ann", "annotator"],
      ["bob", "annotator"],
    ]);
  });

  it("the gold: a lead writes and reads it, versioned; an annotator can do neither", async () => {
    const t = await fresh();
    await expect(
      t.store.writeGold(t.ann, "g1", labelled({ r0: "pass" }), "0"),
    ).rejects.toBeInstanceOf(StoreDenied);
    await expect(t.store.readGold(t.ann)).rejects.toBeInstanceOf(StoreDenied);
    expect(await t.store.writeGold(t.lead, "g1", labelled({ r0: "pass" }), "0")).toEqual({
      kind: "written",
      version: "1",
    });
    const stale = await t.store.writeGold(t.lead, "g1", labelled({ r0: "fail" }), "0");
    expect(stale).toMatchObject({ kind: "stale", current: { version: "1" } });
    const gold = await t.store.readGold(t.lead);
    expect(gold.user).toBe("gold");
    expect(gold.annotations.annotator).toBe("gold");
    expect(gold.annotations.groups.g1!.labels).toEqual({ r0: "pass" });
    expect(gold.resolvedBy).toEqual({ g1: "lee" });
    expect(gold.versions).toEqual({ g1: "1" });
    // The gold is no one's own annotations.
    expect((await t.store.readAnnotations(t.lead)).annotations.groups).toEqual({});
  });

  it("datasets are apart: the same person's annotations of another run are another document", async () => {
    const t = await fresh();
    const other = await t.store.forDataset("run-b");
    await t.store.writeGroup(t.ann, "g1", labelled({ r0: "pass" }), "0");
    expect((await other.readAnnotations(t.ann)).annotations.groups).toEqual({});
    expect(await other.writeGroup(t.ann, "g1", labelled({ r0: "fail" }), "0")).toMatchObject({
      kind: "written",
    });
    expect((await t.store.readAnnotations(t.ann)).annotations.groups.g1!.labels).toEqual({
      r0: "pass",
    });
    await other.close();
    // Closing a forDataset store leaves the connections it shares open.
    expect((await t.store.readAnnotations(t.ann)).versions).toEqual({ g1: "1" });
  });
});

describe("submission (blind mode)", () => {
  it("a group is submitted once its annotation exists; the first time is kept through later writes", async () => {
    const t = await fresh();
    await expect(t.store.submitGroup(t.ann, "g1")).rejects.toThrow(/nothing to submit/);
    await t.store.writeGroup(t.ann, "g1", labelled({ r0: "pass" }), "0");
    const submitted = await t.store.submitGroup(t.ann, "g1");
    expect(submitted.version).toBe("1");
    expect(submitted.submittedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await t.store.submitGroup(t.ann, "g1")).submittedAt).toBe(submitted.submittedAt);
    await t.store.writeGroup(t.ann, "g1", labelled({ r0: "fail" }), "1");
    const read = await t.store.readAnnotations(t.ann);
    expect(read.submitted).toEqual({ g1: submitted.submittedAt });
    // Submitting changes no version: a tab that read version 1 before the submit still writes.
    expect(read.versions).toEqual({ g1: "2" });
    expect((await t.store.readAnnotations(t.lead, "ann")).submitted).toEqual({
      g1: submitted.submittedAt,
    });
    expect((await t.store.readAnnotations(t.bob)).submitted).toEqual({});
  });
});

describe("values go to the server as parameters", () => {
  it("group ids, names, notes and queue names with quotes and SQL round-trip and drop nothing", async () => {
    const t = await fresh();
    const evil = `x'); DROP TABLE annotations; --`;
    const name = `O'Brien "; DROP TABLE users; --`;
    const made = await userAdd(t.admin.pool, name, "annotator");
    const obrien = (await t.store.authenticate(made.token))!;
    expect(obrien.name).toBe(name);
    const note = `'; DELETE FROM gold; -- "quoted" \\ back\\slash $1 $$`;
    expect(
      await t.store.writeGroup(obrien, evil, labelled({ [evil]: "pass" }, note), "0"),
    ).toMatchObject({ kind: "written" });
    expect(await t.store.writeGold(t.lead, evil, labelled({}, note), "0")).toMatchObject({
      kind: "written",
    });
    await t.store.writeGroup(obrien, "__proto__", labelled({ r0: "fail" }), "0");
    const read = await t.store.readAnnotations(t.lead, name);
    expect(read.annotations.groups[evil]).toEqual(labelled({ [evil]: "pass" }, note));
    expect(Object.keys(read.annotations.groups).sort()).toEqual(["__proto__", evil].sort());
    expect(Object.hasOwn(read.annotations.groups, "__proto__")).toBe(true);
    expect((await t.store.readGold(t.lead)).annotations.groups[evil]!.notes).toBe(note);
    const queue = await t.store.createQueue(t.lead, {
      name: evil,
      blind: true,
      overlap: 0,
      seed: 1,
      filter: { where: note },
      groups: [evil],
      assignments: [{ groupId: evil, user: name }],
    });
    expect(queue).toMatchObject({ name: evil, filter: { where: note }, groups: 1 });
    expect((await t.store.readQueue(obrien, evil)).items).toEqual([
      { groupId: evil, position: 0, assignees: [name] },
    ]);
    const counts = await t.admin.pool.query<{ n: string }>(
      "SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM annotations) + (SELECT count(*) FROM gold) AS n",
    );
    expect(Number(counts.rows[0]!.n)).toBe(4 + 2 + 1);
  });
});

describe("queues", () => {
  const spec = {
    name: "mixed groups, steps 10-20",
    blind: true,
    overlap: 0.5,
    seed: 7,
    filter: { mixed: true, steps: [10, 20] },
    groups: ["g1", "g2", "g3", "g4"],
    assignments: [
      { groupId: "g1", user: "ann" },
      { groupId: "g1", user: "bob" },
      { groupId: "g2", user: "ann" },
      { groupId: "g3", user: "bob" },
      { groupId: "g4", user: "ann" },
      { groupId: "g4", user: "bob" },
    ],
  };

  it("a lead makes a queue; each annotator sees only their groups, in order, and no one else's name", async () => {
    const t = await fresh();
    await expect(t.store.createQueue(t.ann, spec)).rejects.toBeInstanceOf(StoreDenied);
    const made = await t.store.createQueue(t.lead, spec);
    expect(made).toMatchObject({
      name: spec.name,
      blind: true,
      overlap: 0.5,
      seed: 7,
      filter: spec.filter,
      createdBy: "lee",
      groups: 4,
    });
    expect(await t.store.listQueues(t.lead)).toEqual([made]);
    expect((await t.store.listQueues(t.ann)).map((q) => [q.name, q.groups])).toEqual([
      [spec.name, 3],
    ]);
    const lead = await t.store.readQueue(t.lead, spec.name);
    expect(lead.items).toEqual([
      { groupId: "g1", position: 0, assignees: ["ann", "bob"] },
      { groupId: "g2", position: 1, assignees: ["ann"] },
      { groupId: "g3", position: 2, assignees: ["bob"] },
      { groupId: "g4", position: 3, assignees: ["ann", "bob"] },
    ]);
    const ann = await t.store.readQueue(t.ann, spec.name);
    expect(ann.items).toEqual([
      { groupId: "g1", position: 0, assignees: ["ann"] },
      { groupId: "g2", position: 1, assignees: ["ann"] },
      { groupId: "g4", position: 3, assignees: ["ann"] },
    ]);
    expect(ann.queue.groups).toBe(3);
    // A blind queue's filter may tell of rewards: an annotator is not shown it; an open one's is.
    expect([ann.queue.filter, lead.queue.filter]).toEqual([null, spec.filter]);
    expect((await t.store.listQueues(t.ann))[0]!.filter).toBeNull();
    await t.store.createQueue(t.lead, { ...spec, name: "open", blind: false });
    expect((await t.store.readQueue(t.ann, "open")).queue.filter).toEqual(spec.filter);
    // A person with nothing in a queue does not see it at all.
    const carol = await userAdd(t.admin.pool, "carol", "annotator");
    expect(await t.store.listQueues(carol.user)).toEqual([]);
    await expect(t.store.readQueue(carol.user, spec.name)).rejects.toBeInstanceOf(StoreNotFound);
    await expect(t.store.queueProgress(carol.user, spec.name)).rejects.toBeInstanceOf(
      StoreNotFound,
    );
    await expect(t.store.readQueue(t.lead, "no such")).rejects.toBeInstanceOf(StoreNotFound);
  });

  it("progress counts each person's annotated and submitted groups of their assignment", async () => {
    const t = await fresh();
    await t.store.createQueue(t.lead, spec);
    await t.store.writeGroup(t.ann, "g1", labelled({ r0: "pass" }), "0");
    await t.store.writeGroup(t.ann, "g2", labelled({ r0: "fail" }), "0");
    await t.store.submitGroup(t.ann, "g1");
    // Work outside the queue, and a cleared group, do not count.
    await t.store.writeGroup(t.ann, "g9", labelled({ r0: "fail" }), "0");
    await t.store.writeGroup(t.bob, "g3", labelled({ r0: "pass" }), "0");
    await t.store.writeGroup(t.bob, "g3", null, "1");
    expect(await t.store.queueProgress(t.lead, spec.name)).toEqual([
      { user: "ann", assigned: 3, annotated: 2, submitted: 1 },
      { user: "bob", assigned: 3, annotated: 0, submitted: 0 },
    ]);
    expect(await t.store.queueProgress(t.ann, spec.name)).toEqual([
      { user: "ann", assigned: 3, annotated: 2, submitted: 1 },
    ]);
  });

  it("refuses a bad spec, a taken name and a person who is unknown or revoked, keeping nothing of it", async () => {
    const t = await fresh();
    await expect(t.store.createQueue(t.lead, { ...spec, overlap: 1.5 })).rejects.toThrow(/overlap/);
    await expect(
      t.store.createQueue(t.lead, { ...spec, assignments: [{ groupId: "g1", user: "zed" }] }),
    ).rejects.toThrow(/no active person is named "zed"/);
    await userRevoke(t.admin.pool, "bob");
    await expect(t.store.createQueue(t.lead, spec)).rejects.toThrow(
      /no active person is named "bob"/,
    );
    const annOnly = { ...spec, assignments: spec.assignments.filter((a) => a.user === "ann") };
    await t.store.createQueue(t.lead, annOnly);
    await expect(t.store.createQueue(t.lead, annOnly)).rejects.toThrow(/already exists/);
    const rows = await t.admin.pool.query<{ q: string; i: string; a: string }>(
      "SELECT (SELECT count(*) FROM queues) AS q, (SELECT count(*) FROM queue_items) AS i, (SELECT count(*) FROM assignments) AS a",
    );
    expect(rows.rows[0]).toEqual({ q: "1", i: "4", a: "3" });
  });

  it("blind groups: every group of any blind queue of the dataset, once, for anyone; open queues and other datasets add none", async () => {
    const t = await fresh();
    expect(await t.store.blindGroups(t.ann)).toEqual([]);
    // Blind, and given to ann alone: bob is told of its groups too (he may get them tomorrow).
    await t.store.createQueue(t.lead, {
      ...spec,
      name: "blind b",
      groups: ["g9", "g1"],
      assignments: [{ groupId: "g9", user: "ann" }],
    });
    await t.store.createQueue(t.lead, {
      ...spec,
      name: "open",
      blind: false,
      groups: ["g5"],
      assignments: [],
    });
    await t.store.createQueue(t.lead, spec);
    const other = await t.store.forDataset("run-b");
    await other.createQueue(t.lead, { ...spec, groups: ["x1"], assignments: [] });
    const blind = ["g1", "g2", "g3", "g4", "g9"];
    expect(await t.store.blindGroups(t.bob)).toEqual(blind);
    expect(await t.store.blindGroups(t.lead)).toEqual(blind);
    expect(await other.blindGroups(t.ann)).toEqual(["x1"]);
    await userRevoke(t.admin.pool, "bob");
    await expect(t.store.blindGroups(t.bob)).rejects.toBeInstanceOf(StoreDenied);
  });
});

describe("whole-document writes (the view server's PUT /api/annotations)", () => {
  const doc = (groups: Annotations["groups"], extra: Partial<Annotations> = {}): Annotations => ({
    ...ANNOTATIONS_EMPTY,
    annotator: "someone else",
    groups,
    ...extra,
  });

  const rubric = {
    versions: [
      {
        version: 1,
        savedAt: "2026-12-01T00:00:00.000Z",
        author: "human" as const,
        solution: ["s"],
        behavior: [],
      },
    ],
    labelVersions: { r10: 1, r2: 1 },
  };

  it("round-trips the whole version-1 document, document fields too; the same document writes nothing", async () => {
    const t = await fresh();
    const empty = await t.store.readAnnotations(t.ann);
    expect(empty.version).toBe(NO_DOCUMENT_VERSION);
    // Keys in an order jsonb does not keep: equal documents must still compare equal.
    const written = doc(
      { g1: labelled({ r10: "pass", r2: "fail" }), g2: labelled({}, "only notes") },
      { hackReasons: ["zeta", "alpha"], rubrics: { zz: rubric, a: rubric } },
    );
    const first = await t.store.writeDocument(t.ann, written, NO_DOCUMENT_VERSION);
    expect(first.kind).toBe("written");
    if (first.kind !== "written") throw new Error("unreachable");
    const read = await t.store.readAnnotations(t.ann);
    expect(read.version).toBe(first.version);
    expect(read.annotations).toEqual({ ...written, annotator: "ann" });
    expect(read.versions).toEqual({ g1: "1", g2: "1" });
    const same = await t.store.writeDocument(t.ann, read.annotations, read.version);
    expect(same).toEqual({ kind: "written", version: read.version });
    expect((await t.store.readAnnotations(t.ann)).versions).toEqual({ g1: "1", g2: "1" });
    // A group dropped from the document is cleared; a changed one moves on.
    const next = await t.store.writeDocument(
      t.ann,
      doc({ g1: labelled({ r10: "fail" }) }, { hackReasons: ["zeta", "alpha"] }),
      read.version,
    );
    expect(next.kind).toBe("written");
    const after = await t.store.readAnnotations(t.ann);
    expect(after.versions).toEqual({ g1: "2", g2: "2" });
    expect(Object.keys(after.annotations.groups)).toEqual(["g1"]);
    expect(after.annotations.rubrics).toEqual({});
    expect(after.version).not.toBe(read.version);
    // Another person's document is untouched.
    expect((await t.store.readAnnotations(t.bob)).version).toBe(NO_DOCUMENT_VERSION);
  });

  it("a stale base is refused whole with the current document", async () => {
    const t = await fresh();
    const first = await t.store.writeDocument(t.ann, doc({ g1: labelled({ r0: "pass" }) }), "none");
    if (first.kind !== "written") throw new Error("unreachable");
    // A group write moves the document's version too.
    await t.store.writeGroup(t.ann, "g1", labelled({ r0: "fail" }), "1");
    const stale = await t.store.writeDocument(
      t.ann,
      doc({ g1: labelled({ r0: "defer" }), g2: labelled({ r1: "pass" }) }),
      first.version,
    );
    expect(stale.kind).toBe("stale");
    if (stale.kind !== "stale") throw new Error("unreachable");
    expect(stale.message).toMatch(/merge and write again/);
    expect(stale.current.annotations.groups).toEqual({ g1: labelled({ r0: "fail" }) });
    expect(stale.current.version).not.toBe(first.version);
  });

  it("racing a group write: one lands; a document that loses is rolled back whole", async () => {
    const t = await fresh();
    const tab2 = await PostgresTeamStore.open(t.url, "run-a");
    try {
      for (let round = 0; round < 8; round++) {
        const read = await t.store.readAnnotations(t.ann);
        const base = read.versions.g1 ?? NO_GROUP_VERSION;
        const [d, g] = await Promise.all([
          t.store.writeDocument(
            t.ann,
            doc({ g1: labelled({}, `doc ${round}`), [`other${round}`]: labelled({ r0: "pass" }) }),
            read.version,
          ),
          tab2.writeGroup(t.ann, "g1", labelled({}, `group ${round}`), base),
        ]);
        expect([d.kind, g.kind].sort()).toEqual(["stale", "written"]);
        const now = await t.store.readAnnotations(t.ann);
        if (d.kind === "written") expect(now.annotations.groups.g1!.notes).toBe(`doc ${round}`);
        else {
          expect(now.annotations.groups.g1!.notes).toBe(`group ${round}`);
          expect(now.versions[`other${round}`]).toBeUndefined();
        }
      }
    } finally {
      await tab2.close();
    }
  });

  it("refuses a document that does not validate, and a revoked caller", async () => {
    const t = await fresh();
    const bad = { ...doc({}), version: 2 } as unknown as Annotations;
    await expect(t.store.writeDocument(t.ann, bad, "none")).rejects.toThrow(/does not validate/);
    await userRevoke(t.admin.pool, "ann");
    await expect(t.store.writeDocument(t.ann, doc({}), "none")).rejects.toBeInstanceOf(StoreDenied);
  });
});
