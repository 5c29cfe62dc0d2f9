/**
 * The benchmark matrix, Node half (issue 16, point 1; `npm run bench:matrix`): for each data shape
 * of bench/shapes.ts and each size, in one process:
 *
 * - `matrix.<shape>.<size>MB.index`: the studio worker's load path as it runs (`runLoad` of
 *   src/workers/loadFile.ts on a file-backed Blob: index, summaries, the first group parsed),
 *   against `JSON.parse` of the same bytes line by line (read in 8 MB chunks, decoded, split);
 *   `.index.vsBytesOnly` against streaming the same Blob, bytes only (`blobChunks`).
 * - `matrix.<shape>.<size>MB.firstGroup`: runLoad's "first-group" reply, against the bytes-only
 *   read of the whole file (a ratio under 1: the first group came before a plain read would end).
 * - `matrix.<shape>.<size>MB.analyze`: `rollout-studio analyze FILE`, the built CLI as a whole
 *   process (wall clock), against the same `JSON.parse`; `maxRssBytes` is the process's peak RSS
 *   (bench/maxRss.mjs, preloaded with `--import`, writes `process.resourceUsage().maxRSS` at exit).
 * - `matrix.<shape>.<size>MB.heap`: heap + ArrayBuffers the finished index holds (what the worker
 *   keeps), measured around a `runLoad` with a full `gc()` before and after, against the file size.
 *
 * Runs are interleaved (index, bytes-only, parse; then reversed); `analyze` runs once per file
 * (`--analyze-runs=N`). One JSON line per metric on stdout, progress on stderr, and at the end the
 * markdown table of both halves on stderr (bench/matrixTable.ts). The exit code is non-zero only when a count is wrong:
 * every load must give the rows and groups written and reject exactly the malformed lines.
 *
 *   npm run bench:matrix                              every shape at 50, 500 and 1000 MB
 *   npm run bench:matrix -- --sizes=50 --shapes=small,agent
 *   npm run bench:matrix -- --runs=3                  timed runs per subject (default: 3 at
 *                                                     100 MB or less, 1 above)
 *   npm run bench:matrix -- --no-analyze              skip the CLI
 *   npm run bench:matrix -- --table                   print the last results' table and stop
 */
import { emitLine, round } from "./emitLine.ts";
import { spawnSync } from "node:child_process";
import { closeSync, openAsBlob, openSync, readFileSync, readSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import v8 from "node:v8";
import vm from "node:vm";

import { blobChunks, type LoadedDataset } from "../src/io/index.ts";
import { runLoad } from "../src/workers/loadFile.ts";
import { buildCli } from "../scripts/buildCli.ts";
import { matrixTable, saveMatrixRows, type NodeMatrixRow } from "./matrixTable.ts";
import { matrixArgs, SHAPE_INFO, shapeFile, type ShapeFile } from "./shapes.ts";

const BIN = join(import.meta.dirname, "../bin/rollout-studio.mjs");
const MAX_RSS_HOOK = join(import.meta.dirname, "maxRss.mjs");
const MB = 1e6;

const arg = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

let failed = false;
function check(ok: boolean, message: string): void {
  if (ok) return;
  failed = true;
  console.error(`CHECK FAILED: ${message}`);
}

const log = (message: string): void => console.error(message);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const mbps = (bytes: number, ms: number): number => Math.round(bytes / MB / (ms / 1000));

const emit = emitLine;

/** A full GC (performance.md's memory metric): `--expose-gc` set at run time, as bench/run.ts does. */
const forceGc: () => void = (() => {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
})();

function heldBytes(): number {
  forceGc();
  forceGc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

async function blobOf(file: ShapeFile): Promise<File> {
  return new File([await openAsBlob(file.path)], file.path.split("/").pop()!);
}

interface IndexRun {
  readonly ms: number;
  readonly firstGroupMs: number;
  /** Rollouts in the first-group reply (fewer than the group's when it was shown before its end). */
  readonly firstGroupRollouts: number;
  readonly firstGroupId: string;
  readonly dataset: LoadedDataset | null;
  readonly state: unknown;
}

/** The studio worker's load of the file (the path `load.worker.ts` runs for a chosen file). */
async function indexOnce(blob: File): Promise<IndexRun> {
  const start = performance.now();
  let firstGroupMs = NaN;
  let firstGroupRollouts = 0;
  let firstGroupId = "";
  let dataset: LoadedDataset | null = null;
  let error = "";
  const state = await runLoad(
    { requestId: 1, file: blob },
    (reply) => {
      if (reply.kind === "first-group" && Number.isNaN(firstGroupMs)) {
        firstGroupMs = performance.now() - start;
        firstGroupRollouts = reply.group.rollouts.length;
        firstGroupId = reply.group.id;
      } else if (reply.kind === "done") dataset = reply.dataset;
      else if (reply.kind === "error") error = reply.message;
    },
    () => false,
  );
  const ms = performance.now() - start;
  if (error !== "") log(`  runLoad error: ${error}`);
  return { ms, firstGroupMs, firstGroupRollouts, firstGroupId, dataset, state };
}

function checkDataset(file: ShapeFile, d: LoadedDataset | null, what: string): void {
  check(
    d !== null &&
      d.indexed &&
      d.stats.rollouts === file.rows &&
      d.summaries.length === file.groups &&
      d.stats.rejected === file.malformed,
    `${file.shape} ${file.targetBytes / MB} MB ${what}: ${d === null ? "no dataset" : `${d.stats.rollouts} rollouts in ${d.summaries.length} groups, ${d.stats.rejected} rejected (indexed: ${d.indexed})`}; written ${file.rows} rows in ${file.groups} groups, ${file.malformed} malformed`,
  );
}

async function bytesOnly(file: ShapeFile, blob: File): Promise<void> {
  let n = 0;
  for await (const chunk of blobChunks(blob, () => false)) n += chunk.byteLength;
  check(n === file.bytes, `${file.path}: bytes-only read ${n} bytes, expected ${file.bytes}`);
}

const READ_CHUNK = 8 << 20;

/**
 * JSON.parse of every line: the file read in 8 MB chunks, each line decoded on its own (one
 * TextDecoder call per line: a mostly-ASCII line stays a one-byte string, where decoding a whole
 * chunk with any non-ASCII in it makes a two-byte string and costs 3-4 times the parse here).
 * Counts good and bad lines.
 */
function jsonParseLines(file: ShapeFile): void {
  const fd = openSync(file.path, "r");
  const decoder = new TextDecoder();
  /** The start of a line that runs past its chunk (the huge row spans several). */
  let pending: Buffer[] = [];
  let ok = 0;
  let bad = 0;
  const parse = (bytes: Uint8Array): void => {
    try {
      JSON.parse(decoder.decode(bytes));
      ok++;
    } catch {
      bad++;
    }
  };
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(READ_CHUNK);
      const n = readSync(fd, buffer, 0, READ_CHUNK, null);
      if (n === 0) break;
      const chunk = buffer.subarray(0, n);
      let start = 0;
      for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
        if (pending.length > 0) {
          parse(Buffer.concat([...pending, chunk.subarray(0, end)]));
          pending = [];
        } else parse(chunk.subarray(start, end));
        start = end + 1;
      }
      if (start < n) pending.push(chunk.subarray(start));
    }
  } finally {
    closeSync(fd);
  }
  if (pending.length > 0) parse(Buffer.concat(pending));
  check(
    ok === file.rows && bad === file.malformed,
    `${file.path}: JSON.parse gave ${ok} rows and ${bad} bad lines, expected ${file.rows} and ${file.malformed}`,
  );
}

/** `rollout-studio analyze FILE` as a shell runs it; stdout to a file (a line per group). */
function analyzeOnce(file: ShapeFile): { ms: number; maxRssBytes: number } {
  const rssOut = join(tmpdir(), `bench-matrix-rss-${process.pid}`);
  const stdoutPath = join(tmpdir(), `bench-matrix-analyze-${process.pid}.txt`);
  rmSync(rssOut, { force: true });
  const out = openSync(stdoutPath, "w");
  const start = performance.now();
  let r: ReturnType<typeof spawnSync>;
  try {
    r = spawnSync(process.execPath, ["--import", MAX_RSS_HOOK, BIN, "analyze", file.path], {
      stdio: ["ignore", out, "pipe"],
      env: { ...process.env, ROLLOUT_STUDIO_FROM_SOURCE: "", BENCH_MAXRSS_OUT: rssOut },
      maxBuffer: 256 << 20,
      timeout: 30 * 60_000,
    });
  } finally {
    closeSync(out);
  }
  const ms = performance.now() - start;
  const head = readFileSync(stdoutPath, "utf8").slice(0, 4096);
  rmSync(stdoutPath, { force: true });
  let maxRssBytes = NaN;
  try {
    maxRssBytes = Number(readFileSync(rssOut, "utf8")) * 1024;
  } catch {
    // the process did not exit normally: no figure
  }
  rmSync(rssOut, { force: true });
  // analyze exits 3 when records were rejected (the small shape's malformed lines), else 0.
  const status = file.malformed > 0 ? 3 : 0;
  const counts = `${file.rows} rollouts in ${file.groups} groups`;
  const rejected = `${file.malformed} of ${file.lines} records rejected`;
  const ok =
    r.status === status &&
    head.includes(counts) &&
    (file.malformed === 0 || head.includes(rejected));
  check(
    ok,
    `analyze ${file.path}: exit ${r.status}${r.signal === null ? "" : ` (${r.signal})`}, expected ${status} with "${counts}"${file.malformed > 0 ? ` and "${rejected}"` : ""}; stdout ${JSON.stringify(head.slice(0, 300))}; stderr ${String(r.stderr).slice(0, 300)}`,
  );
  return { ms: ok ? ms : NaN, maxRssBytes };
}

/**
 * Heap + ArrayBuffers a finished load holds, in a function of its own: when it returns, its frame
 * and the index go. (Measured in the caller's loop, a suspended async function's frame kept the
 * previous index in a register: "before" counted it, and every measurement after the first was ~0.)
 */
async function heapOfIndex(file: ShapeFile, blob: File): Promise<number> {
  const before = heldBytes();
  const held = await indexOnce(blob);
  const bytes = heldBytes() - before;
  checkDataset(file, held.dataset, "runLoad (heap)");
  return bytes;
}

async function benchFile(
  file: ShapeFile,
  runs: number,
  analyzeRuns: number,
): Promise<NodeMatrixRow> {
  const name = `matrix.${file.shape}.${file.targetBytes / MB}MB`;
  const blob = await blobOf(file);
  // Warm the page cache and this process's code.
  await bytesOnly(file, blob);
  const indexMs: number[] = [];
  const firstMs: number[] = [];
  let firstGroup = { id: "", rollouts: 0, of: 0 };
  const bytesMs: number[] = [];
  const parseMs: number[] = [];
  const subjects: (() => Promise<void>)[] = [
    async () => {
      const r = await indexOnce(blob);
      checkDataset(file, r.dataset, "runLoad");
      indexMs.push(r.ms);
      firstMs.push(r.firstGroupMs);
      const summary = r.dataset?.summaries.find((g) => g.id === r.firstGroupId);
      firstGroup = {
        id: r.firstGroupId,
        rollouts: r.firstGroupRollouts,
        of: summary?.rewards.length ?? NaN,
      };
    },
    async () => {
      const start = performance.now();
      await bytesOnly(file, blob);
      bytesMs.push(performance.now() - start);
    },
    () => {
      const start = performance.now();
      jsonParseLines(file);
      parseMs.push(performance.now() - start);
      return Promise.resolve();
    },
  ];
  for (let r = 0; r < runs; r++) {
    const order = subjects.map((_, i) => i);
    if (r % 2 === 1) order.reverse();
    for (const i of order) await subjects[i]!();
  }
  // The index's retained memory, apart from the timed runs (a forced GC deoptimises hot code):
  // the median of `runs` measurements (a small index is within the noise of one: -0.5 MB once).
  const heaps: number[] = [];
  for (let r = 0; r < runs; r++) heaps.push(await heapOfIndex(file, blob));
  const heapBytes = median(heaps);

  const analyzeMs: number[] = [];
  let maxRss = NaN;
  for (let r = 0; r < analyzeRuns; r++) {
    const a = analyzeOnce(file);
    analyzeMs.push(a.ms);
    maxRss = Number.isNaN(maxRss) ? a.maxRssBytes : Math.max(maxRss, a.maxRssBytes);
  }

  const i = median(indexMs);
  const b = median(bytesMs);
  const p = median(parseMs);
  const f = median(firstMs);
  const a = analyzeRuns > 0 ? median(analyzeMs) : NaN;
  const shape = `${file.shape}: ${SHAPE_INFO[file.shape].description}; ${(file.bytes / MB).toFixed(1)} MB, ${file.rows} rows (${file.malformed} malformed) in ${file.groups} groups`;
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  const per = (xs: readonly number[]): number[] => xs.map(Math.round);
  emit(
    `${name}.index`,
    i,
    p,
    runs,
    file.fingerprint,
    `runLoad (the studio worker's load of a chosen File: index, summaries, first group) ${mbps(file.bytes, i)} MB/s vs JSON.parse of every line of the same bytes ${mbps(file.bytes, p)} MB/s; ${shape}; load average ${load}`,
    {
      values: per(indexMs),
      baselineValues: per(parseMs),
      mbPerS: mbps(file.bytes, i),
      bytes: file.bytes,
    },
  );
  emit(
    `${name}.index.vsBytesOnly`,
    i,
    b,
    runs,
    file.fingerprint,
    `the same load vs streaming the same Blob, bytes only (blobChunks, 1 MB chunks) ${mbps(file.bytes, b)} MB/s`,
    { values: per(indexMs), baselineValues: per(bytesMs) },
  );
  emit(
    `${name}.firstGroup`,
    f,
    b,
    runs,
    file.fingerprint,
    `runLoad's first-group reply (${firstGroup.rollouts} rollouts; the group shown, ${firstGroup.id}, has ${firstGroup.of}) vs the bytes-only read of the whole file`,
    {
      values: per(firstMs),
      baselineValues: per(bytesMs),
      firstGroupRollouts: firstGroup.rollouts,
      firstGroupSize: firstGroup.of,
    },
  );
  if (analyzeRuns > 0)
    emit(
      `${name}.analyze`,
      a,
      p,
      analyzeRuns,
      file.fingerprint,
      `rollout-studio analyze FILE, the built CLI as a whole process: ${Number.isFinite(a) ? `${mbps(file.bytes, a)} MB/s` : "failed"}, peak RSS ${Math.round(maxRss / MB)} MB, vs JSON.parse of every line ${mbps(file.bytes, p)} MB/s`,
      {
        values: per(analyzeMs),
        maxRssBytes: maxRss,
        maxRssPerFileByte: round(maxRss / file.bytes),
      },
    );
  emit(
    `${name}.heap`,
    heapBytes,
    file.bytes,
    runs,
    file.fingerprint,
    "heapUsed + arrayBuffers held by a finished runLoad (its index state and dataset), two full gc()s before and after, median of the runs, vs the file size (performance.md T7: ratio <= 0.15)",
    { values: heaps },
    "bytes",
  );
  return {
    shape: file.shape,
    sizeMB: file.targetBytes / MB,
    bytes: file.bytes,
    firstGroupMs: f,
    indexMs: i,
    bytesOnlyMs: b,
    jsonParseMs: p,
    analyzeMs: a,
    analyzeMaxRssBytes: maxRss,
    heapBytes,
  };
}

async function main(): Promise<void> {
  if (process.argv.includes("--table")) {
    process.stdout.write(matrixTable());
    return;
  }
  const started = performance.now();
  const { sizes, shapes } = matrixArgs(process.argv);
  const runsArg = arg("runs");
  const analyzeRuns = process.argv.includes("--no-analyze") ? 0 : Number(arg("analyze-runs") ?? 1);
  if (analyzeRuns > 0) {
    log("matrix: building dist-cli (npm run build:cli)");
    await buildCli();
  }
  const rows: NodeMatrixRow[] = [];
  for (const sizeMB of sizes)
    for (const shape of shapes) {
      const t = performance.now();
      log(`matrix: ${shape} at ${sizeMB} MB`);
      const file = shapeFile(shape, sizeMB, log);
      const runs = runsArg === undefined ? (sizeMB <= 100 ? 3 : 1) : Number(runsArg);
      rows.push(await benchFile(file, runs, analyzeRuns));
      log(`  (${((performance.now() - t) / 1000).toFixed(1)} s)`);
    }
  saveMatrixRows("node", rows, loadavg());
  // The table goes to stderr: stdout stays one JSON line per metric (`--table` prints it alone).
  log(`\n${matrixTable()}`);
  log(`matrix: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (failed) process.exitCode = 1;
}

await main();
