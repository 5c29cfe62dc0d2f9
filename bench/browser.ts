/**
 * `npm run bench:browser`: the studio's load path in headless Chromium (performance.md section 9
 * T1, T2, T7 and T11; section 10 "Playwright timing"), and the group browser's scrolling (T8). It builds the app once, serves dist/ with
 * `vite preview` (e2e/harness/server.ts) and loads generated native JSONL files through the drop
 * zone's file input, each load in a fresh browser context. One JSON line per metric goes to stdout,
 * each against a baseline measured in the same run; progress goes to stderr. The exit code is
 * non-zero only on a correctness failure (a crash, a page error, wrong counts), never on timing.
 *
 *   npm run bench:browser            100 MB file vs its 10 MB prefix (about 10 s)
 *   npm run bench:browser -- --big   also a 1 GB file (or BENCH_BIG=1; about 25 s)
 *   BENCH_ROUNDS=5 ...               loads per file (default 3; medians are reported)
 *   npm run bench:browser -- --scroll-only   just the group browser's scroll benchmark (T8)
 *   npm run bench:browser -- --no-scroll     everything but it
 *   npm run bench:browser -- --interaction-only   just the setting-change and ranking-keystroke
 *                                                 latencies (T5, bench/interaction.ts)
 *   npm run bench:browser -- --matrix   just issue 16's benchmark matrix (bench/matrixBrowser.ts), with
 *                                       `--sizes=50,500,1000` and `--shapes=...` as bench:matrix
 *   npm run bench:browser -- --view   also issue 14's `rollout-studio view` metrics (bench/viewBrowser.ts):
 *                                     the 1 GB file through view vs as a local File, and an
 *                                     appended line to the screen; `--view-only` runs just them
 *
 * This file parses the flags, launches Chromium and runs the families; each lives in its own module:
 * loadMetrics.ts (loads and view, over browserFiles.ts's data and pageLoad.ts's single load),
 * scrollBrowser.ts, interaction.ts, runIndexBrowser.ts, matrixBrowser.ts; browserReport.ts writes
 * the metric lines and keeps the failed checks.
 */
import { mkdirSync } from "node:fs";
import { loadavg } from "node:os";

import { chromium, type Browser } from "playwright-core";

import { CHROMIUM_PATH } from "../e2e/harness/browser.ts";
import { startPreviewServer } from "../e2e/harness/server.ts";
import { DATA_DIR } from "./browserFiles.ts";
import { check, emit, failures, log, mb, mbps, median, ROUNDS } from "./browserReport.ts";
import {
  benchRankingKeystroke,
  benchSettingChange,
  rankingKeystrokeLines,
  settingChangeLine,
} from "./interaction.ts";
import { loadBenchmarks, viewBenchmarks } from "./loadMetrics.ts";
import { benchMatrixBrowser } from "./matrixBrowser.ts";
import { matrixTable, saveMatrixRows } from "./matrixTable.ts";
import { benchRunIndex } from "./runIndexBrowser.ts";
import { scrollBenchmark } from "./scrollBrowser.ts";
import { matrixArgs } from "./shapes.ts";

const BIG = process.argv.includes("--big") || process.env.BENCH_BIG === "1";
/** `--huge` adds a 2 GB file (one load; issue 8 "Scale"); it implies nothing else. */
const HUGE = process.argv.includes("--huge");
/** `--scroll-only` runs just the group browser's scroll benchmark; `--no-scroll` skips it. */
const SCROLL_ONLY = process.argv.includes("--scroll-only");
const SCROLL = !process.argv.includes("--no-scroll");
/** `--interaction-only` runs just the setting change and the ranking keystroke (bench/interaction.ts). */
const INTERACTION_ONLY = process.argv.includes("--interaction-only");
/** `--view` adds issue 14's view metrics (bench/viewBrowser.ts); `--view-only` runs just them. */
const VIEW_ONLY = process.argv.includes("--view-only");
const VIEW = VIEW_ONLY || process.argv.includes("--view");
/** `--run-index` adds issue 14's 100-file run index (bench/runIndexBrowser.ts); `--run-index-only` runs just it. */
const RUN_INDEX_ONLY = process.argv.includes("--run-index-only");
const RUN_INDEX = RUN_INDEX_ONLY || process.argv.includes("--run-index");
/** `--matrix` runs issue 16's benchmark matrix alone (bench/matrixBrowser.ts). */
const MATRIX = process.argv.includes("--matrix");

/**
 * e2e/harness/browser.ts's flags (launchChromium takes no arguments), plus what the memory metric
 * needs: precise `performance.memory` and `gc()` in every isolate.
 */
const LAUNCH_ARGS = [
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--enable-precise-memory-info",
  "--js-flags=--expose-gc",
];

/** Issue 14: the 100-file, 2 GB verl run chosen as a folder, file-selected to index-done. */
async function runIndexBenchmark(browser: Browser, url: string): Promise<void> {
  log("the 100-file run index (bench/runIndexBrowser.ts)");
  const r = await benchRunIndex(browser, url, ROUNDS, log);
  for (const c of r.checks) check(false, c);
  const value = median(r.indexMs);
  emit(
    "browser.runIndex.100x20MB",
    r.indexMs,
    r.readMs,
    "ms",
    r.fingerprint,
    `${r.files} verl step files, ${mb(r.bytes)}, chosen as a folder: file-selected -> index-done ${mbps(r.bytes, value)} MB/s (issue 14 target: at least 300 MB/s; navigator.hardwareConcurrency ${r.cores}) vs reading the same Files' bytes (BYOB, 1 MB) in a blank page ${mbps(r.bytes, median(r.readMs))} MB/s; load average ${r.loadAverage.map((l) => l.toFixed(2)).join(" ")}`,
    { mbPerS: mbps(r.bytes, value), cores: r.cores },
  );
}

/** Issue 16: every shape of bench/shapes.ts at every size (BENCH_MATRIX_ROUNDS loads each, default 1). */
async function matrixBenchmark(browser: Browser, url: string): Promise<void> {
  const { sizes, shapes } = matrixArgs(process.argv);
  const rounds = Number(process.env.BENCH_MATRIX_ROUNDS ?? 1);
  const result = await benchMatrixBrowser(browser, url, sizes, shapes, rounds, log);
  for (const c of result.checks) check(false, c);
  saveMatrixRows("browser", result.rows, loadavg());
  log(`\n${matrixTable()}`);
}

async function main(): Promise<void> {
  const started = performance.now();
  mkdirSync(DATA_DIR, { recursive: true });
  log("building the app (e2e/harness/server.ts)");
  const server = await startPreviewServer();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    chromiumSandbox: false,
    args: LAUNCH_ARGS,
  });
  log(`serving ${server.url}; Chromium ${browser.version()}; node ${process.version}`);
  try {
    if (MATRIX) await matrixBenchmark(browser, server.url);
    if (RUN_INDEX) await runIndexBenchmark(browser, server.url);
    const others = !RUN_INDEX_ONLY && !MATRIX;
    if (VIEW && others) await viewBenchmarks(browser, server.url);
    if (!SCROLL_ONLY && !INTERACTION_ONLY && !VIEW_ONLY && others)
      await loadBenchmarks(browser, server.url, { big: BIG, huge: HUGE });
    if (SCROLL && !INTERACTION_ONLY && !VIEW_ONLY && others)
      await scrollBenchmark(browser, server.url);
    if (!SCROLL_ONLY && !VIEW_ONLY && others) {
      log("setting change on a 64-rollout group (bench/interaction.ts)");
      const interaction = await benchSettingChange(browser, server.url);
      console.log(settingChangeLine(interaction));
      for (const c of interaction.checks) check(false, c);
      log("ranking keystroke on a 64-rollout group (bench/interaction.ts)");
      const ranking = await benchRankingKeystroke(browser, server.url);
      for (const line of rankingKeystrokeLines(ranking)) console.log(line);
      for (const c of ranking.checks) check(false, c);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (failures.length > 0) {
    log(`${failures.length} correctness check(s) failed`);
    process.exitCode = 1;
  }
}

await main();
