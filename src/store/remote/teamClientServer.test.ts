// @vitest-environment node
/**
 * The page's team client (teamClient.ts) against the real `view --db` server, bound to a port,
 * over a real PostgreSQL server (one throwaway cluster for this file): every call the page makes
 * reaches its route with the path, method and headers the server expects, and every reply parses
 * with the page's schemas. A refusal is a ViewReplyError; a stale group write is an answer.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogRoots } from "../../server/catalog.ts";
import { viewServerStart, type ViewServer } from "../../server/serve.ts";
import { studioLoad } from "../../server/studioFiles.ts";
import { startPostgres, type TestPostgres } from "../../test/postgres.ts";
import { labelled, teamFixture, type TeamFixture } from "../../test/teamFixture.ts";
import {
  createTeamQueue,
  fetchTeamEveryone,
  fetchTeamGold,
  fetchTeamPerson,
  fetchTeamProgress,
  fetchTeamQueue,
  fetchTeamQueues,
  fetchTeamState,
  fetchTeamUsers,
  submitTeamGroup,
  writeTeamGold,
  writeTeamGroup,
} from "./teamClient.ts";
import { ViewReplyError, type ViewSession } from "./viewSession.ts";

let pgServer: TestPostgres;
let team: TeamFixture;
let view: ViewServer;
let lead: ViewSession;
let ann: ViewSession;
let bob: ViewSession;

beforeAll(async () => {
  pgServer = await startPostgres();
  team = await teamFixture(pgServer);
  const dir = mkdtempSync(join(tmpdir(), "team-client-"));
  writeFileSync(join(dir, "run.jsonl"), '{"prompt":"p","completion":"a","reward":1}\n');
  mkdirSync(join(dir, "studio"));
  writeFileSync(
    join(dir, "studio", "index.html"),
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="script-src 'self'" /></head><body></body></html>`,
  );
  view = await viewServerStart({
    roots: await catalogRoots([join(dir, "run.jsonl")], dir),
    studio: await studioLoad(join(dir, "studio")),
    stateDir: join(dir, ".rollout-studio"),
    host: "127.0.0.1",
    port: 0,
    token: null,
    version: "0.0.0-test",
    format: null,
    warn: () => undefined,
    team: team.store,
  });
  const origin = `http://127.0.0.1:${view.port}`;
  lead = { origin, token: team.tokens.lead };
  ann = { origin, token: team.tokens.ann };
  bob = { origin, token: team.tokens.bob };
});
afterAll(async () => {
  await view?.close();
  await team?.close();
  await pgServer?.stop();
});

/** The status of the ViewReplyError a call ends in. */
async function refused(call: Promise<unknown>): Promise<number> {
  const e: unknown = await call.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(e instanceof ViewReplyError)) throw new Error(`expected a refusal, got ${String(e)}`);
  return e.status;
}

describe("the team client on the team server", () => {
  it("queues, progress, a group written, raced and submitted, the state", async () => {
    const queue = await createTeamQueue(lead, {
      name: "week 1/a",
      blind: true,
      overlap: 0.5,
      seed: 4,
      filter: { zeroStd: true },
      groups: ["g1", "g2"],
      assignments: [
        { groupId: "g1", user: "ann" },
        { groupId: "g1", user: "bob" },
        { groupId: "g2", user: "bob" },
      ],
    });
    expect([queue.name, queue.groups, queue.createdBy]).toEqual(["week 1/a", 2, "lee"]);
    expect((await fetchTeamQueues(ann)).map((q) => [q.name, q.groups])).toEqual([["week 1/a", 1]]);
    expect((await fetchTeamQueue(bob, "week 1/a")).items.map((i) => i.groupId)).toEqual([
      "g1",
      "g2",
    ]);
    const written = await writeTeamGroup(ann, "g1", labelled({ r0: "pass" }, "mine"), "0");
    expect(written).toEqual({ kind: "written", version: "1" });
    const stale = await writeTeamGroup(ann, "g1", labelled({ r0: "fail" }), "0");
    expect(stale.kind === "stale" && stale.current.annotation?.notes).toBe("mine");
    const state = await submitTeamGroup(ann, "g1");
    expect([state.version, state.annotation?.labels]).toEqual(["1", { r0: "pass" }]);
    expect(await fetchTeamProgress(lead, "week 1/a")).toEqual([
      { user: "ann", assigned: 1, annotated: 1, submitted: 1 },
      { user: "bob", assigned: 2, annotated: 0, submitted: 0 },
    ]);
    const mine = await fetchTeamState(ann);
    expect([mine.versions, Object.keys(mine.submitted), mine.blind]).toEqual([
      { g1: "1" },
      ["g1"],
      ["g1", "g2"],
    ]);
  });

  it("a lead's reads and the gold; an annotator's calls for others' data are refused", async () => {
    expect((await fetchTeamUsers(lead)).map((u) => u.name)).toEqual(["lee", "ann", "bob"]);
    expect((await fetchTeamUsers(ann)).map((u) => u.name)).toEqual(["ann"]);
    const anns = await fetchTeamPerson(lead, "ann");
    expect([anns.annotations.annotator, anns.annotations.groups.g1?.notes]).toEqual([
      "ann",
      "mine",
    ]);
    expect((await fetchTeamEveryone(lead)).map((p) => p.user)).toEqual(["ann"]);
    expect(await writeTeamGold(lead, "g1", labelled({ r0: "pass" }, "gold"), "0")).toEqual({
      kind: "written",
      version: "1",
    });
    const gold = await fetchTeamGold(lead);
    expect([gold.annotations.groups.g1?.notes, gold.resolvedBy]).toEqual(["gold", { g1: "lee" }]);
    expect(await refused(fetchTeamPerson(bob, "ann"))).toBe(403);
    expect(await refused(fetchTeamEveryone(bob))).toBe(403);
    expect(await refused(fetchTeamGold(bob))).toBe(403);
    expect(await refused(writeTeamGold(bob, "g2", null, "0"))).toBe(403);
    expect(await refused(fetchTeamQueue(ann, "nope"))).toBe(404);
    expect(await refused(submitTeamGroup(bob, "g1"))).toBe(400);
    expect(await refused(fetchTeamState({ ...ann, token: "wrong-token-123" }))).toBe(401);
  });
});
