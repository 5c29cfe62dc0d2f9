/**
 * Covers: `analyze --text-chars N`, the CLI's side of the setting "text analysed per rollout"
 * (issue 16, point 3): the same default as the studio, said in the settings line and in --json,
 * the clusters read at most N characters of each text, and the texts it cut are counted.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS } from "../core/index.ts";
import { COMMANDS } from "./commands/index.ts";
import { EXIT } from "./main.ts";
import { runCli } from "../test/cliRun.ts";

const SHARED = "the same long opening of a huge completion ".repeat(10);
let path = "";

beforeAll(async () => {
  await COMMANDS.analyze!.load();
  const dir = mkdtempSync(join(tmpdir(), "rollout-studio-text-chars-"));
  path = join(dir, "two.jsonl");
  // Two rollouts that share their first 430 characters and differ completely after them.
  const rows = [
    { group_id: "g", completion: SHARED + "alpha beta gamma delta ".repeat(200), reward: 1 },
    { group_id: "g", completion: SHARED + "zzz yyy xxx www vvv uuu ".repeat(200), reward: 0 },
  ];
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
}, 30_000);

interface Out {
  settings: { textChars: number };
  summary: { textsCut: number };
  groups: { clusters: number }[];
}

describe("analyze --text-chars", () => {
  it("defaults to the studio's bound and says it in the settings line and --json", async () => {
    const text = await runCli(["analyze", path, "--similarity-on", "text"], process.cwd());
    expect(text.code).toBe(EXIT.ok);
    expect(text.stdout).toMatch(/^settings: .*, first 200000 characters;/m);
    expect(text.stdout).not.toMatch(/cut to/);
    const json = await runCli(
      ["analyze", path, "--similarity-on", "text", "--json"],
      process.cwd(),
    );
    const out = JSON.parse(json.stdout) as Out;
    expect(out.settings.textChars).toBe(ANALYSIS_DEFAULTS.textChars);
    expect(out.summary.textsCut).toBe(0);
    expect(out.groups[0]!.clusters).toBe(2);
  });

  it("clusters the first N characters only, and counts the texts it cut", async () => {
    const args = [
      "analyze",
      path,
      "--similarity-on",
      "text",
      "--text-chars",
      String(SHARED.length),
    ];
    const text = await runCli(args, process.cwd());
    expect(text.stdout).toMatch(/first 430 characters/);
    expect(text.stdout).toMatch(
      /^2 texts cut to 430 characters for the clusters \(--text-chars\)$/m,
    );
    const out = JSON.parse((await runCli([...args, "--json"], process.cwd())).stdout) as Out;
    expect(out.settings.textChars).toBe(430);
    expect(out.summary.textsCut).toBe(2);
    expect(out.groups[0]!.clusters).toBe(1);
  });

  it.each(["0", "1.5", "many"])("refuses --text-chars %s", async (value) => {
    const r = await runCli(["analyze", path, "--text-chars", value], process.cwd());
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/--text-chars must be a positive integer/);
  });
});
