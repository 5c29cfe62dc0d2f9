/**
 * The 100-file, 2 GB verl run (bench/runData.ts): `analyze` as a whole process, `loadRunForCli` and
 * their two baselines (1), and the same run as the studio's load worker indexes it file by file,
 * on Node's file-backed Blobs (1b). Issue 14's target for both loads: at least 300 MB/s.
 */
import { spawnSync } from "node:child_process";
import { openAsBlob, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";

import { loadRunForCli } from "../src/cli/loadForCli.ts";
import { blobChunks, type LoadedDataset, type RunFile } from "../src/io/index.ts";
import { runLoadRun } from "../src/workers/loadFile.ts";
import { nodeIndexPool, type NodeIndexPool } from "../src/workers/nodeIndexPool.ts";
import { verlRunFolder } from "./runData.ts";
import { check, emit, interleaved, MB, mbps, median, round, RUNS } from "./runsHarness.ts";

const BIN = join(import.meta.dirname, "../bin/rollout-studio.mjs");

const ANALYZE_RUNS = Number(process.env.BENCH_ANALYZE_RUNS ?? 1);
/** `--pool-only`: time the run index with the pool alone (not also in one thread). */
const ONLY_POOL = process.argv.includes("--pool-only");

export async function runBenches(): Promise<void> {
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

export async function runIndexBench(): Promise<void> {
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
