/**
 * `runs.health.100x20MB` (issue 19): `rollout-studio health` of the 100-file, 2 GB verl run
 * (bench/runData.ts) in this process, through the command's own read (src/cli/healthRead.ts
 * `readRunHealth`: the run streamed file by file into core's RunHealthTally, then the detectors),
 * against the CLI's indexing of the same run (`loadRunForCli`, as `runs.load.100x20MB`), the runs
 * interleaved. Issue 19's target: health at most 1.5 times the indexing.
 */
import { loadavg } from "node:os";

import { loadRunForCli } from "../src/cli/loadForCli.ts";
import { readRunHealth } from "../src/cli/healthRead.ts";
import {
  ANALYSIS_DEFAULTS,
  HEALTH_DEFAULTS,
  healthAlerts,
  healthDetectors,
} from "../src/core/index.ts";
import { verlRunFolder } from "./runData.ts";
import { check, emit, interleaved, MB, mbps, median, round, RUNS } from "./runsHarness.ts";

/** loadForCli's index threshold (32 MiB): the run's 20 MB files are read whole, as the CLI does. */
const THRESHOLD = 32 << 20;

export async function runHealthBench(): Promise<void> {
  console.error("health: generating or reusing the 100-file 2 GB verl run in bench/.data");
  const run = verlRunFolder(100, 2e9, 400);
  let alerts = 0;
  let clustered = 0;
  const health = async (): Promise<void> => {
    const read = await readRunHealth(process.cwd(), [run.dir], {
      format: undefined,
      mapping: undefined,
      settings: ANALYSIS_DEFAULTS,
      health: HEALTH_DEFAULTS,
      annotations: null,
      threshold: THRESHOLD,
      stderr: (t) => process.stderr.write(t),
    });
    alerts = healthAlerts(healthDetectors(read.health, HEALTH_DEFAULTS)).length;
    const steps = read.health.steps;
    const rollouts = steps.reduce((s, x) => s + x.rollouts, 0);
    const groups = steps.reduce((s, x) => s + x.groups, 0);
    clustered = steps.reduce((s, x) => s + x.clusteredGroups, 0);
    check(
      read.streamed && steps.length === run.files && rollouts === run.rows && groups === run.groups,
      `health read ${steps.length} steps, ${rollouts} rollouts in ${groups} groups (streamed: ${read.streamed}), expected ${run.files}, ${run.rows} in ${run.groups}`,
    );
    check(read.issues.length === 0, `health gave ${read.issues.length} issues`);
  };
  const load = async (): Promise<void> => {
    const loaded = await loadRunForCli(process.cwd(), [run.dir], undefined, undefined, THRESHOLD);
    check(
      loaded.stats.rollouts === run.rows && loaded.groups.length === run.groups,
      `load gave ${loaded.stats.rollouts} rollouts in ${loaded.groups.length} groups, expected ${run.rows} in ${run.groups}`,
    );
  };
  console.error("  timing health and the CLI's load of the same run (interleaved)");
  const [healthMs, loadMs] = await interleaved([health, load], RUNS);
  const h = median(healthMs!);
  const l = median(loadMs!);
  emit(
    "runs.health.100x20MB",
    h,
    l,
    run.fingerprint,
    `readRunHealth (rollout-studio health's read: file by file, ${clustered} groups clustered, ${alerts} alerts) ${mbps(run.bytes, h)} against loadRunForCli of the same run ${mbps(run.bytes, l)} (issue 19 target: ratio at most 1.5); load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
    {
      values: healthMs!.map(Math.round),
      baselineValues: loadMs!.map(Math.round),
      mbPerS: round((run.bytes / MB) * (1000 / h)),
    },
  );
}
