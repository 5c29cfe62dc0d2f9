/**
 * Issue 13 (finding 12): how fast the `rollout-studio` command starts. It builds the CLI first
 * (scripts/buildCli.ts, as `npm run build:cli`), then times whole processes, as a user's shell
 * does: `rollout-studio --help`, and `analyze` of a small file (the demo's first three groups,
 * 17 rollouts), each against `node -e 0` measured in the same run, runs interleaved (AB BA ...).
 * One JSON line per metric on stdout, in bench/run.ts's shape; progress on stderr. The target is
 * `cli.help` at most 3x `node -e 0`; it is printed, never a failing check. The exit code is
 * non-zero only when a command fails or prints the wrong thing.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { buildCli } from "../scripts/buildCli.ts";
import { generateDemo } from "../scripts/generate-demo.ts";
import { fingerprint } from "./generate.ts";

const BIN = join(import.meta.dirname, "../bin/rollout-studio.mjs");
const RUNS = 21;
let failed = false;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

/** Wall-clock ms of one process run; checks its exit code and output. */
function timed(args: readonly string[], expect: (stdout: string) => boolean): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, {
    encoding: "utf8",
    env: { ...process.env, ROLLOUT_STUDIO_FROM_SOURCE: "" },
  });
  const ms = performance.now() - start;
  if (r.status !== 0 || !expect(r.stdout)) {
    failed = true;
    console.error(`CHECK FAILED: node ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  }
  return ms;
}

function bench(
  metric: string,
  args: readonly string[],
  expect: (out: string) => boolean,
  data: string,
  note: string,
): void {
  const baselineArgs = ["-e", "0"];
  timed(args, expect);
  timed(baselineArgs, () => true);
  const s: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    if (r % 2 === 0) {
      s.push(timed(args, expect));
      b.push(timed(baselineArgs, () => true));
    } else {
      b.push(timed(baselineArgs, () => true));
      s.push(timed(args, expect));
    }
  }
  const round = (x: number) => Number(x.toPrecision(4));
  const value = median(s);
  const baseline = median(b);
  const line = {
    metric,
    value: round(value),
    baseline: round(baseline),
    ratio: round(value / baseline),
    unit: "ms",
    runs: RUNS,
    reps: [1, 1],
    data,
    note,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  console.error(
    `  ${metric}: ${line.value} ms vs node -e 0 ${line.baseline} ms, ratio ${line.ratio}`,
  );
}

console.error("cli: building dist-cli (npm run build:cli)");
await buildCli();
const demo = generateDemo();
const rows = demo.split("\n").filter((line) => line !== "");
const firstGroups = [
  ...new Set(rows.map((line) => (JSON.parse(line) as { group_id: string }).group_id)),
].slice(0, 3);
const smallRows = rows.filter((line) =>
  firstGroups.includes((JSON.parse(line) as { group_id: string }).group_id),
);
const small = `${smallRows.join("\n")}\n`;
const file = join(mkdtempSync(join(tmpdir(), "bench-cli-")), "small.jsonl");
writeFileSync(file, small);
bench(
  "cli.help",
  [BIN, "--help"],
  (out) => out.includes("Usage: rollout-studio COMMAND"),
  fingerprint(["--help"]),
  "rollout-studio --help, a whole process, against node -e 0 (target: ratio at most 3)",
);
bench(
  "cli.analyze.small",
  [BIN, "analyze", file],
  (out) => out.includes(`${smallRows.length} rollouts in 3 groups`),
  fingerprint([small]),
  `rollout-studio analyze of the demo's first 3 groups (${smallRows.length} rollouts), a whole process, against node -e 0`,
);
if (failed) process.exitCode = 1;
