/**
 * Covers: issue 18's contract for team mode, with the built CLI on a real port and a real
 * PostgreSQL server (a throwaway cluster, src/test/postgres.ts): `users add` prints the token as
 * its last line; `view RUN --db URL` serves as `view` does, each person with `?token=<their
 * token>` (or a Bearer header) and their own annotations; after `users revoke NAME` (exit 0) that
 * token gets 401 on every `/api/` request; the database password appears in no output; a wrong
 * password stops `view` with exit 1 and the URL redacted. No browser: HTTP checks (the studio
 * side of team mode is the next step of issue 18).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawGet, viewStart, type ViewProcess } from "../scripts/viewProcess.ts";
import { BIN, teamCli } from "./harness/teamCli.ts";
import { startPostgres, type TestPostgres } from "../src/test/postgres.ts";

const base = mkdtempSync(join(tmpdir(), "view-team-"));
const run = join(base, "support-run");
mkdirSync(run, { recursive: true });
writeFileSync(join(run, "steps.jsonl"), '{"prompt":"p","completion":"c","reward":1}\n');

let pg: TestPostgres;
let view: ViewProcess;
let tokens: Record<string, string> = {};

const team = teamCli(() => pg.url);
const cli = team.run;

beforeAll(async () => {
  pg = await startPostgres();
  tokens = await team.addUsers([
    ["lee", "lead"],
    ["ann", "annotator"],
    ["bob", "annotator"],
  ]);
  view = await viewStart(process.execPath, [BIN, "view", run, "--port", "0", "--db", pg.url]);
});

afterAll(async () => {
  if (view !== undefined && view.child.exitCode === null) await view.stop("SIGKILL");
  if (pg !== undefined) {
    for (const text of [...team.outputs, view?.stdout() ?? "", view?.stderr() ?? ""])
      expect(text).not.toContain(pg.password);
    await pg.stop();
  }
});

const as = (name: string): Record<string, string> => ({
  authorization: `Bearer ${tokens[name]!}`,
});

describe("rollout-studio view --db", () => {
  it("prints where to open it for each person's own token, the dataset, and no password", () => {
    expect(view.token).toBeNull();
    expect(view.stdout()).toContain(`${view.origin}/?token=<your token>`);
    expect(view.stdout()).toContain('Team:   dataset "support-run"');
    expect(view.stdout()).toMatch(/State: {2}postgres:\/\/studio:\*\*\*@127\.0\.0\.1:\d+\/studio/);
  });

  it("each person reads the run and their own annotations with their token", async () => {
    expect((await rawGet(view.origin, "/api/runs")).status).toBe(401);
    const runs = await rawGet(view.origin, `/api/runs?token=${tokens.ann!}`);
    expect(runs.status).toBe(200);
    const listing = JSON.parse(runs.body) as { team: unknown; runs: { files: { id: string }[] }[] };
    expect(listing.team).toEqual({ user: "ann", role: "annotator", dataset: "support-run" });
    const file = await rawGet(
      view.origin,
      `/api/files/${listing.runs[0]!.files[0]!.id}`,
      as("ann"),
    );
    expect(file.body).toContain('"reward":1');

    const doc = { version: 1, groups: { g1: { labels: { r0: "pass" }, notes: "ann's label" } } };
    const put = await fetch(`${view.origin}/api/annotations`, {
      method: "PUT",
      headers: { ...as("ann"), "if-match": '"none"' },
      body: JSON.stringify(doc),
    });
    expect(put.status).toBe(200);
    const mine = JSON.parse((await rawGet(view.origin, "/api/annotations", as("ann"))).body) as {
      annotator: string;
      groups: Record<string, { notes: string }>;
    };
    expect([mine.annotator, mine.groups.g1!.notes]).toEqual(["ann", "ann's label"]);
    const bobs = JSON.parse((await rawGet(view.origin, "/api/annotations", as("bob"))).body) as {
      groups: object;
    };
    expect(bobs.groups).toEqual({});
  });

  it("users revoke exits 0, and the token then gets 401 on every /api/ request", async () => {
    expect((await rawGet(view.origin, "/api/annotations", as("bob"))).status).toBe(200);
    const revoked = await cli("users", "revoke", "bob");
    expect(revoked.code).toBe(0);
    const listing = JSON.parse((await rawGet(view.origin, "/api/runs", as("ann"))).body) as {
      runs: { files: { id: string }[] }[];
    };
    for (const path of [
      "/api/runs",
      "/api/annotations",
      "/api/events",
      `/api/files/${listing.runs[0]!.files[0]!.id}`,
    ]) {
      expect((await rawGet(view.origin, path, as("bob"))).status, path).toBe(401);
      expect((await rawGet(view.origin, `${path}?token=${tokens.bob!}`)).status, path).toBe(401);
    }
    expect((await rawGet(view.origin, "/api/runs", as("lee"))).status).toBe(200);
  });

  it("SIGTERM stops it with exit 0", async () => {
    expect(await view.stop("SIGTERM")).toBe(0);
  });

  it("a wrong password: exit 1 before serving, the URL redacted", async () => {
    const wrong = pg.url.replace(pg.password, "Not-The-Pw-77");
    const r = await promisify(execFile)(
      process.execPath,
      [BIN, "view", run, "--port", "0", "--db", wrong],
      {
        env: { ...process.env, ROLLOUT_STUDIO_FROM_SOURCE: "" },
      },
    ).then(
      () => ({ code: 0, stderr: "", stdout: "" }),
      (e: { code: number; stderr: string; stdout: string }) => e,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/password authentication failed for user "studio"/);
    expect(r.stderr).toContain("postgres://studio:***@127.0.0.1:");
    expect(r.stdout + r.stderr).not.toContain("Not-The-Pw-77");
  });
});
