import { fc, test as prop } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { gatherRuns, isRunDataPath, runOfFiles, stepFromFileName } from "./runFiles.ts";

const entry = (path: string, size = 10) => ({ path, size, mtimeMs: 0 });

describe("stepFromFileName", () => {
  it("reads TRL's, verl's and step-named files", () => {
    expect(stepFromFileName("completions/completions_00010.parquet")).toEqual({
      step: 10,
      source: "trl-name",
    });
    expect(stepFromFileName("rollout_data_dir/40.jsonl")).toEqual({
      step: 40,
      source: "verl-name",
    });
    expect(stepFromFileName("step_12.jsonl")).toEqual({ step: 12, source: "step-name" });
    expect(stepFromFileName("run-a/rollouts-global_step7.jsonl")).toEqual({
      step: 7,
      source: "step-name",
    });
  });

  it("finds no step in other names", () => {
    expect(stepFromFileName("results.json")).toBeNull();
    expect(stepFromFileName("2026-11-30T10-00-00_ctf.eval")).toBeNull();
    expect(stepFromFileName("steps.jsonl")).toBeNull();
    expect(stepFromFileName("mystep.jsonl")).toBeNull();
  });
});

describe("gatherRuns", () => {
  it("gathers a TRL completions folder in step order", () => {
    const runs = gatherRuns([
      entry("completions/completions_00020.parquet"),
      entry("completions/completions_00100.parquet"),
      entry("completions/completions_00010.parquet"),
      entry("trainer_state.json.tmp"),
    ]);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.kind).toBe("trl-completions");
    expect(runs[0]!.files.map((f) => [f.path, f.step])).toEqual([
      ["completions/completions_00010.parquet", 10],
      ["completions/completions_00020.parquet", 20],
      ["completions/completions_00100.parquet", 100],
    ]);
  });

  it("gives a verl dump its steps and other folders their file order", () => {
    const runs = gatherRuns([
      entry("verl/10.jsonl"),
      entry("verl/2.jsonl"),
      entry("logs/b.eval"),
      entry("logs/a.eval"),
      entry("mixed/step_3.jsonl"),
      entry("mixed/notes.jsonl"),
    ]);
    expect(runs.map((r) => [r.dir, r.kind])).toEqual([
      ["logs", "inspect-logs"],
      ["mixed", "files"],
      ["verl", "verl-steps"],
    ]);
    expect(runs[0]!.files.map((f) => [f.path, f.step, f.stepSource])).toEqual([
      ["logs/a.eval", 0, "file-order"],
      ["logs/b.eval", 1, "file-order"],
    ]);
    // One numbering per run: a name without a step puts the whole folder in file order.
    expect(runs[1]!.files.map((f) => f.stepSource)).toEqual(["file-order", "file-order"]);
    expect(runs[2]!.files.map((f) => f.step)).toEqual([2, 10]);
  });

  it("skips hidden, state and dependency folders and non-data files", () => {
    expect(isRunDataPath(".rollout-studio/annotations.json")).toBe(false);
    expect(isRunDataPath("a/.git/x.json")).toBe(false);
    expect(isRunDataPath("node_modules/p/package.json")).toBe(false);
    expect(isRunDataPath("a/.hidden.jsonl")).toBe(false);
    expect(isRunDataPath("a/readme.md")).toBe(false);
    expect(isRunDataPath("a/b/c.JSONL")).toBe(true);
    expect(gatherRuns([entry(".rollout-studio/annotations.json")])).toEqual([]);
  });

  prop.prop([fc.uniqueArray(fc.integer({ min: 0, max: 99999 }), { minLength: 1, maxLength: 30 })])(
    "a step-named folder lists every file once, steps ascending",
    (steps) => {
      const runs = gatherRuns(
        steps.map((s) => entry(`c/completions_${String(s).padStart(5, "0")}.parquet`)),
      );
      expect(runs).toHaveLength(1);
      const got = runs[0]!.files.map((f) => f.step);
      expect(got).toEqual([...steps].sort((a, b) => a - b));
    },
  );
});

describe("runOfFiles", () => {
  it("keeps the given order without step names, sorts by step with them", () => {
    expect(
      runOfFiles([entry("b.jsonl"), entry("a.jsonl")]).files.map((f) => [f.path, f.step]),
    ).toEqual([
      ["b.jsonl", 0],
      ["a.jsonl", 1],
    ]);
    expect(runOfFiles([entry("20.jsonl"), entry("3.jsonl")]).files.map((f) => f.step)).toEqual([
      3, 20,
    ]);
  });
});
