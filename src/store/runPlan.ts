/**
 * Which run a set of chosen files is (issue 14): files from a folder (the directory picker or a
 * dropped folder, with `webkitRelativePath`s) are gathered by io's `gatherRuns`, files chosen one
 * by one by `runOfFiles`. Pure; the dataset slice calls it before starting the run's load.
 */
import { gatherRuns, runOfFiles, type RunFile } from "../io/runs/runFiles.ts";
import type { RunInput } from "./slices/datasetSlice.ts";

export interface RunPlan {
  /** The run's name: its folder, or "N files". */
  readonly name: string;
  /** The run's files in step order, each with its step. */
  readonly files: readonly { readonly file: File; readonly run: RunFile }[];
  /** Why these files are no run (no data file, several runs); null when they are one. */
  readonly error: string | null;
}

export function runPlan(inputs: readonly RunInput[]): RunPlan {
  const byPath = new Map(inputs.map((i) => [i.path, i.file]));
  const entries = inputs.map((i) => ({
    path: i.path,
    size: i.file.size,
    mtimeMs: i.file.lastModified,
  }));
  const fromFolder = inputs.some((i) => i.path.includes("/"));
  if (!fromFolder) {
    const run = runOfFiles(entries);
    return {
      name: `${inputs.length} files`,
      files: run.files.map((f) => ({ file: byPath.get(f.path)!, run: f })),
      error: null,
    };
  }
  const runs = gatherRuns(entries);
  const top = inputs[0]!.path.split("/")[0]!;
  if (runs.length === 0)
    return {
      name: top,
      files: [],
      error: `${top}: the folder holds no data file (.jsonl, .json, .parquet, .csv, .eval)`,
    };
  if (runs.length > 1)
    return {
      name: top,
      files: [],
      error: `${top}: the folder holds ${runs.length} runs (${runs.map((r) => r.dir).join(", ")}); choose one of them`,
    };
  const run = runs[0]!;
  return {
    name: run.dir,
    files: run.files.map((f) => ({ file: byPath.get(f.path)!, run: f })),
    error: null,
  };
}
