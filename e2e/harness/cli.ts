/**
 * The CLI's view of a file, for specs that check the studio shows the same numbers: runs
 * `rollout-studio analyze --json` as users run it (bin/rollout-studio.mjs, the JavaScript the e2e
 * globalSetup built) and returns its groups.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { generateDemo } from "../../scripts/generate-demo.ts";

const BIN = fileURLToPath(new URL("../../bin/rollout-studio.mjs", import.meta.url));

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
  // Exit code 3 (analysed, with problems) still prints the document; anything else throws.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [BIN, "analyze", path, "--json", ...flags],
    { maxBuffer: 256 * 1024 * 1024, env: { ...process.env, ROLLOUT_STUDIO_FROM_SOURCE: "" } },
  ).catch((e: { code?: number; stdout?: string; stderr?: string }) => {
    if (e.code === 3 && e.stdout !== undefined) return { stdout: e.stdout };
    throw new Error(`rollout-studio analyze failed (${e.code}): ${e.stderr ?? ""}`);
  });
  return (JSON.parse(stdout) as { groups: CliGroup[] }).groups;
}

/** The demo dataset, generated as the build generates it, written to a new temporary folder. */
export function writeDemo(prefix: string): string {
  const path = join(mkdtempSync(join(tmpdir(), prefix)), "support-groups.jsonl");
  writeFileSync(path, generateDemo());
  return path;
}
