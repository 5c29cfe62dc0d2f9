/**
 * Events across server processes (teamRelay.ts): two apps, each with its own store and event hub
 * on one PostgreSQL database (as two `view --db` processes would be), and a third serving another
 * dataset. A write taken by one reaches the right streams of the other (a lead: every team event;
 * an annotator: their own), never twice, never another dataset's; messages that are not the
 * relay's are ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANNOTATIONS_EMPTY } from "../core/index.ts";
import { startPostgres, type TestPostgres } from "../test/postgres.ts";
import { labelled, teamFixture, type TeamFixture } from "../test/teamFixture.ts";
import { teamServer, type TeamServer } from "../test/teamServer.ts";
import { PostgresTeamStore } from "./team/pgStore.ts";
import { relayText, teamRelayStart, type TeamRelay } from "./teamRelay.ts";

let server: TestPostgres;
let team: TeamFixture;
let other: PostgresTeamStore;
let elsewhere: PostgresTeamStore;
const apps: TeamServer[] = [];
const relays: TeamRelay[] = [];
const warnings: string[] = [];
/** Every text on the channel, as a listener of its own hears it. */
const channel: string[] = [];

async function appWithRelay(store: PostgresTeamStore): Promise<TeamServer> {
  const app = await teamServer(store);
  apps.push(app);
  relays.push(await teamRelayStart(store, app.hub, (m) => warnings.push(m)));
  return app;
}

beforeAll(async () => {
  server = await startPostgres();
  team = await teamFixture(server);
  other = await PostgresTeamStore.open(team.url, "run-a");
  elsewhere = await PostgresTeamStore.open(team.url, "run-b");
  await team.store.listen(
    (text) => channel.push(text),
    (m) => warnings.push(m),
  );
});
afterAll(async () => {
  for (const r of relays) await r.close();
  for (const a of apps) a.close();
  await other?.close();
  await elsewhere?.close();
  await team?.close();
  await server?.stop();
});

/** Resolves once the channel has carried a text holding `needle`. */
async function onChannel(needle: string): Promise<void> {
  for (let i = 0; i < 200 && !channel.some((t) => t.includes(needle)); i++)
    await new Promise((r) => setTimeout(r, 10));
  expect(
    channel.some((t) => t.includes(needle)),
    needle,
  ).toBe(true);
}

const teamLine = (kind: string, user: string, groupId: string | null) =>
  `event: team\ndata: ${JSON.stringify({ kind, user, groupId })}\n`;
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe("events across server processes (LISTEN/NOTIFY)", () => {
  it("a write on one server reaches the other's streams that may hear it, once", async () => {
    const a = await appWithRelay(team.store);
    const b = await appWithRelay(other);
    const c = await appWithRelay(elsewhere);
    const onB = {
      lee: await b.events(team.tokens.lead),
      ann: await b.events(team.tokens.ann),
      bob: await b.events(team.tokens.bob),
    };
    const leeOnA = await a.events(team.tokens.lead);
    const put = await a.call(team.tokens.ann, "/api/team/groups/x1", {
      method: "PUT",
      body: { annotation: labelled({ r0: "pass" }) },
      ifMatch: "0",
    });
    expect(put.status).toBe(200);
    const doc = await team.store.readAnnotations(team.ann);
    const whole = await a.call(team.tokens.ann, "/api/annotations", {
      method: "PUT",
      body: { ...ANNOTATIONS_EMPTY, groups: { ...doc.annotations.groups, x2: labelled({}, "n") } },
      ifMatch: doc.version,
    });
    const version = ((await whole.json()) as { version: string }).version;
    // Another dataset's write, on the channel before the last write below.
    const far = await c.call(team.tokens.bob, "/api/team/groups/far", {
      method: "PUT",
      body: { annotation: labelled({ r0: "fail" }) },
      ifMatch: "0",
    });
    expect(far.status).toBe(200);
    await onChannel('"dataset":"run-b"');
    // Not the relay's: ignored.
    await team.store.notify("not json");
    await team.store.notify(JSON.stringify({ origin: "x", dataset: "run-a", event: "files" }));
    const gold = await a.call(team.tokens.lead, "/api/team/gold/x1", {
      method: "PUT",
      body: { annotation: labelled({ r0: "pass" }) },
      ifMatch: "0",
    });
    expect(gold.status).toBe(200);

    const lee = await onB.lee.until(teamLine("gold", "lee", "x1"));
    expect(count(lee, teamLine("annotations", "ann", null))).toBe(2);
    expect(lee).not.toContain('"user":"bob"');
    expect(lee).not.toContain("event: annotations");
    // The whole-document PUT's two events, in the order the writer's server published them.
    const ann = await onB.ann.until(
      `event: annotations\ndata: {"version":"${version}"}\n\n${teamLine("annotations", "ann", null)}`,
    );
    expect(count(ann, teamLine("annotations", "ann", null))).toBe(2);
    // Bob hears nothing of ann's or of the gold: his own write, sent after them, ends the reading.
    const bobs = await a.call(team.tokens.bob, "/api/team/groups/b1", {
      method: "PUT",
      body: { annotation: labelled({ r0: "fail" }) },
      ifMatch: "0",
    });
    expect(bobs.status).toBe(200);
    const bob = await onB.bob.until(teamLine("annotations", "bob", null));
    expect([count(bob, "event: team"), bob.includes('"user":"ann"')]).toEqual([1, false]);
    const leeA = await leeOnA.until(teamLine("gold", "lee", "x1"));
    expect(count(leeA, teamLine("annotations", "ann", null))).toBe(2);
    expect(count(leeA, teamLine("gold", "lee", "x1"))).toBe(1);
    expect(leeA).not.toContain('"user":"bob"');
    for (const s of Object.values(onB)) await s.cancel();
    await leeOnA.cancel();
    expect(warnings).toEqual([]);
  });

  it("a message over NOTIFY's limit goes to the leads only, or not at all", () => {
    const base = { origin: "o", dataset: "d", event: "team" as const };
    const data = { kind: "queue" as const, user: "lee", groupId: null };
    const many = Array.from({ length: 2000 }, (_, i) => `annotator-${i}`);
    const text = relayText({ ...base, data, annotators: many });
    expect(JSON.parse(text!)).toMatchObject({ annotators: [] });
    expect(relayText({ ...base, data, annotators: ["ann"] })).toContain('"annotators":["ann"]');
    const long = { ...data, user: "x".repeat(9000) };
    expect(relayText({ ...base, data: long, annotators: [] })).toBeNull();
  });
});
