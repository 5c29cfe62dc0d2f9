// `rollout-studio export --db URL --annotator NAME|gold` against a real PostgreSQL server (one
// throwaway cluster for this file, src/test/postgres.ts). People are added and annotations written
// through the store's API (PostgresTeamStore), as the view server writes them; then the export of
// a person's annotations is their document, the gold's holds the lead's resolution, and every
// other kind from the database is byte for byte the export of the same document from a file.
// Usage errors exit 2; an unknown person or dataset exits 1 naming it; the database URL's password
// appears in no output.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDemo } from "../../scripts/generate-demo.ts";
import type { Annotations, GroupAnnotation } from "../core/index.ts";
import { demoAnnotations, demoMixedGroups } from "../core/export/__fixtures__/demoAnnotations.ts";
import { annotationsParse, annotationsToJson, loadText } from "../io/index.ts";
import { dbOpen, type Db } from "../server/db/connect.ts";
import { PostgresTeamStore } from "../server/team/pgStore.ts";
import { NO_DOCUMENT_VERSION, NO_GROUP_VERSION, type StoreUser } from "../server/team/types.ts";
import { userAdd, userRevoke } from "../server/team/users.ts";
import { runCli } from "../test/cliRun.ts";
import { startPostgres, type TestPostgres } from "../test/postgres.ts";
import { COMMANDS } from "./commands/index.ts";
import { argsRedacted } from "./dbFlag.ts";
import { EXIT } from "./main.ts";

const DATA = "support-groups.jsonl";

let server: TestPostgres;
let url: string;
let admin: Db;
let store: PostgresTeamStore;
let dir: string;
let lead: StoreUser;
let ann: StoreUser;
/** ann's whole document (demoAnnotations: labels, rankings, judge runs, rubrics, splits). */
let document: Annotations;
/** The lead's resolution of the first mixed group: ann's annotation with its fail label flipped. */
let resolution: GroupAnnotation;
let firstGroup: string;
/** Every output of every run here, to check that the password is in none. */
const outputs: string[] = [];

const run = async (args: string[], env: Record<string, string | undefined> = {}) => {
  const result = await runCli(args, dir, env);
  outputs.push(result.stdout, result.stderr);
  return result;
};

let outs = 0;

/** `export DATA KIND FLAGS... --out F`: the run and F's text ("" when nothing was written). */
async function exported(kind: string, ...flags: string[]) {
  // Not named after the flags: a --db value holds the password, and the report names the file.
  const out = join(dir, `${kind}-${++outs}.out`);
  writeFileSync(out, "");
  const result = await run(["export", DATA, "--kind", kind, "--out", out, ...flags]);
  return { ...result, text: readFileSync(out, "utf8") };
}

/** A document written to a file in `dir`, for `--annotations`. */
function fileOf(name: string, annotations: Annotations): string {
  writeFileSync(join(dir, name), annotationsToJson(annotations));
  return name;
}

beforeAll(async () => {
  await COMMANDS.export!.load();
  server = await startPostgres();
  url = await server.createDatabase("cli_export");
  admin = await dbOpen(url);
  lead = (await userAdd(admin.pool, "lee", "lead")).user;
  ann = (await userAdd(admin.pool, "ann", "annotator")).user;
  const bob = (await userAdd(admin.pool, "bob", "annotator")).user;

  dir = mkdtempSync(join(tmpdir(), "rollout-studio-export-db-"));
  const demo = generateDemo();
  writeFileSync(join(dir, DATA), demo);
  const groups = (await loadText(DATA, demo)).groups;
  document = { ...demoAnnotations(groups), annotator: "ann" };
  // `view support-groups.jsonl --db` keeps the annotations under the file's name.
  store = await PostgresTeamStore.open(url, DATA);
  expect(await store.writeDocument(ann, document, NO_DOCUMENT_VERSION)).toMatchObject({
    kind: "written",
  });
  // The lead ran the judge: their document holds the runs, rubrics and splits, and no labels.
  const leadDocument = { ...document, annotator: "lee", groups: {} };
  expect(await store.writeDocument(lead, leadDocument, NO_DOCUMENT_VERSION)).toMatchObject({
    kind: "written",
  });
  const mixed = demoMixedGroups(groups);
  firstGroup = mixed[0]!.id;
  const annotation = document.groups[firstGroup]!;
  const labels = Object.fromEntries(
    Object.entries(annotation.labels).map(([id, l]) => [id, l === "fail" ? "pass" : l]),
  );
  await store.writeGroup(bob, firstGroup, { ...annotation, labels }, NO_GROUP_VERSION);
  resolution = { ...annotation, labels, notes: "resolved: bob was right" };
  await store.writeGold(lead, firstGroup, resolution, NO_GROUP_VERSION);
  await store.writeGold(lead, mixed[1]!.id, document.groups[mixed[1]!.id]!, NO_GROUP_VERSION);
}, 60_000);

afterAll(async () => {
  await store?.close();
  await admin?.close();
  await server?.stop();
  for (const text of outputs) expect(text).not.toContain(server.password);
});

describe("export --db --kind annotations", () => {
  it("a person's annotations: their document in the version-1 format, annotator their name", async () => {
    const r = await exported("annotations", "--db", url, "--annotator", "ann");
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toMatch(
      new RegExp(
        `^rollout-studio: wrote annotations: 3 annotated group\\(s\\) to \\S+, from "ann"'s annotations of dataset "${DATA}"\\n$`,
      ),
    );
    expect(r.stderr).toBe("");
    const stored = await store.readAnnotations(lead, "ann");
    expect(r.text).toBe(annotationsToJson(stored.annotations));
    const parsed = annotationsParse("out", r.text);
    expect(parsed.ok && parsed.value).toEqual({ ...document, annotator: "ann" });
  });

  it("gold: the lead's resolutions (writeGold), annotator gold", async () => {
    const r = await exported("annotations", "--db", url, "--annotator", "gold");
    expect(r.code).toBe(EXIT.ok);
    const parsed = annotationsParse("out", r.text);
    if (!parsed.ok) throw new Error("the gold export does not validate");
    expect(parsed.value.annotator).toBe("gold");
    expect(Object.keys(parsed.value.groups)).toHaveLength(2);
    expect(parsed.value.groups[firstGroup]).toEqual(resolution);
    expect(parsed.value.judgeRuns).toEqual([]);
    expect(r.text).toBe(annotationsToJson((await store.readGold(lead)).annotations));
  });

  it("ROLLOUT_STUDIO_DB stands in for --db; --out - writes to stdout; a revoked person's work is read", async () => {
    const r = await run(
      ["export", DATA, "--annotator", "ann", "--kind", "annotations", "--out", "-"],
      { ROLLOUT_STUDIO_DB: url },
    );
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toBe(
      annotationsToJson((await store.readAnnotations(lead, "ann")).annotations),
    );
    expect(r.stderr).toMatch(/wrote annotations: 3 annotated group\(s\), from "ann"'s/);
    const carl = (await userAdd(admin.pool, "carl", "annotator")).user;
    await store.writeGroup(carl, firstGroup, resolution, NO_GROUP_VERSION);
    await userRevoke(admin.pool, "carl");
    const revoked = await exported("annotations", "--db", url, "--annotator", "carl");
    expect(revoked.code).toBe(EXIT.ok);
    expect(Object.keys((JSON.parse(revoked.text) as Annotations).groups)).toEqual([firstGroup]);
  });

  it("--dataset reads another name than the first PATH's; the default is view --db's", async () => {
    mkdirSync(join(dir, "copy"), { recursive: true });
    copyFileSync(join(dir, DATA), join(dir, "copy", "renamed.jsonl"));
    const args = ["export", "copy/renamed.jsonl", "--db", url, "--annotator", "ann"];
    const named = await run([...args, "--dataset", DATA, "--kind", "annotations", "--out", "-"]);
    expect(named.code).toBe(EXIT.ok);
    expect(named.stdout).toBe(
      annotationsToJson((await store.readAnnotations(lead, "ann")).annotations),
    );
    const unnamed = await run([...args, "--kind", "annotations", "--out", "-"]);
    expect(unnamed.code).toBe(EXIT.failed);
    expect(unnamed.stdout).toBe("");
    expect(unnamed.stderr).toContain(
      `no dataset is named "renamed.jsonl" in the database; its datasets: "${DATA}" (the dataset is the first PATH's name, as view --db names it; --dataset NAME reads another)`,
    );
    expect(unnamed.stderr).toMatch(/^rollout-studio: postgres:\/\/studio:\*\*\*@127\.0\.0\.1:/);
  });
});

describe("export --db: every kind from the gold is the export of the same document from a file", () => {
  it("calibration, rubrics, rewards and dpo: byte for byte", async () => {
    const goldFile = fileOf("gold.json", (await store.readGold(lead)).annotations);
    for (const kind of ["calibration", "rubrics", "rewards", "dpo"]) {
      const fromDb = await exported(kind, "--db", url, "--annotator", "gold");
      const fromFile = await exported(kind, "--annotations", goldFile);
      expect([kind, fromDb.code]).toEqual([kind, EXIT.ok]);
      expect([kind, fromFile.code]).toEqual([kind, EXIT.ok]);
      expect(fromDb.text).toBe(fromFile.text);
      if (kind !== "rubrics") expect(fromDb.text).not.toBe("");
    }
    const dpo = await exported("dpo", "--db", url, "--annotator", "gold");
    // The gold's two groups are ranked: their pairs, and only theirs.
    const ids = new Set(
      dpo.text
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { group_id: string }).group_id),
    );
    expect(ids).toContain(firstGroup);
    expect(ids.size).toBe(2);
  });

  it("a person's calibration with their own judge run: the file export's bytes", async () => {
    const annFile = fileOf("ann.json", (await store.readAnnotations(lead, "ann")).annotations);
    const flags = ["--judge-run", "gar-heuristic-1"];
    const fromDb = await exported("calibration", "--db", url, "--annotator", "ann", ...flags);
    const fromFile = await exported("calibration", "--annotations", annFile, ...flags);
    expect([fromDb.code, fromFile.code]).toEqual([EXIT.ok, EXIT.ok]);
    expect(fromDb.text).toBe(fromFile.text);
    expect(fromDb.text).toContain('"judge_run_id":"gar-heuristic-1"');
  });

  it("the gold holds no judge run: --judge-from takes the lead's, the human side stays the gold", async () => {
    const gold = (await store.readGold(lead)).annotations;
    const bare = await exported(
      "calibration",
      "--db",
      url,
      "--annotator",
      "gold",
      "--judge-run",
      "gar-heuristic-1",
    );
    expect(bare.code).toBe(EXIT.failed);
    expect(bare.stderr).toMatch(
      new RegExp(`^rollout-studio: the gold of dataset "${DATA}": judgeRuns: `),
    );
    expect(bare.text).toBe("");

    const theirs = (await store.readAnnotations(lead, "lee")).annotations;
    const merged = fileOf("gold-with-lee.json", {
      ...gold,
      judgeRuns: theirs.judgeRuns,
      rubrics: theirs.rubrics,
      calibration: theirs.calibration,
    });
    const flags = ["--judge-run", "gar-heuristic-1"];
    const fromDb = await exported(
      "calibration",
      ...["--db", url, "--annotator", "gold", "--judge-from", "lee", ...flags],
    );
    const fromFile = await exported("calibration", "--annotations", merged, ...flags);
    expect([fromDb.code, fromFile.code]).toEqual([EXIT.ok, EXIT.ok]);
    expect(fromDb.text).toBe(fromFile.text);
    expect(fromDb.stdout).toContain(`from the gold of dataset "${DATA}" with "lee"'s judge runs`);
    const rows = fromDb.text
      .trim()
      .split("\n")
      .map(
        (l) =>
          JSON.parse(l) as {
            rollout_id: string;
            human_label: string | null;
            judge_verdict: string | null;
          },
      );
    // The human labels are the gold's (the resolution), the verdicts the lead's run's.
    const flipped = Object.entries(resolution.labels).find(
      ([id]) => document.groups[firstGroup]!.labels[id] === "fail",
    )!;
    expect(rows.find((r) => r.rollout_id === flipped[0])!.human_label).toBe("pass");
    expect(rows.some((r) => r.judge_verdict !== null)).toBe(true);
  });
});

describe("export --db refusals", () => {
  it("an unknown person: exit 1 naming them and the people with annotations", async () => {
    const r = await exported("dpo", "--db", url, "--annotator", "zed");
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain(
      `no person is named "zed"; the people with annotations of dataset "${DATA}": "ann", "bob", "carl", "lee"`,
    );
    expect(r.text).toBe("");
    const judge = await exported("dpo", "--db", url, "--annotator", "gold", "--judge-from", "zed");
    expect(judge.code).toBe(EXIT.failed);
    expect(judge.stderr).toContain('no person is named "zed"');
  });

  it("a person with nothing in the dataset: written, empty, with a note", async () => {
    await userAdd(admin.pool, "dee", "annotator");
    const r = await exported("annotations", "--db", url, "--annotator", "dee");
    expect(r.code).toBe(EXIT.ok);
    expect(r.stderr).toContain(
      `note: "dee"'s annotations of dataset "${DATA}": no annotated group yet`,
    );
    expect(JSON.parse(r.text)).toMatchObject({ annotator: "dee", groups: {} });
  });

  it("usage errors: exit 2 with what to give", async () => {
    const base = ["export", DATA, "--kind", "dpo", "--out", "-"];
    const usage: [string[], Record<string, string>, RegExp][] = [
      [
        [...base],
        {},
        /export needs --annotations A\.json, or --db URL with --annotator NAME\|gold/,
      ],
      [
        [...base, "--annotator", "ann"],
        {},
        /--annotator reads the team store's database: give --db URL, or ROLLOUT_STUDIO_DB/,
      ],
      [[...base, "--db", url], {}, /--db needs --annotator NAME\|gold/],
      [
        [...base],
        { ROLLOUT_STUDIO_DB: url },
        /export needs --annotations A\.json, or --annotator NAME\|gold to read the database in ROLLOUT_STUDIO_DB/,
      ],
      [
        [...base, "--annotations", "gold.json", "--db", url],
        {},
        /--annotations reads a file; --db reads the database: give one or the other/,
      ],
      [
        [...base, "--annotations", "gold.json", "--annotator", "ann"],
        { ROLLOUT_STUDIO_DB: url },
        /--annotations reads a file; --annotator reads the database/,
      ],
      [[...base, "--dataset", "x"], {}, /--dataset goes with --db and --annotator/],
      [[...base, "--db", url, "--annotator", ""], {}, /--annotator needs a name/],
      [
        [...base, "--db", url, "--annotator", "ann", "--dataset", " "],
        {},
        /--dataset needs a name/,
      ],
      [
        [...base, "--db", url, "--annotator", "ann", "--judge-from", "gold"],
        {},
        /--judge-from names a person: the gold holds no judge runs/,
      ],
      [
        [
          "export",
          DATA,
          "--kind",
          "annotations",
          "--out",
          "-",
          "--db",
          url,
          "--annotator",
          "gold",
          "--judge-from",
          "lee",
        ],
        {},
        /--judge-from does not go with --kind annotations/,
      ],
      [
        [...base, "--db", `mysql://root:${server.password}@h/x`, "--annotator", "ann"],
        {},
        /postgres:\/\/ URL; got mysql:\/\/root:\*\*\*@h\/x/,
      ],
    ];
    for (const [args, env, message] of usage) {
      const r = await run(args, env);
      expect([args, r.code]).toEqual([args, EXIT.usage]);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
    // With --annotations, ROLLOUT_STUDIO_DB is not read: the file export as before.
    const file = await run([...base, "--annotations", "gold.json"], { ROLLOUT_STUDIO_DB: url });
    expect(file.code).toBe(EXIT.ok);
  });

  it("--help names both forms and the database flags", async () => {
    const help = await run(["export", "--help"]);
    expect(help.code).toBe(EXIT.ok);
    expect(help.stdout).toContain(
      "rollout-studio export PATH... --db URL --annotator NAME|gold --kind KIND --out F",
    );
    for (const flag of ["--db URL", "--annotator NAME|gold", "--dataset NAME", "--judge-from NAME"])
      expect(help.stdout).toContain(flag);
  });
});

describe("the database URL's password never appears", () => {
  it("a wrong password: exit 1, the URL redacted, the driver's reason kept", async () => {
    const wrong = url.replace(server.password, "Wr0ng-Pa55word");
    const r = await exported("dpo", "--db", wrong, "--annotator", "gold");
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toMatch(/password authentication failed for user "studio"/);
    expect(r.stderr).toContain(`postgres://studio:***@127.0.0.1:${server.port}/cli_export`);
    expect(r.stdout + r.stderr).not.toContain("Wr0ng-Pa55word");
  });

  it("an unreachable server: exit 1, the URL redacted", async () => {
    const r = await exported(
      "annotations",
      "--annotator",
      "ann",
      "--db",
      `postgres://studio:${server.password}@127.0.0.1:1/db`,
    );
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toMatch(
      /^rollout-studio: cannot use the database at postgres:\/\/studio:\*\*\*@127\.0\.0\.1:1\/db: .*ECONNREFUSED/,
    );
  });

  it("a command-line message quoting a URL shows it redacted", () => {
    const secret = `postgres://studio:${server.password}@db:5432/x`;
    expect(argsRedacted(`bad value ${secret}`, ["--db", secret])).toBe(
      "bad value postgres://studio:***@db:5432/x",
    );
    expect(argsRedacted(`bad ${server.password}`, [`--db=${secret}`])).toBe("bad ***");
  });
});
