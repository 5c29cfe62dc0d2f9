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
 * `--quick` runs each timed subject once (the full run: 3; `analyze` once either way, or
 * BENCH_ANALYZE_RUNS times); `--only=runs|index|ranges|watch` runs one part. Generated data lives in
 * bench/.data.
 */
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  mkdirSync,
  openAsBlob,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { open } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";

import { loadRunForCli } from "../src/cli/loadForCli.ts";
import { watchRun } from "../src/cli/watch.ts";
import { ANALYSIS_DEFAULTS, randomMulberry32 } from "../src/core/index.ts";
import { catalogRoots } from "../src/server/catalog.ts";
import { viewServerStart } from "../src/server/serve.ts";
import { blobChunks, type LoadedDataset, type RunFile } from "../src/io/index.ts";
import { runLoadRun } from "../src/workers/loadFile.ts";
import { nodeIndexPool, type NodeIndexPool } from "../src/workers/nodeIndexPool.ts";
import { buildCli } from "../scripts/buildCli.ts";
import { fingerprintBytes, generateVerlStepJsonl } from "./generate.ts";
import { DATA_DIR, verlRunFolder } from "./runData.ts";

const BIN = join(import.meta.dirname, "../bin/rollout-studio.mjs");
const QUICK = process.argv.includes("--quick");
const RUNS = QUICK ? 1 : 3;
const ANALYZE_RUNS = Number(process.env.BENCH_ANALYZE_RUNS ?? 1);
/** `--pool-only`: time the run index with the pool alone (not also in one thread). */
const ONLY_POOL = process.argv.includes("--pool-only");
const MB = 1e6;
let failed = false;

function check(ok: boolean, message: string): void {
  if (ok) return;
  failed = true;
  console.error(`CHECK FAILED: ${message}`);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

const round = (x: number): number => Number(x.toPrecision(4));

function emit(
  metric: string,
  value: number,
  baseline: number,
  data: string,
  note: string,
  extra: Record<string, unknown> = {},
  unit = "ms",
): void {
  const line = {
    metric,
    value: round(value),
    baseline: round(baseline),
    ratio: round(value / baseline),
    unit,
    runs: RUNS,
    reps: [1, 1],
    data,
    note,
    ...extra,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  console.error(`  ${metric}: ${line.value} ${unit} vs ${line.baseline}, ratio ${line.ratio}`);
}

/** Interleaved timing (AB BA ...) of async subjects; each entry's runs in ms. */
async function interleaved(
  subjects: readonly (() => Promise<void> | void)[],
  runs: number,
  /** Untimed set-up before subject `i`'s every run. */
  prepare?: (i: number) => Promise<void>,
): Promise<number[][]> {
  const times = subjects.map((): number[] => []);
  for (let r = 0; r < runs; r++) {
    const order = subjects.map((_, i) => i);
    if (r % 2 === 1) order.reverse();
    for (const i of order) {
      await prepare?.(i);
      const start = performance.now();
      await subjects[i]!();
      times[i]!.push(performance.now() - start);
    }
  }
  return times;
}

const mbps = (bytes: number, ms: number): string =>
  `${((bytes / MB) * (1000 / ms)).toFixed(0)} MB/s`;

// ---------------------------------------------------------------------------------------------
// 1. The 100-file run: analyze, load, and the two baselines.

async function runBenches(): Promise<void> {
  console.error("runs: generating or reusing the 100-file 2 GB verl run in bench/.data");
  const run = verlRunFolder(100, 2e9, 400);
  const files = Array.from({ length: run.files }, (_, i) => join(run.dir, `${i + 1}.jsonl`));
  console.error(
    `  ${run.dir}: ${run.files} files, ${(run.bytes / MB).toFixed(0)} MB, ${run.rows} rows in ${run.groups} groups`,
  );

  const bytesOnly = (): void => {
    let n = 0;
    for (const f of files) n += readFileSync(f).length;
    check(n === run.bytes, `bytes-only read ${n} bytes, expected ${run.bytes}`);
  };
  const jsonParse = (): void => {
    let rows = 0;
    const decoder = new TextDecoder();
    for (const f of files) {
      const text = decoder.decode(readFileSync(f));
      const array = JSON.parse(`[${text.slice(0, -1).replaceAll("\n", ",")}]`) as unknown[];
      rows += array.length;
    }
    check(rows === run.rows, `JSON.parse gave ${rows} rows, expected ${run.rows}`);
  };
  const load = async (): Promise<void> => {
    const loaded = await loadRunForCli(process.cwd(), [run.dir], undefined, undefined, 32 << 20);
    check(
      loaded.stats.rollouts === run.rows && loaded.groups.length === run.groups,
      `load gave ${loaded.stats.rollouts} rollouts in ${loaded.groups.length} groups, expected ${run.rows} in ${run.groups}`,
    );
    check(loaded.issues.length === 0, `load gave ${loaded.issues.length} issues`);
  };
  const analyze = (): void => {
    const r = spawnSync(process.execPath, [BIN, "analyze", run.dir], {
      encoding: "utf8",
      env: { ...process.env, ROLLOUT_STUDIO_FROM_SOURCE: "" },
      maxBuffer: 64 << 20,
    });
    check(
      r.status === 0 && r.stdout.includes(`${run.rows} rollouts in ${run.groups} groups`),
      `analyze exited ${r.status}: ${r.stderr.slice(0, 500)} ${r.stdout.slice(0, 300)}`,
    );
  };

  // Warm: the page cache, and this process's code for the load.
  bytesOnly();
  await loadRunForCli(process.cwd(), [join(run.dir, "1.jsonl")], undefined, undefined, 32 << 20);
  console.error("  timing load, bytes-only and JSON.parse (interleaved)");
  const [loadMs, bytesMs, parseMs] = await interleaved([load, bytesOnly, jsonParse], RUNS);
  console.error("  timing analyze (a whole process per run)");
  // One whole process per run, 4-5 minutes on this VM: once unless BENCH_ANALYZE_RUNS says more.
  const [analyzeMs] = await interleaved([analyze], ANALYZE_RUNS);
  const b = median(bytesMs!);
  const p = median(parseMs!);
  const l = median(loadMs!);
  const a = median(analyzeMs!);
  const shape = `${run.files} verl step files, ${(run.bytes / MB).toFixed(0)} MB, ${run.rows} rows (~1.7 KB) in ${run.groups} groups of 8`;
  const per = (xs: readonly number[]) => xs.map((x) => Math.round(x));
  emit(
    "runs.analyze.100x20MB",
    a,
    p,
    run.fingerprint,
    `rollout-studio analyze DIR, a whole process: ${mbps(run.bytes, a)}; baseline decode + JSON.parse of the same bytes ${mbps(run.bytes, p)}; ${shape}`,
    {
      runs: ANALYZE_RUNS,
      values: per(analyzeMs!),
      baselineValues: per(parseMs!),
      bytesOnlyMs: Math.round(b),
    },
  );
  emit(
    "runs.load.100x20MB",
    l,
    p,
    run.fingerprint,
    `loadRunForCli (read, parse, group, merge; no analysis) ${mbps(run.bytes, l)} (issue 14 target: at least 300 MB/s); baseline decode + JSON.parse ${mbps(run.bytes, p)}`,
    {
      values: per(loadMs!),
      baselineValues: per(parseMs!),
      mbPerS: round((run.bytes / MB) * (1000 / l)),
    },
  );
  emit(
    "runs.load.100x20MB.vsBytesOnly",
    l,
    b,
    run.fingerprint,
    `the same load against readFileSync of every file (page cache): ${mbps(run.bytes, b)}`,
    { values: per(loadMs!), baselineValues: per(bytesMs!) },
  );
}

// ---------------------------------------------------------------------------------------------
// 1b. The same run as the studio's worker indexes it (runLoadRun, a run of 32 MB or more indexed
// file by file), on Node's file-backed Blobs: the issue 14 target is at least 300 MB/s.

async function runIndexBench(): Promise<void> {
  const run = verlRunFolder(100, 2e9, 400);
  const paths = new Map<unknown, string>();
  const files = await Promise.all(
    Array.from({ length: run.files }, async (_, i) => {
      const path = join(run.dir, `${i + 1}.jsonl`);
      const file = new File([await openAsBlob(path)], `${i + 1}.jsonl`);
      paths.set(file, path);
      const entry: RunFile = {
        path: `${i + 1}.jsonl`,
        size: file.size,
        mtimeMs: 0,
        step: i + 1,
        stepSource: "verl-name",
      };
      return { file, run: entry };
    }),
  );
  // A new pool for every run, so no run finds prompts hashed by the one before (each thread keeps
  // a prompt-hash cache), its threads started and their modules loaded before timing (in Node they
  // load TypeScript through tsx, 0.4 s or more; a browser's nested workers start in about 50-90 ms).
  let pool: NodeIndexPool | null = null;
  const freshPool = async (): Promise<void> => {
    pool?.close();
    pool = nodeIndexPool({ pathOf: (file) => paths.get(file) });
    await pool.ready;
  };
  const load = async (threads: boolean): Promise<void> => {
    let dataset: LoadedDataset | null = null;
    const state = await runLoadRun(
      { kind: "load-run", requestId: 1, name: "run", files },
      (reply) => {
        if (reply.kind === "done") dataset = reply.dataset;
      },
      () => false,
      () => (threads ? pool : null),
    );
    const d = dataset as LoadedDataset | null;
    check(
      state !== null &&
        d !== null &&
        d.stats.rollouts === run.rows &&
        d.summaries.length === run.groups,
      `the worker's run index gave ${d?.stats.rollouts} rollouts in ${d?.summaries.length} groups, expected ${run.rows} in ${run.groups}`,
    );
  };
  const bytesOnly = async (): Promise<void> => {
    let n = 0;
    for (const { file } of files)
      for await (const chunk of blobChunks(file, () => false)) n += chunk.byteLength;
    check(n === run.bytes, `bytes-only read ${n} bytes, expected ${run.bytes}`);
  };
  await bytesOnly();
  const subjects = [() => load(true), bytesOnly];
  if (!ONLY_POOL) subjects.push(() => load(false));
  console.error(
    `  timing the worker's run index (index threads, a new pool per run${ONLY_POOL ? "" : ", and in one thread"}) and a bytes-only read of the same Blobs (interleaved)`,
  );
  const [indexMs, bytesMs, oneThreadMs] = await interleaved(subjects, RUNS, (i) =>
    i === 0 ? freshPool() : Promise.resolve(),
  );
  const size = (pool as NodeIndexPool | null)?.size ?? 0;
  (pool as NodeIndexPool | null)?.close();
  const b = median(bytesMs!);
  const series: [string, number[], string][] = [
    ["runs.index.100x20MB", indexMs!, `${size} index threads`],
  ];
  if (oneThreadMs !== undefined)
    series.push(["runs.index.100x20MB.oneThread", oneThreadMs, "in the load worker's thread"]);
  for (const [metric, values, how] of series) {
    const i = median(values);
    emit(
      metric,
      i,
      b,
      run.fingerprint,
      `the studio worker's runLoadRun of the run, indexed file by file (${how}): ${mbps(run.bytes, i)} (issue 14 target: at least 300 MB/s); baseline: streaming the same Blobs, bytes only, ${mbps(run.bytes, b)}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
      {
        values: values.map(Math.round),
        baselineValues: bytesMs!.map(Math.round),
        mbPerS: round((run.bytes / MB) * (1000 / i)),
        threads: metric === "runs.index.100x20MB" ? size : 1,
      },
    );
  }
}

// ---------------------------------------------------------------------------------------------
// 2. view's range reads of a 1 GB file.

const RANGE_COUNT = 100;
const RANGE_BYTES = 64 << 10;
const HEAD_BYTES = 4 << 20;

function oneGbFile(): { path: string; size: number; fingerprint: string } {
  const run = verlRunFolder(100, 2e9, 400);
  const dir = join(DATA_DIR, "view-1GB");
  const path = join(dir, "run.jsonl");
  const manifest = join(dir, "manifest.json");
  try {
    const m = JSON.parse(readFileSync(manifest, "utf8")) as { source: string; size: number };
    if (m.source === run.fingerprint && statSync(path).size === m.size)
      return { path, size: m.size, fingerprint: run.fingerprint };
  } catch {
    // not there yet
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let size = 0;
  for (let step = 1; step <= 50; step++) {
    const bytes = readFileSync(join(run.dir, `${step}.jsonl`));
    appendFileSync(path, bytes);
    size += bytes.length;
  }
  writeFileSync(manifest, JSON.stringify({ source: run.fingerprint, size }));
  return { path, size, fingerprint: run.fingerprint };
}

async function rangeBench(): Promise<void> {
  console.error("view: a 1 GB JSONL (50 step files of the run end to end)");
  const file = oneGbFile();
  const rng = randomMulberry32(500);
  const ranges: [number, number][] = [[0, HEAD_BYTES]];
  for (let i = 0; i < RANGE_COUNT; i++) {
    const start = Math.floor(rng() * (file.size - RANGE_BYTES));
    ranges.push([start, start + RANGE_BYTES]);
  }
  const total = ranges.reduce((s, [a, b]) => s + (b - a), 0);
  const roots = await catalogRoots([file.path], DATA_DIR);
  const stateDir = join(DATA_DIR, "view-1GB", ".rollout-studio");
  const token = "bench-token";
  const server = await viewServerStart({
    roots,
    studio: { dir: DATA_DIR, files: new Map(), csp: "default-src 'none'" },
    stateDir,
    host: "127.0.0.1",
    port: 0,
    token,
    version: "bench",
    format: null,
    warn: (m) => console.error(`  view: ${m}`),
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const headers = { authorization: `Bearer ${token}` };
  try {
    const listing = (await (await fetch(`${origin}/api/runs`, { headers })).json()) as {
      runs: { files: { id: string; size: number }[] }[];
    };
    const id = listing.runs[0]!.files[0]!.id;
    const handle = await open(file.path, "r");
    const fsBytes: Uint8Array[] = [];
    const httpBytes: Uint8Array[] = [];
    const viaFs = async (): Promise<void> => {
      fsBytes.length = 0;
      for (const [a, b] of ranges) {
        const buffer = new Uint8Array(b - a);
        const { bytesRead } = await handle.read(buffer, 0, b - a, a);
        fsBytes.push(buffer.subarray(0, bytesRead));
      }
    };
    const viaHttp = async (): Promise<void> => {
      httpBytes.length = 0;
      for (const [a, b] of ranges) {
        const response = await fetch(`${origin}/api/files/${id}`, {
          headers: { ...headers, range: `bytes=${a}-${b - 1}` },
        });
        check(response.status === 206, `range ${a}-${b - 1}: status ${response.status}`);
        httpBytes.push(new Uint8Array(await response.arrayBuffer()));
      }
    };
    await viaFs();
    await viaHttp();
    const runs = QUICK ? 5 : 15;
    const [httpMs, fsMs] = await interleaved([viaHttp, viaFs], runs);
    await handle.close();
    check(
      httpBytes.length === fsBytes.length &&
        httpBytes.every((h, i) => fingerprintBytes(h) === fingerprintBytes(fsBytes[i]!)),
      "view's range bytes differ from the file's",
    );
    const h = median(httpMs!);
    const f = median(fsMs!);
    emit(
      "view.ranges.1GB",
      h,
      f,
      file.fingerprint,
      `view (in process, HTTP on loopback, one request at a time): the first 4 MB + ${RANGE_COUNT} random 64 KB ranges of a ${(file.size / MB).toFixed(0)} MB file, ${(total / MB).toFixed(1)} MB, ${mbps(total, h)}; baseline FileHandle.read of the same ranges ${mbps(total, f)}`,
      { runs, values: httpMs!.map(round), baselineValues: fsMs!.map(round) },
    );
  } finally {
    await server.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 3. analyze --watch: from an appended line to its step line.

const WATCH_INTERVAL_MS = 500;
const APPENDS = 30;

async function watchBench(): Promise<void> {
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

const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
if (only === undefined || only === "runs") {
  console.error("runs: building dist-cli (npm run build:cli)");
  await buildCli();
  await runBenches();
}
if (only === undefined || only === "index") await runIndexBench();
if (only === undefined || only === "ranges") await rangeBench();
if (only === undefined || only === "watch") await watchBench();
if (failed) process.exitCode = 1;
