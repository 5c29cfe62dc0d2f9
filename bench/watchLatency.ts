/**
 * `analyze DIR --watch` (3): from a line appended to the last of 10 step files to the step line that
 * counts it, against the 500 ms poll.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { watchRun } from "../src/cli/watch.ts";
import { ANALYSIS_DEFAULTS, randomMulberry32 } from "../src/core/index.ts";
import { fingerprintBytes, generateVerlStepJsonl } from "./generate.ts";
import { DATA_DIR } from "./runData.ts";
import { check, emit, median, quantile, round } from "./runsHarness.ts";

const WATCH_INTERVAL_MS = 500;
const APPENDS = 30;

export async function watchBench(): Promise<void> {
  const dir = join(DATA_DIR, "watch-run");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const steps = 10;
  let lastRows = 0;
  for (let step = 1; step <= steps; step++) {
    const file = generateVerlStepJsonl({ step, targetBytes: 2e6, seed: 401 });
    writeFileSync(join(dir, `${step}.jsonl`), file.bytes);
    if (step === steps) lastRows = file.rows;
  }
  const target = join(dir, `${steps}.jsonl`);
  console.error(`watch: ${steps} step files of 2 MB in ${dir}; ${APPENDS} appends to the last`);
  const controller = new AbortController();
  let waiting: { rollouts: number; resolve: (at: number) => void } | null = null;
  let seen = "";
  const watching = watchRun({
    dir,
    format: undefined,
    settings: ANALYSIS_DEFAULTS,
    intervalMs: WATCH_INTERVAL_MS,
    signal: controller.signal,
    stdout: (text) => {
      const at = performance.now();
      seen += text;
      const m = new RegExp(`^step ${steps}: \\d+ groups, (\\d+) rollouts`, "m").exec(text);
      if (m !== null && waiting !== null && Number(m[1]) >= waiting.rollouts) {
        const w = waiting;
        waiting = null;
        w.resolve(at);
      }
    },
    stderr: (text) => console.error(`  watch: ${text.trimEnd()}`),
  });
  const until = (rollouts: number): Promise<number> =>
    new Promise((resolve) => (waiting = { rollouts, resolve }));
  // The first report of every step.
  await until(lastRows);
  const latencies: number[] = [];
  const rng = randomMulberry32(402);
  for (let i = 0; i < APPENDS; i++) {
    // Appends land anywhere in the poll's cycle.
    await new Promise((r) => setTimeout(r, rng() * WATCH_INTERVAL_MS));
    const line = `${JSON.stringify({ input: `appended ${i}`, output: `out ${i}`, gts: "1", score: i % 2, step: steps })}\n`;
    const done = until(lastRows + i + 1);
    const start = performance.now();
    appendFileSync(target, line);
    const at = await Promise.race([
      done,
      new Promise<number>((r) => setTimeout(() => r(NaN), 20_000)),
    ]);
    check(!Number.isNaN(at), `append ${i}: no step line within 20 s`);
    latencies.push(at - start);
  }
  controller.abort();
  await watching;
  check(seen.includes(`step 1: `), "watch printed no line for step 1");
  const med = median(latencies);
  const p95 = quantile(latencies, 0.95);
  emit(
    "watch.appendToLine",
    p95,
    WATCH_INTERVAL_MS,
    fingerprintBytes(readFileSync(target)),
    `analyze DIR --watch (in process): appended line to its step line over ${APPENDS} appends, median ${med.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, against the ${WATCH_INTERVAL_MS} ms poll (value: p95); the step file is 2 MB`,
    { median: round(med), p95: round(p95), max: round(Math.max(...latencies)), runs: APPENDS },
  );
}
