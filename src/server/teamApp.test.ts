/**
 * The view server in team mode (`view --db`) through `app.request()`, against a real PostgreSQL
 * server (one throwaway cluster for this file): personal tokens on every `/api/` route (401 for
 * none, a wrong one or a revoked one, at once), each person's own document behind the same
 * annotations routes, and each person's own events.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANNOTATIONS_EMPTY } from "../core/index.ts";
import { annotationsToJson } from "../io/index.ts";
import { startPostgres, type TestPostgres } from "../test/postgres.ts";
import { labelled, teamFixture, type TeamFixture } from "../test/teamFixture.ts";
import { eventsReader } from "../test/teamServer.ts";
import { allowedHosts } from "./access.ts";
import { AnnotationsStore } from "./annotationsStore.ts";
import { createApp } from "./app.ts";
import { catalogRoots, catalogScan, type Catalog } from "./catalog.ts";
import { DbError } from "./db/connect.ts";
import { EventHub } from "./events.ts";
import { studioLoad } from "./studioFiles.ts";
import { StoreDenied, StoreInvalid, StoreNotFound } from "./team/types.ts";
import { teamErrorResponse } from "./teamRoutes.ts";
import { userAdd, userRevoke } from "./team/users.ts";

const HOST = "127.0.0.1:7575";
const base = mkdtempSync(join(tmpdir(), "view-team-"));
const runDir = join(base, "run");

let server: TestPostgres;
let team: TeamFixture;
let catalog: Catalog;
let hub: EventHub;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  server = await startPostgres();
  team = await teamFixture(server);
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, "steps.jsonl"), '{"prompt":"p","completion":"a","reward":1}\n');
  mkdirSync(join(base, "studio"));
  writeFileSync(
    join(base, "studio", "index.html"),
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="script-src 'self'" /></head><body>studio</body></html>`,
  );
  catalog = await catalogScan(await catalogRoots([runDir], base));
  hub = new EventHub();
  app = createApp({
    catalog: () => catalog,
    annotations: new AnnotationsStore(join(runDir, ".rollout-studio")),
    studio: await studioLoad(join(base, "studio")),
    token: null,
    allowedHosts: () => allowedHosts("127.0.0.1", 7575, []),
    events: hub,
    version: "9.9.9",
    format: null,
    pingMs: 50,
    team: team.store,
  });
});
afterAll(async () => {
  hub?.close();
  await team?.close();
  await server?.stop();
});

const as = (token: string | null, path: string, init: RequestInit = {}) =>
  app.request(path, {
    ...init,
    headers: {
      host: HOST,
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(init.headers as Record<string, string> | undefined),
    },
  });

const put = (token: string, body: string, ifMatch: string) =>
  as(token, "/api/annotations", { method: "PUT", body, headers: { "if-match": `"${ifMatch}"` } });

const doc = (notes: string) =>
  annotationsToJson({ ...ANNOTATIONS_EMPTY, groups: { g1: labelled({ r0: "pass" }, notes) } });

describe("personal tokens", () => {
  const routes = () => [
    "/api/runs",
    "/api/annotations",
    "/api/events",
    `/api/files/${catalog.runs[0]!.files[0]!.id}`,
    "/api/nope",
  ];

  it("every /api/ route wants a person's token: 401 without one or with a wrong one", async () => {
    const [id, secret] = team.tokens.ann.split(".") as [string, string];
    for (const path of routes())
      for (const token of [null, "wrong-token-123", `${id}.${"A".repeat(secret.length)}`]) {
        const res = await as(token, path);
        expect([path, token, res.status]).toEqual([path, token, 401]);
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      }
    expect((await put("wrong-token-123", doc("x"), "none")).status).toBe(401);
    const ok = await as(team.tokens.ann, routes()[3]!);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('"reward":1');
    // ?token= works too (EventSource cannot set headers).
    expect((await as(null, `/api/runs?token=${team.tokens.bob}`)).status).toBe(200);
  });

  it("a revoked token gets 401 on every route from the next request on", async () => {
    const kim = await userAdd(team.admin.pool, "kim", "annotator");
    expect((await as(kim.token, "/api/runs")).status).toBe(200);
    expect((await userRevoke(team.admin.pool, "kim"))?.already).toBe(false);
    for (const path of routes()) expect((await as(kim.token, path)).status, path).toBe(401);
    expect((await put(kim.token, doc("late"), "none")).status).toBe(401);
  });
});

describe("each person's annotations", () => {
  it("GET /api/runs says who the page is and names their annotations; the password is nowhere", async () => {
    const res = await as(team.tokens.ann, "/api/runs");
    const text = await res.text();
    expect(text).not.toContain(server.password);
    const body = JSON.parse(text) as {
      team: unknown;
      annotations: { path: string; version: string };
    };
    expect(body.team).toEqual({ user: "ann", role: "annotator", dataset: "run-a" });
    expect(body.annotations.path).toMatch(
      /^postgres:\/\/studio:\*\*\*@127\.0\.0\.1:\d+\/team_\d+_\d+ \(dataset "run-a"\), "ann"'s annotations$/,
    );
    const lead = (await (await as(team.tokens.lead, "/api/runs")).json()) as { team: unknown };
    expect(lead.team).toEqual({ user: "lee", role: "lead", dataset: "run-a" });
  });

  it("a PUT writes the caller's own document; another person's stays theirs; a stale PUT is 409", async () => {
    const empty = await as(team.tokens.ann, "/api/annotations");
    expect(empty.headers.get("etag")).toBe('"none"');
    expect((await put(team.tokens.ann, doc("ann's"), "missing")).status).toBe(409);
    const first = await put(team.tokens.ann, doc("ann's"), "none");
    expect(first.status).toBe(200);
    const v1 = ((await first.json()) as { version: string }).version;
    const mine = await as(team.tokens.ann, "/api/annotations");
    expect(mine.headers.get("etag")).toBe(`"${v1}"`);
    const body = (await mine.json()) as { annotator: string; groups: { g1: { notes: string } } };
    expect([body.annotator, body.groups.g1.notes]).toEqual(["ann", "ann's"]);
    const bobs = (await (await as(team.tokens.bob, "/api/annotations")).json()) as {
      groups: object;
    };
    expect(bobs.groups).toEqual({});
    // A second tab still on the empty document: refused with what is there now.
    const stale = await put(team.tokens.ann, doc("second tab"), "none");
    expect(stale.status).toBe(409);
    const conflict = (await stale.json()) as {
      version: string;
      current: { groups: { g1: { notes: string } } };
    };
    expect([conflict.version, conflict.current.groups.g1.notes]).toEqual([v1, "ann's"]);
    const invalid = await put(team.tokens.ann, '{"version":1,"groups":{"g1":{"ranking":"x"}}}', v1);
    expect(invalid.status).toBe(400);
    expect((await put(team.tokens.ann, doc("x"), "")).status).toBe(409);
    expect(
      (await as(team.tokens.ann, "/api/annotations", { method: "PUT", body: doc("x") })).status,
    ).toBe(428);
    const lead = await team.store.readAnnotations(team.lead, "ann");
    expect(lead.annotations.groups.g1!.notes).toBe("ann's");
  });

  it("a person's event stream hears of their own writes only", async () => {
    const open = async (token: string) => eventsReader(await as(token, "/api/events"));
    const bobHello = (await team.store.readAnnotations(team.bob)).version;
    const bob = await open(team.tokens.bob);
    const lee = await open(team.tokens.lead);
    const current = (await team.store.readAnnotations(team.bob)).version;
    expect(current).toBe(bobHello);
    const written = await put(team.tokens.bob, doc("bob's"), current);
    const version = ((await written.json()) as { version: string }).version;
    expect(await bob.until(version)).toContain(
      `event: annotations\ndata: {"version":"${version}"}`,
    );
    // Lee's stream: the next event after hello is a files event, never bob's annotations.
    hub.publish({
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
    const leeText = await lee.until("event: files");
    expect(leeText).not.toContain("event: annotations");
    expect(leeText).not.toContain(version);
    await bob.cancel();
    await lee.cancel();
  });
});

describe("the store's answers as HTTP", () => {
  it("denied 403, not found 404, invalid 400, the database 503; anything else is not mapped", async () => {
    const mapped = new Hono();
    const errors: Record<string, unknown> = {
      denied: new StoreDenied("only a lead may"),
      missing: new StoreNotFound("no queue"),
      invalid: new StoreInvalid("bad version"),
      db: new DbError("cannot use the database at postgres://u:***@h/x"),
      pg: Object.assign(new Error("relation x does not exist"), { code: "42P01" }),
      other: new Error("boom"),
    };
    mapped.get(
      "/:kind",
      (c) => teamErrorResponse(c, errors[c.req.param("kind")]) ?? c.text("none"),
    );
    const status = async (kind: string) => {
      const res = await mapped.request(`/${kind}`);
      return [res.status, await res.text()];
    };
    expect(await status("denied")).toEqual([403, '{"error":"only a lead may"}']);
    expect((await status("missing"))[0]).toBe(404);
    expect((await status("invalid"))[0]).toBe(400);
    expect(await status("db")).toEqual([
      503,
      '{"error":"cannot use the database at postgres://u:***@h/x"}',
    ]);
    expect(await status("pg")).toEqual([
      503,
      '{"error":"the database refused the request (42P01)"}',
    ]);
    expect(await status("other")).toEqual([200, "none"]);
  });
});
