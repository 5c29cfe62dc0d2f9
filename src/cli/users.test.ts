// `rollout-studio users` against a real PostgreSQL server (one throwaway cluster for this file,
// src/test/postgres.ts): the token is the last line of `add`, list never shows one, revoke stops
// it at once, ROLLOUT_STUDIO_DB stands in for --db, and the password never appears in any output.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbOpen, type Db } from "../server/db/connect.ts";
import { authenticateToken } from "../server/team/users.ts";
import { runCli } from "../test/cliRun.ts";
import { startPostgres, type TestPostgres } from "../test/postgres.ts";
import { COMMANDS } from "./commands/index.ts";
import { EXIT } from "./main.ts";

const ROOT = join(import.meta.dirname, "../..");

let server: TestPostgres;
let url: string;
let db: Db;
/** Every output of every run here, to check that the password is in none. */
const outputs: string[] = [];

const run = async (args: string[], env: Record<string, string | undefined> = {}) => {
  const result = await runCli(args, ROOT, env);
  outputs.push(result.stdout, result.stderr);
  return result;
};
const lastLine = (text: string) => text.trimEnd().split("\n").at(-1)!;

beforeAll(async () => {
  await COMMANDS.users!.load();
  server = await startPostgres();
  url = await server.createDatabase("cli_users");
});
afterAll(async () => {
  await db?.close();
  await server?.stop();
  for (const text of outputs) expect(text).not.toContain(server.password);
});

describe("users add, list, revoke", () => {
  it("add prints the token as the last line; it authenticates; only a hash is kept", async () => {
    const lead = await run(["users", "add", "lee", "--role", "lead", "--db", url]);
    expect(lead.code).toBe(EXIT.ok);
    expect(lead.stderr).toMatch(
      /prepared postgres:\/\/studio:\*\*\*@127\.0\.0\.1:\d+\/cli_users \(migrations 1\)/,
    );
    expect(lead.stdout).toContain('added lead "lee" to postgres://studio:***@');
    const token = lastLine(lead.stdout);
    expect(token).toMatch(/^[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{43}$/);
    db = await dbOpen(url);
    expect(await authenticateToken(db.pool, token)).toMatchObject({ name: "lee", role: "lead" });
    const ann = await run(["users", "add", "ann", "--role", "annotator", "--db", url]);
    expect(ann.code).toBe(EXIT.ok);
    expect(ann.stderr).toBe("");
    const annToken = lastLine(ann.stdout);
    expect(annToken).not.toBe(token);
    expect(await authenticateToken(db.pool, annToken)).toMatchObject({
      name: "ann",
      role: "annotator",
    });

    const list = await run(["users", "list", "--db", url]);
    expect(list.code).toBe(EXIT.ok);
    expect(list.stdout).toMatch(
      /^name +role +created +revoked\nlee +lead +\d{4}-\S+ +-\nann +annotator +\S+ +-\n$/,
    );
    const json = await run(["users", "list", "--json", "--db", url]);
    const people = JSON.parse(json.stdout) as { name: string; role: string; revokedAt: null }[];
    expect(people.map((p) => [p.name, p.role, p.revokedAt])).toEqual([
      ["lee", "lead", null],
      ["ann", "annotator", null],
    ]);
    for (const out of [list.stdout, json.stdout])
      for (const t of [token, annToken])
        for (const part of t.split(".")) expect(out).not.toContain(part);

    const revoke = await run(["users", "revoke", "ann", "--db", url]);
    expect(revoke.code).toBe(EXIT.ok);
    expect(revoke.stdout).toMatch(/revoked "ann": their token stops working at once/);
    expect(await authenticateToken(db.pool, annToken)).toBeNull();
    const again = await run(["users", "revoke", "ann", "--db", url]);
    expect(again.code).toBe(EXIT.ok);
    expect(again.stdout).toMatch(/"ann" was already revoked/);
    const listed = JSON.parse((await run(["users", "list", "--json", "--db", url])).stdout) as {
      name: string;
      revokedAt: string | null;
    }[];
    expect(listed.find((p) => p.name === "ann")!.revokedAt).toMatch(/^\d{4}-/);
  });

  it("ROLLOUT_STUDIO_DB stands in for --db; --db wins over it", async () => {
    const env = { ROLLOUT_STUDIO_DB: url };
    const added = await run(
      ["users", "add", "O'Brien; DROP TABLE users", "--role", "annotator"],
      env,
    );
    expect(added.code).toBe(EXIT.ok);
    const list = await run(["users", "list", "--json"], env);
    expect((JSON.parse(list.stdout) as { name: string }[]).map((p) => p.name)).toContain(
      "O'Brien; DROP TABLE users",
    );
    const elsewhere = await run(
      ["users", "list", "--db", `postgres://studio:${server.password}@127.0.0.1:1/x`],
      env,
    );
    expect(elsewhere.code).toBe(EXIT.failed);
  });

  it("refusals: a taken name, no such person (exit 1); usage errors (exit 2)", async () => {
    const taken = await run(["users", "add", "lee", "--role", "annotator", "--db", url]);
    expect([taken.code, taken.stdout]).toEqual([EXIT.failed, ""]);
    expect(taken.stderr).toMatch(/already a person named "lee"/);
    const nobody = await run(["users", "revoke", "nobody", "--db", url]);
    expect(nobody.code).toBe(EXIT.failed);
    expect(nobody.stderr).toMatch(/no person is named "nobody" in postgres:\/\/studio:\*\*\*@/);
    const badName = await run(["users", "add", "gold", "--role", "lead", "--db", url]);
    expect(badName.code).toBe(EXIT.failed);
    const usage: [string[], RegExp][] = [
      [["users"], /needs an action/],
      [["users", "delete", "x", "--db", url], /no action "delete"/],
      [["users", "add", "x", "--db", url], /needs --role annotator or --role lead/],
      [["users", "add", "x", "--role", "admin", "--db", url], /--role is annotator or lead/],
      [["users", "add", "--role", "lead", "--db", url], /needs a NAME/],
      [["users", "list", "x", "--db", url], /takes no NAME/],
      [["users", "revoke", "x", "--json", "--db", url], /--json goes with users list/],
      [["users", "list"], /--db URL, or ROLLOUT_STUDIO_DB/],
      [
        ["users", "list", "--db", `mysql://root:${server.password}@h/x`],
        /postgres:\/\/ URL; got mysql:\/\/root:\*\*\*@h\/x/,
      ],
    ];
    for (const [args, message] of usage) {
      const r = await run(args);
      expect([args, r.code]).toEqual([args, EXIT.usage]);
      expect(r.stderr).toMatch(message);
    }
    const help = await run(["users", "--help"]);
    expect(help.stdout).toContain("Usage: rollout-studio users add NAME --role annotator|lead");
  });
});

describe("the database URL's password never appears", () => {
  it("a wrong password: exit 1, the URL redacted, the driver's reason kept", async () => {
    const wrong = url.replace(server.password, "Wr0ng-Pa55word");
    const r = await run(["users", "list", "--db", wrong]);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toMatch(/password authentication failed for user "studio"/);
    expect(r.stderr).toContain(`postgres://studio:***@127.0.0.1:${server.port}/cli_users`);
    expect(r.stdout + r.stderr).not.toContain("Wr0ng-Pa55word");
  });

  it("an unreachable server: exit 1, the URL redacted", async () => {
    const r = await run(["users", "add", "x", "--role", "lead"], {
      ROLLOUT_STUDIO_DB: `postgres://studio:${server.password}@127.0.0.1:1/db`,
    });
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toMatch(
      /cannot use the database at postgres:\/\/studio:\*\*\*@127\.0\.0\.1:1\/db: .*ECONNREFUSED/,
    );
  });
});

describe("the built CLI", () => {
  it("bin/rollout-studio.mjs users add migrates a fresh database and prints the token last", async () => {
    const fresh = await server.createDatabase("cli_built");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, "bin/rollout-studio.mjs"), "users", "add", "kim", "--role", "lead"],
      { env: { ...process.env, ROLLOUT_STUDIO_FROM_SOURCE: "", ROLLOUT_STUDIO_DB: fresh } },
    );
    outputs.push(stdout);
    const token = lastLine(stdout);
    const built = await dbOpen(fresh);
    try {
      expect(built.applied).toEqual([]);
      expect(await authenticateToken(built.pool, token)).toMatchObject({
        name: "kim",
        role: "lead",
      });
    } finally {
      await built.close();
    }
  });
});
