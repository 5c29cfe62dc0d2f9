/**
 * Issue 14's node-side benchmarks: a training run's folder, read by the CLI and served by `view`.
 * One JSON line per metric on stdout, in bench/run.ts's shape; progress on stderr. Every baseline
 * is measured in the same run on the same bytes, the runs interleaved (AB BA ...). Timing never
 * fails the run; the exit code is non-zero only when a check fails (a wrong count, a wrong byte).
 *
 * 1. `runs.analyze.100x20MB`: `rollout-studio analyze DIR` (the built CLI, a whole process) on a
 *    generated verl dump of 100 step files, 2 GB in all (bench/runData.ts: ~1.7 KB rows, groups of
 *    8), against reading the same bytes (`runs.bytesOnly`) and decoding + `JSON.parse` of the same
 *    bytes (`runs.jsonParse`: each file as one `[...]` array). `runs.load.100x20MB` is the load
 *    alone (`loadRunForCli` in this process: read, parse, group, merge; no analysis), the CLI's
 *    "indexing" of the run (issue 14's target: at least 300 MB/s).
 * 2. `view.ranges.1GB`: the first 4 MB and 100 random 64 KB ranges (seeded) of a 1 GB JSONL file
 *    (50 of the run's step files end to end) through `view`'s server (viewServerStart, in this
 *    process, over HTTP on loopback), against `FileHandle.read` of the same ranges; every range's
 *    bytes are checked equal.
 * 3. `watch.appendToLine`: `analyze DIR --watch` (watchRun in this process, its 500 ms poll) on a
 *    10-step dump of 2 MB files: from a line appended to the last step file to the step line that
 *    counts it, median and p95 over 30 appends; the baseline is the poll interval.
 *
 * 1b. `runs.index.100x20MB`: the same run as the studio's load worker reads it (`runLoadRun`: a run
 *    of 32 MB or more indexed file by file), on Node's file-backed Blobs, against streaming the
 *    same Blobs (bytes only); issue 14's target for "indexing a 100-file run of 2 GB".
 *
 * 1c. `runs.health.100x20MB` (issue 19): `rollout-studio health`'s read of the same run (streamed
 *    file by file into core's RunHealthTally) against `loadRunForCli` of it, interleaved; issue 19's
 *    target: at most 1.5 times the indexing (runHealthMetrics.ts).
 *
 * `--quick` runs each timed subject once (the full run: 3; `analyze` once either way, or
 * BENCH_ANALYZE_RUNS times); `--only=runs|index|health|ranges|watch` runs one part. Generated data lives in
 * bench/.data.
 *
 * The parts are in runLoadMetrics.ts (1, 1b), runHealthMetrics.ts (1c), viewRanges.ts (2) and watchLatency.ts (3), over
 * runsHarness.ts's timing and output.
 */
import { buildCli } from "../scripts/buildCli.ts";
import { runHealthBench } from "./runHealthMetrics.ts";
import { runBenches, runIndexBench } from "./runLoadMetrics.ts";
import { checksFailed } from "./runsHarness.ts";
import { rangeBench } from "./viewRanges.ts";
import { watchBench } from "./watchLatency.ts";

const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
if (only === undefined || only === "runs") {
  console.error("runs: building dist-cli (npm run build:cli)");
  await buildCli();
  await runBenches();
}
if (only === undefined || only === "index") await runIndexBench();
if (only === undefined || only === "health") await runHealthBench();
if (only === undefined || only === "ranges") await rangeBench();
if (only === undefined || only === "watch") await watchBench();
if (checksFailed()) process.exitCode = 1;
