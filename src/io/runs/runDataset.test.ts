/**
 * Covers: merging a run's per-file loads into one dataset (group identity with the step, TRL and
 * verl ids not prefixed twice, other formats prefixed, a row step that disagrees with the file name,
 * colliding ids), and that a run of one file is exactly that file's dataset.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fc, test as prop } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { datasetFromLoad, loadBytes, loadText, type LoadedDataset } from "../index.ts";
import { datasetSteps, runDatasetMerge, type RunPart } from "./runDataset.ts";
import { runOfFiles } from "./runFiles.ts";

const FIXTURES = join(import.meta.dirname, "..", "__fixtures__");

const verlRow = (step: number, input: string, score: number): string =>
  JSON.stringify({ input, output: `out ${score}`, gts: "4", score, step });

const nativeRows = (group: string, rewards: readonly number[]): string =>
  rewards
    .map((r, i) => JSON.stringify({ group_id: group, completion: `c${i}`, reward: r }))
    .join("\n");

async function partsOf(files: readonly { path: string; text: string }[]): Promise<RunPart[]> {
  const run = runOfFiles(files.map((f) => ({ path: f.path, size: f.text.length, mtimeMs: 0 })));
  return Promise.all(
    run.files.map(async (file) => {
      const text = files.find((f) => f.path === file.path)!.text;
      return { file, dataset: datasetFromLoad(await loadText(file.path, text)) };
    }),
  );
}

describe("runDatasetMerge", () => {
  it("keeps verl's <step>/ ids as they are, and counts the steps", async () => {
    const parts = await partsOf([
      { path: "2.jsonl", text: [verlRow(2, "a", 1), verlRow(2, "a", 0)].join("\n") },
      { path: "1.jsonl", text: [verlRow(1, "a", 1), verlRow(1, "b", 0)].join("\n") },
    ]);
    const run = runDatasetMerge("verl", parts);
    expect(run.summaries.map((s) => s.step)).toEqual([1, 1, 2]);
    expect(run.summaries.every((s) => /^\d+\/[0-9a-f]{12}$/.test(s.id))).toBe(true);
    expect(run.summaries[0]!.id.startsWith("1/")).toBe(true);
    expect(run.run.steps).toBe(2);
    expect(run.stats.rollouts).toBe(4);
    expect(run.run.files.map((f) => [f.path, f.step, f.groups])).toEqual([
      ["1.jsonl", 1, 2],
      ["2.jsonl", 2, 1],
    ]);
    expect(run.issues).toEqual([]);
    expect(run.file).toBe("verl");
  });

  it("keeps every issue of a file with more issues than a call's arguments can hold", async () => {
    const [part] = await partsOf([{ path: "1.jsonl", text: verlRow(1, "a", 1) }]);
    const issues = Array.from({ length: 200_000 }, (_, i) => ({
      file: "1.jsonl",
      line: i + 2,
      message: "not valid JSON",
    }));
    const other = { ...part!, dataset: { ...part!.dataset, issues } };
    const [second] = await partsOf([{ path: "2.jsonl", text: verlRow(2, "a", 1) }]);
    const run = runDatasetMerge("run", [other, second!]);
    expect(run.issues).toHaveLength(200_000);
  });

  it("prefixes other formats' groups and rollouts with the file's step", async () => {
    const parts = await partsOf([
      { path: "step_10.jsonl", text: nativeRows("group-1", [1, 0]) },
      { path: "step_20.jsonl", text: nativeRows("group-1", [0, 0]) },
    ]);
    const run = runDatasetMerge("run", parts);
    expect(run.summaries.map((s) => [s.id, s.step])).toEqual([
      ["10/group-1", 10],
      ["20/group-1", 20],
    ]);
    expect(run.groups.map((g) => g.rollouts.map((r) => [r.id, r.groupId]))).toEqual([
      [
        ["10/group-1/0", "10/group-1"],
        ["10/group-1/1", "10/group-1"],
      ],
      [
        ["20/group-1/0", "20/group-1"],
        ["20/group-1/1", "20/group-1"],
      ],
    ]);
    expect(run.run.origins.get("20/group-1")).toEqual({ file: 1, localId: "group-1" });
    expect(run.groups[1]!.rollouts[0]!.source.file).toBe("step_20.jsonl");
  });

  it("keeps the rows' step over the name's and says so once per file", async () => {
    const parts = await partsOf([
      { path: "5.jsonl", text: [verlRow(7, "a", 1), verlRow(7, "b", 0)].join("\n") },
      { path: "6.jsonl", text: verlRow(6, "a", 1) },
    ]);
    const run = runDatasetMerge("verl", parts);
    expect(run.summaries.map((s) => s.step)).toEqual([7, 7, 6]);
    expect(run.issues).toEqual([
      {
        file: "5.jsonl",
        line: 0,
        field: "step",
        message: "the rows carry step 7 but the file name says 5; the rows' step is kept",
      },
    ]);
  });

  it("keeps two files' equal ids apart and reports it", async () => {
    const parts = await partsOf([
      { path: "a.jsonl", text: verlRow(3, "same", 1) },
      { path: "b.jsonl", text: verlRow(3, "same", 0) },
    ]);
    const run = runDatasetMerge("run", parts);
    const ids = run.summaries.map((s) => s.id);
    expect(new Set(ids).size).toBe(2);
    expect(ids[1]).toBe(`b.jsonl:${ids[0]}`);
    expect(run.issues.map((i) => i.file)).toEqual(["b.jsonl"]);
    const rolloutIds = run.groups.flatMap((g) => g.rollouts.map((r) => r.id));
    expect(new Set(rolloutIds).size).toBe(2);
  });

  it("is exactly the file's dataset for a run of one file (TRL Parquet)", async () => {
    const path = join(FIXTURES, "trl", "completions_00040.parquet");
    const bytes = readFileSync(path);
    const dataset = datasetFromLoad(await loadBytes("completions_00040.parquet", bytes));
    const run = runDatasetMerge("completions_00040.parquet", [
      {
        file: runOfFiles([{ path: "completions_00040.parquet", size: bytes.length, mtimeMs: 0 }])
          .files[0]!,
        dataset,
      },
    ]);
    const { run: info, ...rest } = run;
    expect(rest).toEqual(dataset);
    expect(info.steps).toBe(1);
    expect(dataset.summaries.every((s) => s.step === 40)).toBe(true);
  });

  prop.prop([
    fc.array(fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 1, maxLength: 4 }), {
      minLength: 1,
      maxLength: 4,
    }),
  ])("a single native file keeps its ids and a null step", async (groups) => {
    const text = groups.map((rewards, i) => nativeRows(`g${i}`, rewards)).join("\n");
    const dataset: LoadedDataset = datasetFromLoad(await loadText("only.jsonl", text));
    const file = runOfFiles([{ path: "only.jsonl", size: text.length, mtimeMs: 0 }]).files[0]!;
    const { run, ...rest } = runDatasetMerge("only.jsonl", [{ file, dataset }]);
    expect(rest).toEqual(dataset);
    expect(rest.summaries.every((s) => s.step === null)).toBe(true);
    expect(run.steps).toBe(0);
  });
});

describe("datasetSteps", () => {
  it("counts distinct non-null steps", () => {
    expect(datasetSteps([{ step: 1 }, { step: 1 }, { step: null }, { step: 3 }])).toBe(2);
    expect(datasetSteps([])).toBe(0);
  });
});
