/**
 * The CLI's view of a file, for specs that check the studio shows the same numbers: runs
 * `rollout-studio analyze --json` in-process (src/cli/main.ts) and returns its groups.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDemo } from "../../scripts/generate-demo.ts";
import { main } from "../../src/cli/main.ts";

/** One rollout of `analyze --json` (src/cli/json.ts). */
export interface CliRollout {
  readonly id: string;
  readonly reward: number;
  readonly passed: boolean;
  readonly advantage: number;
  readonly trainerAdvantage?: number;
  readonly rank: number;
  /** The place, 1 = best (ties share their mean place). */
  readonly place: number;
  readonly winRate: number;
  readonly cluster: number;
  readonly clusterSize: number;
  readonly hack?: boolean;
  readonly garReward?: number;
  readonly garAdvantage?: number;
  readonly factor?: number;
}

export interface CliGroup {
  readonly id: string;
  readonly mixed: boolean;
  readonly zeroStd: boolean;
  readonly passes: number;
  readonly clusters: number;
  readonly gar: string;
  readonly rollouts: readonly CliRollout[];
}

/** `rollout-studio analyze PATH --json FLAGS...`'s groups. */
export async function cliAnalyze(path: string, ...flags: string[]): Promise<CliGroup[]> {
  let out = "";
  await main(["analyze", path, "--json", ...flags], {
    stdout: (t) => (out += t),
    stderr: () => undefined,
    cwd: process.cwd(),
  });
  return (JSON.parse(out) as { groups: CliGroup[] }).groups;
}

/** The demo dataset, generated as the build generates it, written to a new temporary folder. */
export function writeDemo(prefix: string): string {
  const path = join(mkdtempSync(join(tmpdir(), prefix)), "support-groups.jsonl");
  writeFileSync(path, generateDemo());
  return path;
}
