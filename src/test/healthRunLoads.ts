/**
 * A generated run (scripts/healthRun.ts) two ways, for the tests that check the studio's numbers
 * against core's: as the files a user picks (Node Files with their paths in a folder, which the
 * store opens as one run), and as core reads it with no studio in between (each file parsed by
 * io, its groups tallied with the file's step), the way the CLI streams a run.
 */
import { File as NodeFile } from "node:buffer";
import { RunHealthTally, type AnalysisSettings, type GroupHealth } from "../core/index.ts";
import { datasetFromLoad } from "../io/dataset.ts";
import { loadText } from "../io/formats/load.ts";
import type { HealthRun } from "../../scripts/healthRun.ts";

/** The run's files as a folder `dir` picked in the page: each with its path under the folder. */
export function healthRunInputs(run: HealthRun, dir: string): { file: File; path: string }[] {
  // Node's File: jsdom's has no stream() for the loaders to read.
  return run.files.map((f) => ({
    file: new NodeFile([f.text], f.name) as unknown as File,
    path: `${dir}/${f.name}`,
  }));
}

/**
 * Every group's health as core computes it from the files: each file parsed alone, its groups
 * tallied with its step (the file's name), every group's diversity clusters counted.
 */
export async function healthRunCoreGroups(
  run: HealthRun,
  settings: AnalysisSettings,
): Promise<readonly GroupHealth[]> {
  const tally = new RunHealthTally(settings, { clusterSample: 0 });
  for (const f of run.files) {
    const dataset = datasetFromLoad(await loadText(f.name, f.text));
    const step = Number(f.name.replace(/\.jsonl$/, ""));
    tally.addBatch(dataset.groups.map((group) => ({ group, step })));
  }
  return tally.groups();
}
