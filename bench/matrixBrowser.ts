/**
 * The benchmark matrix, browser half (issue 16, point 1; `npm run bench:browser -- --matrix`): for
 * each shape of bench/shapes.ts and each size, one load of the file in the built studio in a fresh
 * context (through the drop zone's input, as bench/browser.ts loadOnce does), opened at
 * `?group=<the group of the file's largest rollout>`:
 *
 * - `matrix.browser.<shape>.<size>MB.ttfg`: marks `file-selected` -> `first-group-painted`;
 * - `matrix.browser.<shape>.<size>MB.index`: `file-selected` -> `index-done`, with the longest
 *   main-thread long task in between (`longestTaskMs`, `longTasksOver50ms`);
 *   both against a bytes-only BYOB read of the same file in a blank page (runIndexBrowser.ts);
 * - `matrix.browser.<shape>.<size>MB.tabSwitch`: with the largest rollout's group open, Rollouts
 *   -> Metrics -> Divergence (each tab's click to the frame after every part of its view is in
 *   the DOM: a view that mounts its parts one task at a time says so with `data-complete`), with
 *   its longest long task and the time to its first part (`shownPerTab`); against the same two switches with the file's first group open, in the
 *   same page (searched by id and opened with Enter).
 *
 * A load that crashes, throws a page error or times out, counts that differ from what was written,
 * an issue count other than the malformed lines, or a byte count the read disagrees on fails the
 * run; timing never does.
 */
import type { Browser, Page } from "playwright-core";

import type { BrowserMatrixRow } from "./matrixTable.ts";
import { blankPageRead } from "./runIndexBrowser.ts";
import { SHAPE_INFO, shapeFile, type ShapeFile, type ShapeName } from "./shapes.ts";

const MB = 1e6;
const COUNTS = /^([\d,]+) rollouts in ([\d,]+) groups/;
/** The views switched through, with the test id each one's view has once it shows the group. */
const TAB_STEPS: readonly (readonly [string, string])[] = [
  ["metrics", "metrics.panel"],
  ["divergence", "divergence.view"],
];

interface MatrixLoad {
  readonly ttfgMs: number;
  readonly indexMs: number;
  readonly longTasks: readonly number[];
  readonly tabSwitch: TabSwitch | null;
  readonly baselineTabSwitch: TabSwitch | null;
}

interface TabSwitch {
  /** Click to the frame after every part of each view is in the DOM, summed over the tabs. */
  readonly ms: number;
  /** Per tab: click to the frame after every part is in the DOM. */
  readonly perTab: readonly number[];
  /** Per tab: click to the frame after the view first shows (its first part). */
  readonly shownPerTab: readonly number[];
  readonly longestTaskMs: number;
}

export interface MatrixBrowserResult {
  readonly rows: BrowserMatrixRow[];
  readonly checks: string[];
}

const round = (x: number): number => Number(x.toPrecision(4));
const mbps = (bytes: number, ms: number): number => Math.round(bytes / MB / (ms / 1000));

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function emit(
  metric: string,
  values: readonly number[],
  baselines: readonly number[],
  data: string,
  note: string,
  extra: Record<string, unknown>,
  log: (m: string) => void,
): void {
  if (values.length === 0 || baselines.length === 0) {
    log(`  ${metric}: no successful run`);
    return;
  }
  const value = median(values);
  const baseline = median(baselines);
  const line = {
    metric,
    value: round(value),
    baseline: round(baseline),
    ratio: round(value / baseline),
    unit: "ms",
    runs: values.length,
    values: values.map(round),
    baselines: baselines.map(round),
    data,
    note,
    ...extra,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  log(`  ${metric}: ${line.value} ms vs baseline ${line.baseline} ms, ratio ${line.ratio}`);
}

/** Rollouts -> Metrics -> Divergence in the open group; null when a view did not show in time. */
async function switchTabs(page: Page, timeoutMs: number): Promise<TabSwitch | null> {
  await page.getByTestId("workspace.tab.rollouts").click();
  await page.getByTestId("group.detail").waitFor({ state: "attached", timeout: timeoutMs });
  // Let the open group's deferred work (markdown, clusters) settle before timing.
  await page.waitForTimeout(1000);
  return page.evaluate(
    async ({ steps, timeoutMs }) => {
      const tasks: { start: number; duration: number }[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) tasks.push({ start: e.startTime, duration: e.duration });
      });
      observer.observe({ type: "longtask" });
      const frame = (): Promise<number> => new Promise((r) => requestAnimationFrame(r));
      const start = performance.now();
      const perTab: number[] = [];
      const shownPerTab: number[] = [];
      for (const [tab, view] of steps) {
        const t0 = performance.now();
        const button = document.querySelector<HTMLElement>(`[data-testid="workspace.tab.${tab}"]`);
        if (button === null) return null;
        button.click();
        while (document.querySelector(`[data-testid="${view}"]`) === null) {
          if (performance.now() - t0 > timeoutMs) return null;
          await frame();
        }
        // The frame that paints the view.
        await frame();
        shownPerTab.push(performance.now() - t0);
        // A view that mounts its parts one task at a time (Metrics) says when it has all of them.
        while (document.querySelector(`[data-testid="${view}"][data-complete="false"]`) !== null) {
          if (performance.now() - t0 > timeoutMs) return null;
          await frame();
        }
        await frame();
        perTab.push(performance.now() - t0);
      }
      const end = performance.now();
      // Long-task entries arrive after their task: give them a moment.
      await new Promise((r) => setTimeout(r, 200));
      observer.disconnect();
      const during = tasks.filter((t) => t.start >= start && t.start <= end);
      return {
        ms: end - start,
        perTab,
        shownPerTab,
        longestTaskMs: Math.max(0, ...during.map((t) => t.duration)),
      };
    },
    { steps: TAB_STEPS, timeoutMs },
  );
}

/**
 * Open `groupId` through the group browser's search (ids are searched in every group) and Enter,
 * pressed again until the group opens: the list filters after the input settles, and an Enter
 * before that opens the first group of the unfiltered list.
 */
async function openGroup(page: Page, groupId: string, timeoutMs: number): Promise<void> {
  await page.getByTestId("workspace.tab.rollouts").click();
  const search = page.getByTestId("filter-search");
  await search.fill(groupId);
  await page
    .locator(`[data-testid="group-row"][data-group-id="${groupId}"]`)
    .waitFor({ state: "attached", timeout: timeoutMs });
  const open = page.locator(`section[aria-label="Group ${groupId}"]`).first();
  const until = Date.now() + timeoutMs;
  for (;;) {
    await search.press("Enter");
    try {
      await open.waitFor({ state: "attached", timeout: 2000 });
      return;
    } catch (e) {
      if (Date.now() > until) throw e;
    }
  }
}

async function loadOnce(
  browser: Browser,
  url: string,
  file: ShapeFile,
  timeoutMs: number,
  problems: string[],
): Promise<MatrixLoad | null> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // tsx keeps function names with a `__name` helper that exists only in Node (bench/browser.ts).
  await context.addInitScript("globalThis.__name = (f) => f;");
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("crash", () => errors.push("the page crashed"));
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  const label = `${file.shape} ${file.targetBytes / MB} MB`;
  try {
    await page.goto(`${url}/?group=${encodeURIComponent(file.largestGroupId)}`);
    await page.getByTestId("drop-zone.root").waitFor({ state: "visible" });
    await page.evaluate(() => {
      const w = window as { __matrixTasks?: { start: number; duration: number }[] };
      const tasks: { start: number; duration: number }[] = [];
      w.__matrixTasks = tasks;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) tasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: "longtask", buffered: true });
    });
    await page.getByTestId("file-input").setInputFiles(file.path);
    const wait = { timeout: timeoutMs, polling: 50 } as const;
    const first = await page.waitForFunction(
      () =>
        performance.getEntriesByName("first-group-painted").length > 0
          ? "painted"
          : document.querySelector('[data-testid="load.error"]') !== null
            ? "error"
            : false,
      undefined,
      wait,
    );
    if ((await first.jsonValue()) === "error")
      throw new Error(
        `load error: ${(await page.getByTestId("load.error").innerText()).slice(0, 300)}`,
      );
    await page.waitForFunction(
      () => performance.getEntriesByName("index-done").length > 0,
      undefined,
      wait,
    );
    const counts = page.getByTestId("dataset.counts");
    await counts.waitFor({ state: "visible", timeout: timeoutMs });
    const countsText = (await counts.innerText()).trim();
    const issues = Number((await page.getByTestId("load-issues").textContent())?.trim());
    const m = COUNTS.exec(countsText);
    const rollouts = m === null ? NaN : Number(m[1]!.replaceAll(",", ""));
    const groups = m === null ? NaN : Number(m[2]!.replaceAll(",", ""));
    if (rollouts !== file.rows || groups !== file.groups)
      problems.push(
        `${label}: the dataset bar says "${countsText}", but ${file.rows} rows in ${file.groups} groups were written`,
      );
    if (issues !== file.malformed)
      problems.push(`${label}: ${issues} issues, for ${file.malformed} malformed lines`);
    const { marks, tasks } = await page.evaluate(() => ({
      marks: performance.getEntriesByType("mark").map((m) => [m.name, m.startTime] as const),
      tasks:
        (window as { __matrixTasks?: { start: number; duration: number }[] }).__matrixTasks ?? [],
    }));
    const at = new Map(marks);
    const selected = at.get("file-selected")!;
    const indexDone = at.get("index-done")!;
    // The largest rollout's group, opened from the URL when the index was done.
    await page
      .locator(`section[aria-label="Group ${file.largestGroupId}"]`)
      .first()
      .waitFor({ state: "attached", timeout: timeoutMs });
    const tabSwitch = await switchTabs(page, timeoutMs);
    if (tabSwitch === null) problems.push(`${label}: a tab of the largest group did not show`);
    let baselineTabSwitch: TabSwitch | null = null;
    if (file.firstGroupId !== file.largestGroupId) {
      await openGroup(page, file.firstGroupId, timeoutMs);
      baselineTabSwitch = await switchTabs(page, timeoutMs);
      if (baselineTabSwitch === null)
        problems.push(`${label}: a tab of the first group did not show`);
    } else baselineTabSwitch = tabSwitch;
    if (errors.length > 0) throw new Error(errors.join("; "));
    return {
      ttfgMs: at.get("first-group-painted")! - selected,
      indexMs: indexDone - selected,
      longTasks: tasks
        .filter((t) => t.start >= selected && t.start <= indexDone)
        .map((t) => t.duration),
      tabSwitch,
      baselineTabSwitch,
    };
  } catch (e) {
    // Playwright's message names what it waited for on its following lines.
    const message =
      e instanceof Error ? e.message.split("\n").slice(0, 3).join(" ").slice(0, 500) : String(e);
    problems.push(`${label}: ${[...errors, message].join("; ")}`);
    return null;
  } finally {
    await context.close().catch(() => undefined);
  }
}

/** Every shape at every size: `rounds` loads each, alternating with the blank-page read. */
export async function benchMatrixBrowser(
  browser: Browser,
  url: string,
  sizes: readonly number[],
  shapes: readonly ShapeName[],
  rounds: number,
  log: (message: string) => void,
): Promise<MatrixBrowserResult> {
  const rows: BrowserMatrixRow[] = [];
  const checks: string[] = [];
  for (const sizeMB of sizes)
    for (const shape of shapes) {
      log(`matrix (browser): ${shape} at ${sizeMB} MB`);
      const file = shapeFile(shape, sizeMB, log);
      const timeoutMs = Number(process.env.BENCH_MATRIX_TIMEOUT_MS ?? 120_000 + sizeMB * 1000);
      const loads: MatrixLoad[] = [];
      const readMs: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 === 0 ? ["load", "read"] : ["read", "load"];
        for (const what of order) {
          if (what === "read") {
            const b = await blankPageRead(browser, file.path, false);
            if (b.bytes !== file.bytes)
              checks.push(`${shape} ${sizeMB} MB: the bytes-only read saw ${b.bytes} bytes`);
            readMs.push(b.ms);
          } else {
            const before = checks.length;
            const l = await loadOnce(browser, url, file, timeoutMs, checks);
            for (const c of checks.slice(before)) log(`  problem: ${c}`);
            if (l === null) continue;
            loads.push(l);
            log(
              `  first group ${Math.round(l.ttfgMs)} ms, index-done ${Math.round(l.indexMs)} ms, longest task ${Math.round(Math.max(0, ...l.longTasks))} ms, tab switch ${l.tabSwitch === null ? "–" : `${Math.round(l.tabSwitch.ms)} ms`} (first group's ${l.baselineTabSwitch === null ? "–" : `${Math.round(l.baselineTabSwitch.ms)} ms`})`,
            );
          }
        }
      }
      const name = `matrix.browser.${shape}.${sizeMB}MB`;
      const about = `${shape}: ${SHAPE_INFO[shape].description}; ${(file.bytes / MB).toFixed(1)} MB, ${file.rows} rows in ${file.groups} groups`;
      const longTasks = loads.flatMap((l) => l.longTasks);
      const read = readMs.length > 0 ? median(readMs) : NaN;
      emit(
        `${name}.ttfg`,
        loads.map((l) => l.ttfgMs),
        readMs,
        file.fingerprint,
        `file-selected -> first-group-painted vs a bytes-only BYOB read of the same file in a blank page; ${about}`,
        {},
        log,
      );
      const index = loads.length > 0 ? median(loads.map((l) => l.indexMs)) : NaN;
      emit(
        `${name}.index`,
        loads.map((l) => l.indexMs),
        readMs,
        file.fingerprint,
        `file-selected -> index-done ${mbps(file.bytes, index)} MB/s vs the bytes-only read ${mbps(file.bytes, read)} MB/s`,
        {
          bytes: file.bytes,
          longTasksOver50ms: longTasks.filter((d) => d > 50).length,
          longestTaskMs: round(Math.max(0, ...longTasks)),
        },
        log,
      );
      const switches = loads.flatMap((l) => (l.tabSwitch === null ? [] : [l.tabSwitch]));
      const baselines = loads.flatMap((l) =>
        l.baselineTabSwitch === null ? [] : [l.baselineTabSwitch],
      );
      emit(
        `${name}.tabSwitch`,
        switches.map((s) => s.ms),
        baselines.map((s) => s.ms),
        file.fingerprint,
        `Rollouts -> Metrics -> Divergence (click to the frame after each view has all its parts) with the largest rollout's group open (${file.largestGroupId}, a ${(file.largestRowBytes / 1e3).toFixed(0)} KB row) vs the same with the first group (${file.firstGroupId}) open, same page`,
        {
          perTab: switches.map((s) => s.perTab.map(round)),
          shownPerTab: switches.map((s) => s.shownPerTab.map(round)),
          longestTaskMs: round(Math.max(0, ...switches.map((s) => s.longestTaskMs))),
          baselineLongestTaskMs: round(Math.max(0, ...baselines.map((s) => s.longestTaskMs))),
        },
        log,
      );
      if (loads.length > 0)
        rows.push({
          shape,
          sizeMB,
          bytes: file.bytes,
          ttfgMs: median(loads.map((l) => l.ttfgMs)),
          indexMs: index,
          readMs: read,
          longestTaskMs: Math.max(0, ...longTasks),
          tabSwitchMs: switches.length > 0 ? median(switches.map((s) => s.ms)) : NaN,
          tabSwitchLongestTaskMs:
            switches.length > 0 ? Math.max(...switches.map((s) => s.longestTaskMs)) : NaN,
        });
    }
  return { rows, checks };
}
