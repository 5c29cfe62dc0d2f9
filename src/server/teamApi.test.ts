/**
 * Team mode's `/api/team/...` routes through `app.request()`, against a real PostgreSQL server
 * (one throwaway cluster for this file): every route with its person's token, parsed with the
 * schemas the page parses it with (io/view/teamApi.ts); every route with another person's token
 * (refused, or only their own rows, never another's data); every route with no token, a wrong one
 * and a revoked one (401, nothing written); the file mode's 404; and who hears which event.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  teamEveryoneSchema,
  teamGoldSchema,
  teamGroupConflictSchema,
  teamGroupWrittenSchema,
  teamPersonSchema,
  teamProgressReplySchema,
  teamQueueCreatedSchema,
  teamQueuesReplySchema,
  teamQueueViewSchema,
  teamStateSchema,
  teamSubmittedSchema,
  teamUsersReplySchema,
  type TeamQueueSpecBody,
} from "../io/view/teamApi.ts";
import { startPostgres, type TestPostgres } from "../test/postgres.ts";
import { labelled, teamFixture, type TeamFixture } from "../test/teamFixture.ts";
import { teamServer, type TeamCall, type TeamServer } from "../test/teamServer.ts";
import { eventReaches } from "./events.ts";
import { TEAM_MODE_NEEDED } from "./teamApiRoutes.ts";
import { userAdd, userRevoke } from "./team/users.ts";

let server: TestPostgres;
let team: TeamFixture;
let srv: TeamServer;

beforeAll(async () => {
  server = await startPostgres();
  team = await teamFixture(server);
  srv = await teamServer(team.store);
});
afterAll(async () => {
  srv?.close();
  await team?.close();
  await server?.stop();
});

const call = (token: string | null, path: string, c?: TeamCall) => srv.call(token, path, c);
const json = async (res: Response): Promise<unknown> => (await res.json()) as unknown;

/** A queue spec: g1 to ann and bob (the overlap), g2 to ann, g3 to bob. */
const queueSpec = (
  name: string,
  blind: boolean,
  groups = ["g1", "g2", "g3"],
): TeamQueueSpecBody => ({
  name,
  blind,
  overlap: 0.34,
  seed: 11,
  filter: { mixed: true },
  groups,
  assignments: [
    { groupId: groups[0]!, user: "ann" },
    { groupId: groups[0]!, user: "bob" },
    { groupId: groups[1]!, user: "ann" },
    { groupId: groups[2]!, user: "bob" },
  ],
});

const writeGroup = (token: string, groupId: string, annotation: unknown, base: string) =>
  call(token, `/api/team/groups/${encodeURIComponent(groupId)}`, {
    method: "PUT",
    body: { annotation },
    ifMatch: base,
  });

describe("queues and progress with each person's own token", () => {
  it("a lead makes a queue (201); everyone sees what is theirs of it, in the page's shapes", async () => {
    const made = await call(team.tokens.lead, "/api/team/queues", {
      method: "POST",
      body: queueSpec("first", true),
    });
    expect(made.status).toBe(201);
    const { queue } = teamQueueCreatedSchema.parse(await json(made));
    expect(queue).toMatchObject({ name: "first", blind: true, createdBy: "lee", groups: 3 });
    expect(queue.filter).toEqual({ mixed: true });
    const all = teamQueuesReplySchema.parse(
      await json(await call(team.tokens.lead, "/api/team/queues")),
    );
    expect(all.queues.map((q) => [q.name, q.groups])).toEqual([["first", 3]]);
    const anns = teamQueuesReplySchema.parse(
      await json(await call(team.tokens.ann, "/api/team/queues")),
    );
    expect(anns.queues.map((q) => [q.name, q.groups])).toEqual([["first", 2]]);

    const leadView = teamQueueViewSchema.parse(
      await json(await call(team.tokens.lead, "/api/team/queues/first")),
    );
    expect(leadView.items.map((i) => [i.groupId, i.assignees])).toEqual([
      ["g1", ["ann", "bob"]],
      ["g2", ["ann"]],
      ["g3", ["bob"]],
    ]);
    const annView = teamQueueViewSchema.parse(
      await json(await call(team.tokens.ann, "/api/team/queues/first")),
    );
    expect(annView.items).toEqual([
      { groupId: "g1", position: 0, assignees: ["ann"] },
      { groupId: "g2", position: 1, assignees: ["ann"] },
    ]);
    expect(JSON.stringify(annView)).not.toContain("bob");
    // A blind queue's filter may tell of rewards: not shown to an annotator.
    expect([annView.queue.filter, anns.queues[0]!.filter, leadView.queue.filter]).toEqual([
      null,
      null,
      { mixed: true },
    ]);
  });

  it("progress: every assignee for a lead, the caller's own row for an annotator", async () => {
    await writeGroup(team.tokens.ann, "g2", labelled({ r0: "pass" }), "0");
    const lead = teamProgressReplySchema.parse(
      await json(await call(team.tokens.lead, "/api/team/queues/first/progress")),
    );
    expect(lead.progress).toEqual([
      { user: "ann", assigned: 2, annotated: 1, submitted: 0 },
      { user: "bob", assigned: 2, annotated: 0, submitted: 0 },
    ]);
    const ann = teamProgressReplySchema.parse(
      await json(await call(team.tokens.ann, "/api/team/queues/first/progress")),
    );
    expect(ann.progress).toEqual([{ user: "ann", assigned: 2, annotated: 1, submitted: 0 }]);
  });

  it("a bad queue is 400 (its form, or the store's check); a name taken is 400; no such queue is 404", async () => {
    const post = (body: unknown) =>
      call(team.tokens.lead, "/api/team/queues", { method: "POST", body });
    expect((await post({ name: "x" })).status).toBe(400);
    expect((await post({ ...queueSpec("odd", false), overlap: 2 })).status).toBe(400);
    const unknown = await post({
      ...queueSpec("who", false),
      assignments: [{ groupId: "g1", user: "zed" }],
    });
    expect([unknown.status, await json(unknown)]).toEqual([
      400,
      { error: 'the queue is not valid: no active person is named "zed"' },
    ]);
    expect((await post(queueSpec("first", false))).status).toBe(400);
    const notJson = await call(team.tokens.lead, "/api/team/queues", { method: "POST" });
    expect(notJson.status).toBe(400);
    expect((await call(team.tokens.lead, "/api/team/queues/nope")).status).toBe(404);
    expect((await call(team.tokens.lead, "/api/team/queues/nope/progress")).status).toBe(404);
  });

  it("names with quotes, slashes and SQL travel as values (parameterised) and come back whole", async () => {
    const name = `q'; DROP TABLE users; -- "/x" %2F`;
    const groups = ["g'1", "a/b", 'x"); DELETE FROM annotations; --'];
    const made = await call(team.tokens.lead, "/api/team/queues", {
      method: "POST",
      body: queueSpec(name, false, groups),
    });
    expect(made.status).toBe(201);
    const path = `/api/team/queues/${encodeURIComponent(name)}`;
    const view = teamQueueViewSchema.parse(await json(await call(team.tokens.lead, path)));
    expect([view.queue.name, view.items.map((i) => i.groupId)]).toEqual([name, groups]);
    const written = await writeGroup(team.tokens.bob, groups[2]!, labelled({ r0: "fail" }), "0");
    expect(written.status).toBe(200);
    const submitted = await call(
      team.tokens.bob,
      `/api/team/groups/${encodeURIComponent(groups[2]!)}/submit`,
      { method: "POST" },
    );
    expect(submitted.status).toBe(200);
    const progress = teamProgressReplySchema.parse(
      await json(await call(team.tokens.bob, `${path}/progress`)),
    );
    expect(progress.progress).toEqual([{ user: "bob", assigned: 2, annotated: 1, submitted: 1 }]);
    expect((await team.admin.pool.query("SELECT count(*) FROM users")).rows[0]).toEqual({
      count: "3",
    });
  });
});

describe("one group's write, submission and state", () => {
  it("PUT /api/team/groups/:groupId: 200 with the version, 409 with the current state, 428, 400", async () => {
    const first = await writeGroup(team.tokens.ann, "w1", labelled({ r0: "pass" }, "one"), "0");
    expect(first.status).toBe(200);
    expect(teamGroupWrittenSchema.parse(await json(first))).toEqual({ version: "1" });
    const stale = await writeGroup(team.tokens.ann, "w1", labelled({ r0: "fail" }, "tab 2"), "0");
    expect(stale.status).toBe(409);
    const conflict = teamGroupConflictSchema.parse(await json(stale));
    expect(conflict.current).toEqual({
      version: "1",
      annotation: labelled({ r0: "pass" }, "one"),
      submittedAt: null,
    });
    expect(conflict.error).toMatch(/w1/);
    const noMatch = await call(team.tokens.ann, "/api/team/groups/w1", {
      method: "PUT",
      body: { annotation: null },
    });
    expect(noMatch.status).toBe(428);
    const bad = [{ annotation: { ranking: "x" } }, {}, "text", { annotation: 3 }];
    for (const body of bad) {
      const res = await call(team.tokens.ann, "/api/team/groups/w1", {
        method: "PUT",
        body,
        ifMatch: "1",
      });
      expect([body, res.status]).toEqual([body, 400]);
    }
    expect((await writeGroup(team.tokens.ann, "w1", null, "x")).status).toBe(400);
    // Nothing of the refused writes landed; a clear (null) is a write.
    expect((await writeGroup(team.tokens.ann, "w1", null, "1")).status).toBe(200);
    const ann = await team.store.readAnnotations(team.ann);
    expect([ann.versions.w1, ann.annotations.groups.w1]).toEqual(["2", undefined]);
  });

  it("submit: 200 with the state, 400 with nothing to submit; /api/team/state says where the caller stands", async () => {
    expect((await writeGroup(team.tokens.ann, "g1", labelled({ r0: "pass" }), "0")).status).toBe(
      200,
    );
    const none = await call(team.tokens.ann, "/api/team/groups/g3/submit", { method: "POST" });
    expect(none.status).toBe(400);
    const res = await call(team.tokens.ann, "/api/team/groups/g1/submit", { method: "POST" });
    expect(res.status).toBe(200);
    const { state } = teamSubmittedSchema.parse(await json(res));
    expect(state.version).toBe("1");
    expect(state.annotation).toEqual(labelled({ r0: "pass" }));
    expect(Date.parse(state.submittedAt ?? "")).toBeGreaterThan(0);
    const mine = teamStateSchema.parse(await json(await call(team.tokens.ann, "/api/team/state")));
    expect(mine).toMatchObject({ user: "ann", role: "annotator", dataset: "run-a" });
    expect(mine.versions).toMatchObject({ g1: "1", g2: "1", w1: "2" });
    expect(mine.submitted).toEqual({ g1: state.submittedAt });
    // Every group of the blind queue "first", g3 too (not given to ann).
    expect(mine.blind).toEqual(["g1", "g2", "g3"]);
    const lead = teamStateSchema.parse(await json(await call(team.tokens.lead, "/api/team/state")));
    expect([lead.user, lead.role, lead.versions, lead.submitted, lead.blind]).toEqual([
      "lee",
      "lead",
      {},
      {},
      ["g1", "g2", "g3"],
    ]);
  });
});

describe("a lead's reads and the gold", () => {
  it("users, anyone's annotations, everyone's, the gold written and read (with resolvedBy)", async () => {
    const users = teamUsersReplySchema.parse(
      await json(await call(team.tokens.lead, "/api/team/users")),
    );
    expect(users.users.map((u) => [u.name, u.role, u.revokedAt])).toEqual([
      ["lee", "lead", null],
      ["ann", "annotator", null],
      ["bob", "annotator", null],
    ]);
    const ann = teamPersonSchema.parse(
      await json(await call(team.tokens.lead, "/api/team/annotations/ann")),
    );
    expect(ann.user).toBe("ann");
    expect(ann.annotations).toMatchObject({ version: 1, annotator: "ann", groups: { g1: {} } });
    expect(ann.submitted).toHaveProperty("g1");
    const everyone = teamEveryoneSchema.parse(
      await json(await call(team.tokens.lead, "/api/team/everyone")),
    );
    expect(everyone.people.map((p) => p.user)).toEqual(["ann", "bob"]);
    const gold = (annotation: unknown, base: string) =>
      call(team.tokens.lead, "/api/team/gold/g1", {
        method: "PUT",
        body: { annotation },
        ifMatch: base,
      });
    expect((await gold(labelled({ r0: "pass" }, "resolved"), "0")).status).toBe(200);
    const stale = await gold(labelled({ r0: "fail" }), "0");
    expect(stale.status).toBe(409);
    expect(teamGroupConflictSchema.parse(await json(stale)).current.version).toBe("1");
    expect(
      (await call(team.tokens.lead, "/api/team/gold/g1", { method: "PUT", body: {} })).status,
    ).toBe(428);
    const read = teamGoldSchema.parse(await json(await call(team.tokens.lead, "/api/team/gold")));
    expect([read.user, read.versions, read.resolvedBy]).toEqual([
      "gold",
      { g1: "1" },
      { g1: "lee" },
    ]);
    expect(read.annotations).toMatchObject({ groups: { g1: { notes: "resolved" } } });
  });
});

describe("another person's token", () => {
  it("an annotator gets no one else's annotations, nor everyone's, nor the gold: 403, naming no one's data", async () => {
    await writeGroup(team.tokens.bob, "b1", labelled({ r0: "fail" }, "bob's private note"), "0");
    const refused = [
      "/api/team/annotations/bob",
      "/api/team/annotations/lee",
      "/api/team/annotations/gold",
      // No such person: refused the same way, so the answer does not tell who exists.
      "/api/team/annotations/nobody",
      "/api/team/everyone",
      "/api/team/gold",
    ];
    for (const path of refused) {
      const res = await call(team.tokens.ann, path);
      const text = await res.text();
      expect([path, res.status]).toEqual([path, 403]);
      expect(text).not.toContain("private note");
      expect(text).not.toContain("resolved");
    }
    // Their own, by name: theirs only.
    const own = await call(team.tokens.ann, "/api/team/annotations/ann");
    expect(own.status).toBe(200);
    expect(await own.text()).not.toContain("private note");
  });

  it("an annotator cannot make a queue or write the gold: 403 and nothing is written", async () => {
    const queue = await call(team.tokens.ann, "/api/team/queues", {
      method: "POST",
      body: queueSpec("ann's own", false),
    });
    expect(queue.status).toBe(403);
    const gold = await call(team.tokens.bob, "/api/team/gold/g2", {
      method: "PUT",
      body: { annotation: labelled({ r0: "fail" }) },
      ifMatch: "0",
    });
    expect(gold.status).toBe(403);
    const counts = await team.admin.pool.query<{ q: string; g: string }>(
      "SELECT (SELECT count(*) FROM queues WHERE name = $1) AS q, (SELECT count(*) FROM gold WHERE group_id = $2) AS g",
      ["ann's own", "g2"],
    );
    expect(counts.rows[0]).toEqual({ q: "0", g: "0" });
  });

  it("an annotator's lists, queue items and progress hold only their own rows; a queue not theirs is 404", async () => {
    const users = teamUsersReplySchema.parse(
      await json(await call(team.tokens.bob, "/api/team/users")),
    );
    expect(users.users.map((u) => u.name)).toEqual(["bob"]);
    const progress = await call(team.tokens.bob, "/api/team/queues/first/progress");
    expect(teamProgressReplySchema.parse(await json(progress)).progress.map((p) => p.user)).toEqual(
      ["bob"],
    );
    const view = await call(team.tokens.bob, "/api/team/queues/first");
    const text = await view.text();
    expect(text).not.toContain("ann");
    expect(teamQueueViewSchema.parse(JSON.parse(text)).items.map((i) => i.groupId)).toEqual([
      "g1",
      "g3",
    ]);
    // A person given nothing sees no queue, and cannot open one by name.
    const cat = await userAdd(team.admin.pool, "cat", "annotator");
    const cats = teamQueuesReplySchema.parse(await json(await call(cat.token, "/api/team/queues")));
    expect(cats.queues).toEqual([]);
    for (const path of ["/api/team/queues/first", "/api/team/queues/first/progress"])
      expect((await call(cat.token, path)).status, path).toBe(404);
    // A write or a submission names no person: it is always the caller's own row.
    expect((await writeGroup(cat.token, "b1", labelled({ r0: "pass" }), "0")).status).toBe(200);
    const bob = await team.store.readAnnotations(team.bob);
    expect(bob.annotations.groups.b1?.notes).toBe("bob's private note");
    const catState = teamStateSchema.parse(await json(await call(cat.token, "/api/team/state")));
    expect(catState.versions).toEqual({ b1: "1" });
  });
});

/** Every /api/team route with a body and If-Match that would pass: only the token fails it. */
const EVERY_ROUTE: readonly (TeamCall & { readonly path: string })[] = [
  { path: "/api/team/state" },
  { path: "/api/team/users" },
  { path: "/api/team/queues" },
  { path: "/api/team/queues", method: "POST", body: queueSpec("by a stranger", false) },
  { path: "/api/team/queues/first" },
  { path: "/api/team/queues/first/progress" },
  {
    path: "/api/team/groups/z1",
    method: "PUT",
    body: { annotation: labelled({ r0: "pass" }) },
    ifMatch: "0",
  },
  { path: "/api/team/groups/g1/submit", method: "POST" },
  { path: "/api/team/annotations/ann" },
  { path: "/api/team/everyone" },
  { path: "/api/team/gold" },
  {
    path: "/api/team/gold/z1",
    method: "PUT",
    body: { annotation: labelled({ r0: "pass" }) },
    ifMatch: "0",
  },
];

describe("no token, a wrong one, a revoked one", () => {
  it("every /api/team route is 401 and writes nothing", async () => {
    const kim = await userAdd(team.admin.pool, "kim", "lead");
    expect((await call(kim.token, "/api/team/state")).status).toBe(200);
    await userRevoke(team.admin.pool, "kim");
    const [id, secret] = team.tokens.lead.split(".") as [string, string];
    const tokens = [null, "wrong-token-123", `${id}.${"A".repeat(secret.length)}`, kim.token];
    for (const route of EVERY_ROUTE)
      for (const token of tokens) {
        const res = await call(token, route.path, route);
        expect([route.method ?? "GET", route.path, token, res.status]).toEqual([
          route.method ?? "GET",
          route.path,
          token,
          401,
        ]);
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      }
    const counts = await team.admin.pool.query<{ q: string; n: string; g: string }>(
      `SELECT (SELECT count(*) FROM queues WHERE name = $1) AS q,
              (SELECT count(*) FROM annotations WHERE group_id = $2) AS n,
              (SELECT count(*) FROM gold WHERE group_id = $2) AS g`,
      ["by a stranger", "z1"],
    );
    expect(counts.rows[0]).toEqual({ q: "0", n: "0", g: "0" });
  });

  it("an open event stream ends at the next keep-alive once its person's token is revoked", async () => {
    const ned = await userAdd(team.admin.pool, "ned", "lead");
    const stream = await srv.events(ned.token);
    const lee = await srv.events(team.tokens.lead);
    await userRevoke(team.admin.pool, "ned");
    // until() returns when the stream ends; the text never holds this.
    const text = await stream.until("never sent");
    expect(text).toContain("event: hello");
    await writeGroup(team.tokens.ann, "after", labelled({ r0: "pass" }), "0");
    expect(await lee.until('"user":"ann"')).toContain("event: team");
    await lee.cancel();
  });

  it("the file mode: every /api/team route is 404 saying why, after the session token's check", async () => {
    const files = await teamServer(null, "session-token-1");
    try {
      for (const route of [...EVERY_ROUTE, { path: "/api/team/anything/else" }]) {
        expect((await files.call("wrong", route.path, route)).status, route.path).toBe(401);
        const res = await files.call("session-token-1", route.path, route);
        expect([route.path, res.status, await json(res)]).toEqual([
          route.path,
          404,
          { error: TEAM_MODE_NEEDED },
        ]);
      }
    } finally {
      files.close();
    }
  });
});

describe("the team event", () => {
  const lead = { id: "1", name: "lee", role: "lead" } as const;
  const ann = { id: "2", name: "ann", role: "annotator" } as const;
  const bob = { id: "3", name: "bob", role: "annotator" } as const;

  it("reaches every lead, and the annotators it names; the file mode's streams get none", () => {
    const event = {
      event: "team",
      data: { kind: "submit", user: "ann", groupId: "g1" },
      annotators: ["ann"],
    } as const;
    expect([lead, ann, bob, undefined].map((p) => eventReaches(event, p))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const own = { event: "annotations", data: { version: "v" }, user: "2" } as const;
    expect([lead, ann, bob].map((p) => eventReaches(own, p))).toEqual([false, true, false]);
    const fileMode = { event: "annotations", data: { version: "v" } } as const;
    expect(eventReaches(fileMode, undefined)).toBe(true);
  });

  it("a lead's stream hears everyone's writes; an annotator's only their own, and the queues giving them groups", async () => {
    const streams = {
      lee: await srv.events(team.tokens.lead),
      ann: await srv.events(team.tokens.ann),
      bob: await srv.events(team.tokens.bob),
    };
    await writeGroup(team.tokens.ann, "e1", labelled({ r0: "pass" }), "0");
    await call(team.tokens.ann, "/api/team/groups/e1/submit", { method: "POST" });
    const doc = await team.store.readAnnotations(team.ann);
    await call(team.tokens.ann, "/api/annotations", {
      method: "PUT",
      body: {
        ...doc.annotations,
        groups: { ...doc.annotations.groups, e2: labelled({ r0: "fail" }) },
      },
      ifMatch: doc.version,
    });
    const gold = { method: "PUT", body: { annotation: labelled({ r0: "pass" }) }, ifMatch: "0" };
    expect((await call(team.tokens.lead, "/api/team/gold/e1", gold)).status).toBe(200);
    const onlyBob = {
      ...queueSpec("bob's queue", true, ["e5", "e6", "e7"]),
      assignments: [{ groupId: "e5", user: "bob" }],
    };
    const made = await call(team.tokens.lead, "/api/team/queues", {
      method: "POST",
      body: onlyBob,
    });
    expect(made.status).toBe(201);
    srv.hub.publish({
      event: "files",
      data: {
        id: "f",
        kind: "grown",
        size: 1,
        mtimeMs: 1,
        path: "x",
        root: 0,
        run: "",
        step: 0,
        stepSource: "file-order",
      },
    });
    const team_ = (kind: string, user: string, groupId: string | null) =>
      `event: team\ndata: ${JSON.stringify({ kind, user, groupId })}\n`;
    const lee = await streams.lee.until("event: files");
    for (const e of [
      team_("annotations", "ann", null),
      team_("submit", "ann", "e1"),
      team_("gold", "lee", "e1"),
      team_("queue", "lee", null),
    ])
      expect(lee).toContain(e);
    expect(lee).not.toContain("event: annotations");
    const annText = await streams.ann.until("event: files");
    expect(annText).toContain(team_("submit", "ann", "e1"));
    expect(annText.split(team_("annotations", "ann", null)).length).toBe(3);
    expect(annText).toContain("event: annotations\n");
    expect(annText).not.toContain('"kind":"gold"');
    expect(annText).not.toContain('"kind":"queue"');
    const bobText = await streams.bob.until("event: files");
    expect(bobText).toContain(team_("queue", "lee", null));
    expect(bobText).not.toContain('"user":"ann"');
    expect(bobText).not.toContain('"kind":"gold"');
    expect(bobText).not.toContain("event: annotations");
    for (const s of Object.values(streams)) await s.cancel();
  });
});
