/** Covers: which run the studio makes of chosen files (a folder's, or files one by one). */
import { describe, expect, it } from "vitest";
import { runPlan } from "./runPlan.ts";

const input = (path: string) => ({ file: new File(["x"], path.split("/").pop()!), path });

describe("runPlan", () => {
  it("gathers a folder's files into its run, in step order", () => {
    const plan = runPlan([input("dump/10.jsonl"), input("dump/2.jsonl"), input("dump/notes.txt")]);
    expect(plan.error).toBeNull();
    expect(plan.name).toBe("dump");
    expect(plan.files.map((f) => [f.run.path, f.run.step, f.file.name])).toEqual([
      ["dump/2.jsonl", 2, "2.jsonl"],
      ["dump/10.jsonl", 10, "10.jsonl"],
    ]);
  });

  it("takes files chosen one by one as a run of files", () => {
    const plan = runPlan([input("b.jsonl"), input("a.jsonl")]);
    expect(plan.name).toBe("2 files");
    expect(plan.files.map((f) => [f.run.path, f.run.step])).toEqual([
      ["b.jsonl", 0],
      ["a.jsonl", 1],
    ]);
  });

  it("refuses a folder of several runs, and one without data, saying why", () => {
    expect(runPlan([input("top/a/1.jsonl"), input("top/b/1.jsonl")]).error).toBe(
      "top: the folder holds 2 runs (top/a, top/b); choose one of them",
    );
    expect(runPlan([input("top/readme.md"), input("top/x.txt")]).error).toBe(
      "top: the folder holds no data file (.jsonl, .json, .parquet, .csv, .eval)",
    );
  });
});
