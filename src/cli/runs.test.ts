/**
 * Covers: the CLI's PATH arguments as one run (issue 14): a verl step folder, a TRL completions
 * folder of Parquet files (written with hyparquet-writer in the same columns as the committed TRL
 * fixture), several files, globs (expanded by ./runPaths.ts), `--format` for every file; text
 * output names the run and JSON gives every group its step; the numbers are the merge of the
 * per-file loads (io's runDatasetMerge), and one file reads exactly as before.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { datasetFromLoad, loadBytes } from "../io/index.ts";
import { expandGlob } from "./runPaths.ts";
import { runCli } from "../test/cliRun.ts";
import { trlParquet, writeVerlFolder } from "../test/runFixtures.ts";

const TRL_FIXTURE = join(import.meta.dirname, "../io/__fixtures__/trl/completions_00040.parquet");

const run = (args: string[], cwd: string) => runCli(args, cwd, {});

interface RunJson {
  run?: { name: string; steps: number; files: { path: string; step: number; groups: number }[] };
  summary: { rollouts: number; groups: number; mixedGroups: number; zeroStdGroups: number };
  groups: { id: string; step: number | null; rollouts: { id: string; advantage: number }[] }[];
}

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "rs-runs-"));
  writeVerlFolder(join(root, "verl"), [2, 1, 10]);
  mkdirSync(join(root, "out", "completions"), { recursive: true });
  for (const step of [10, 20])
    writeFileSync(
      join(root, "out", "completions", `completions_${String(step).padStart(5, "0")}.parquet`),
      trlParquet(step),
    );
  writeFileSync(join(root, "single.parquet"), readFileSync(TRL_FIXTURE));
  mkdirSync(join(root, "native"));
  for (const name of ["a", "b"])
    writeFileSync(
      join(root, "native", `${name}.jsonl`),
      [0, 1]
        .map((r) => JSON.stringify({ group_id: "group-1", completion: `${name}${r}`, reward: r }))
        .join("\n"),
    );
});

describe("a run on the command line", () => {
  it("reads the TRL writer's Parquet like the committed fixture", async () => {
    const fixture = await loadBytes("f.parquet", readFileSync(TRL_FIXTURE));
    const written = await loadBytes("w.parquet", trlParquet(10));
    expect(written.format).toBe(fixture.format);
    expect(written.issues).toEqual([]);
    expect(Object.keys(written.groups[0]!.rollouts[0]!.rewards).sort()).toEqual(
      Object.keys(fixture.groups[0]!.rollouts[0]!.rewards).sort(),
    );
    expect(datasetFromLoad(written).summaries.map((s) => s.step)).toEqual([10, 10]);
  });

  it("analyzes a verl step folder as one run, every group with its step", async () => {
    const { code, stdout, stderr } = await run(["analyze", "verl", "--json"], root);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as RunJson;
    expect(json.run!.steps).toBe(3);
    expect(json.run!.files.map((f) => [f.path, f.step, f.groups])).toEqual([
      ["verl/1.jsonl", 1, 2],
      ["verl/2.jsonl", 2, 2],
      ["verl/10.jsonl", 10, 2],
    ]);
    expect(json.summary).toMatchObject({
      rollouts: 24,
      groups: 6,
      mixedGroups: 3,
      zeroStdGroups: 3,
    });
    expect(json.groups.map((g) => g.step)).toEqual([1, 1, 2, 2, 10, 10]);
    for (const g of json.groups) expect(g.id.startsWith(`${g.step}/`)).toBe(true);
    expect(new Set(json.groups.map((g) => g.id)).size).toBe(6);
  });

  it("names the run in its text output", async () => {
    const { code, stdout } = await run(["analyze", "verl"], root);
    expect(code).toBe(0);
    expect(stdout).toContain(
      "run of 3 files, 3 steps (1..10): verl/1.jsonl (step 1), verl/2.jsonl (step 2), verl/10.jsonl (step 10)",
    );
    expect(stdout).toMatch(/^step {2}group/m);
  });

  it("analyzes a TRL completions folder of Parquet files", async () => {
    const { code, stdout } = await run(["analyze", "out/completions", "--json"], root);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as RunJson;
    expect(json.run!.steps).toBe(2);
    expect(json.summary).toMatchObject({ rollouts: 10, groups: 4 });
    expect(json.groups.map((g) => g.step)).toEqual([10, 10, 20, 20]);
  });

  it("gives the same numbers for a folder, its files and a glob", async () => {
    const folder = JSON.parse((await run(["analyze", "verl", "--json"], root)).stdout) as RunJson;
    const files = JSON.parse(
      (await run(["analyze", "verl/10.jsonl", "verl/2.jsonl", "verl/1.jsonl", "--json"], root))
        .stdout,
    ) as RunJson;
    const glob = JSON.parse(
      (await run(["analyze", "verl/*.jsonl", "--json"], root)).stdout,
    ) as RunJson;
    expect(files.groups).toEqual(folder.groups);
    expect(glob.groups).toEqual(folder.groups);
    expect(glob.run!.files.map((f) => f.path)).toEqual([
      "verl/1.jsonl",
      "verl/2.jsonl",
      "verl/10.jsonl",
    ]);
  });

  it("keeps two files' equal group ids apart, by the file's step, with --format for each", async () => {
    const { code, stdout } = await run(["analyze", "native", "--format", "native", "--json"], root);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as RunJson;
    expect(json.groups.map((g) => [g.id, g.step])).toEqual([
      ["0/group-1", 0],
      ["1/group-1", 1],
    ]);
    expect(json.groups[1]!.rollouts.map((r) => r.id)).toEqual(["1/group-1/0", "1/group-1/1"]);
  });

  it("reads one file exactly as before: the same ids, a step from its rows, no run", async () => {
    const { code, stdout } = await run(["analyze", "single.parquet", "--json"], root);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as RunJson;
    expect(json.run).toBeUndefined();
    expect(json.groups.every((g) => g.step === 40 && g.id.startsWith("40/"))).toBe(true);
  });

  it("exports and judges a folder as one run", async () => {
    const judged = await run(
      ["judge", "verl", "--mode", "gar", "--heuristic", "--out", join(root, "judged.json")],
      root,
    );
    expect(judged.stderr).not.toMatch(/takes exactly one/);
    expect(judged.code).toBe(0);
    const out = join(root, "dpo.jsonl");
    const exported = await run(
      [
        "export",
        "verl",
        "--annotations",
        join(root, "judged.json"),
        "--kind",
        "annotations",
        "--out",
        out,
      ],
      root,
    );
    expect(exported.stderr).not.toMatch(/not in/);
    expect([0, 3]).toContain(exported.code);
  });

  it("refuses a glob that matches nothing and a folder without data", async () => {
    mkdirSync(join(root, "empty"), { recursive: true });
    const none = await run(["analyze", "nothing/*.jsonl"], root);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("nothing/*.jsonl: the pattern matches no file");
    const empty = await run(["analyze", "empty"], root);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("empty: the folder holds no data file");
  });
});

describe("expandGlob", () => {
  it("matches within a segment, across segments with **, and classes", () => {
    expect(expandGlob(root, "verl/?.jsonl").map((p) => p.slice(root.length + 1))).toEqual([
      "verl/1.jsonl",
      "verl/2.jsonl",
    ]);
    expect(
      expandGlob(root, "**/completions_*.parquet").map((p) => p.slice(root.length + 1)),
    ).toEqual([
      "out/completions/completions_00010.parquet",
      "out/completions/completions_00020.parquet",
    ]);
    expect(expandGlob(root, "verl/[12]*.jsonl").map((p) => p.slice(root.length + 1))).toEqual([
      "verl/1.jsonl",
      "verl/10.jsonl",
      "verl/2.jsonl",
    ]);
  });
});
