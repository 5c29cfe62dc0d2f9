/**
 * Issue 14's browser benchmarks against `rollout-studio view` (the built CLI as a process, through
 * scripts/viewProcess.ts), run by `npm run bench:browser -- --view` (or `--view-only`):
 *
 * - `browser.view.ttfg.1GB`: opening `${origin}/?token=T` of `view FILE` (the 1 GB native JSONL of
 *   bench/browser.ts, read by the page by HTTP range requests) to the first group painted
 *   (`file-selected` -> `first-group-painted`, the marks the local load uses), against the same
 *   file chosen as a local File in the drop zone (bench/browser.ts's loadOnce, same marks), loads
 *   interleaved. Target: ratio at most 1.3. `navToPaintedMs` adds the page's own start (the view
 *   session and `/api/runs` before `file-selected`).
 * - `browser.view.appendToScreen`: a verl step folder served by `view`; a line appended on disk to
 *   `[data-testid=dataset-summary]`'s `data-rollouts` counting it on screen (polled every frame in
 *   the page), median and p95 over the appends; target p95 at most 2 s. The baseline is the same
 *   append to the server's `files` event read by a client in this process (`/api/events`), so the
 *   ratio is what the page adds to the server's own follow.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { Browser, Page } from "playwright-core";

import { viewStart, type ViewProcess } from "../scripts/viewProcess.ts";
import { generateVerlStepJsonl } from "./generate.ts";

const BIN = join(import.meta.dirname, "../bin/rollout-studio.mjs");

export interface ViewLoad {
  /** file-selected -> first-group-painted. */
  readonly ttfgMs: number;
  /** Navigation start -> first-group-painted. */
  readonly navToPaintedMs: number;
  readonly rollouts: number;
}

export interface ViewFile {
  readonly path: string;
  readonly rows: number;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

export function p95(values: readonly number[]): number {
  return quantile(values, 0.95);
}

async function startView(paths: readonly string[], state: string): Promise<ViewProcess> {
  return viewStart(
    process.execPath,
    [BIN, "view", ...paths, "--port", "0", "--no-open", "--state", state],
    { timeoutMs: 60_000 },
  );
}

const summaryRollouts = (page: Page): Promise<number> =>
  page.evaluate(() =>
    Number(
      document.querySelector('[data-testid="dataset-summary"]')?.getAttribute("data-rollouts") ??
        "-1",
    ),
  );

/** One load of `view FILE`'s page in a fresh context. */
async function viewLoadOnce(
  browser: Browser,
  view: ViewProcess,
  timeoutMs: number,
): Promise<ViewLoad> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  try {
    await page.goto(`${view.origin}/?token=${view.token!}`);
    await page.waitForFunction(
      () => performance.getEntriesByName("first-group-painted").length > 0,
      undefined,
      { timeout: timeoutMs, polling: 50 },
    );
    const marks = await page.evaluate(() =>
      performance.getEntriesByType("mark").map((m) => [m.name, m.startTime] as const),
    );
    const at = new Map(marks);
    const painted = at.get("first-group-painted")!;
    const selected = at.get("file-selected") ?? NaN;
    await page.waitForFunction(
      () => performance.getEntriesByName("index-done").length > 0,
      undefined,
      { timeout: timeoutMs, polling: 100 },
    );
    const rollouts = await summaryRollouts(page);
    if (problems.length > 0) throw new Error(`page errors: ${problems.join("; ")}`);
    return { ttfgMs: painted - selected, navToPaintedMs: painted, rollouts };
  } finally {
    await context.close();
  }
}

/** The interleaved TTFG runs: `local()` is bench/browser.ts's drop-zone load of the same file. */
export async function benchViewTtfg(
  browser: Browser,
  file: ViewFile,
  rounds: number,
  local: () => Promise<number | null>,
  log: (m: string) => void,
): Promise<{ view: ViewLoad[]; local: number[]; problems: string[] }> {
  const state = mkdtempSync(join(tmpdir(), "bench-view-state-"));
  const view = await startView([file.path], state);
  const views: ViewLoad[] = [];
  const locals: number[] = [];
  const problems: string[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? ["view", "local"] : ["local", "view"];
      for (const which of order) {
        if (which === "view") {
          try {
            const v = await viewLoadOnce(browser, view, 300_000);
            if (v.rollouts !== file.rows)
              problems.push(`view: ${v.rollouts} rollouts on screen, ${file.rows} written`);
            views.push(v);
            log(
              `  view round ${round}: TTFG ${v.ttfgMs.toFixed(0)} ms (navigation -> painted ${v.navToPaintedMs.toFixed(0)} ms)`,
            );
          } catch (e) {
            problems.push(`view load: ${e instanceof Error ? e.message : String(e)}`);
          }
        } else {
          const ms = await local();
          if (ms !== null) {
            locals.push(ms);
            log(`  local File round ${round}: TTFG ${ms.toFixed(0)} ms`);
          }
        }
      }
    }
  } finally {
    const code = await view.stop();
    if (code !== 0) problems.push(`view exited ${code}: ${view.stderr().slice(0, 300)}`);
    rmSync(state, { recursive: true, force: true });
  }
  return { view: views, local: locals, problems };
}

/** Read the server's event stream; `onFiles` gets the time of each `files` event. */
async function followEvents(
  view: ViewProcess,
  onFiles: (at: number) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(`${view.origin}/api/events?token=${view.token!}`, { signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const at = performance.now();
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^event: files$/m.test(event)) onFiles(at);
      }
    }
  } catch (e) {
    if (!signal.aborted) throw e;
  }
}

/** From a line appended on disk to `data-rollouts` counting it, and to the server's event. */
export async function benchViewAppend(
  browser: Browser,
  appends: number,
  log: (m: string) => void,
): Promise<{ screen: number[]; event: number[]; problems: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "bench-view-append-"));
  const runDir = join(dir, "run");
  mkdirSync(runDir);
  const steps = 3;
  let rows = 0;
  for (let step = 1; step <= steps; step++) {
    const f = generateVerlStepJsonl({ step, targetBytes: 2e6, seed: 403 });
    writeFileSync(join(runDir, `${step}.jsonl`), f.bytes);
    rows += f.rows;
  }
  const target = join(runDir, `${steps}.jsonl`);
  const view = await startView([runDir], join(dir, "state"));
  const controller = new AbortController();
  let eventWaiter: ((at: number) => void) | null = null;
  const following = followEvents(
    view,
    (at) => {
      const w = eventWaiter;
      eventWaiter = null;
      w?.(at);
    },
    controller.signal,
  );
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  const screen: number[] = [];
  const event: number[] = [];
  try {
    await page.goto(`${view.origin}/?token=${view.token!}`);
    await page.waitForFunction(
      (n) =>
        document.querySelector('[data-testid="dataset-summary"]')?.getAttribute("data-rollouts") ===
        String(n),
      rows,
      { timeout: 60_000, polling: 100 },
    );
    for (let i = 0; i < appends; i++) {
      // Let the previous append's follow settle, at a varying phase of the server's cycle.
      await new Promise((r) => setTimeout(r, 300 + ((i * 137) % 500)));
      const line = `${JSON.stringify({ input: `appended ${i}`, output: `out ${i}`, gts: "1", score: i % 2, step: steps })}\n`;
      const eventAt = new Promise<number>((resolve) => (eventWaiter = resolve));
      const onScreen = page.waitForFunction(
        (n) =>
          Number(
            document
              .querySelector('[data-testid="dataset-summary"]')
              ?.getAttribute("data-rollouts") ?? "0",
          ) >= n,
        rows + i + 1,
        { timeout: 20_000, polling: "raf" },
      );
      const start = performance.now();
      appendFileSync(target, line);
      const [e] = await Promise.all([
        Promise.race([eventAt, new Promise<number>((r) => setTimeout(() => r(NaN), 20_000))]),
        onScreen.then(() => screen.push(performance.now() - start)),
      ]);
      if (Number.isNaN(e)) problems.push(`append ${i}: no files event in 20 s`);
      else event.push(e - start);
    }
    const shown = await summaryRollouts(page);
    if (shown !== rows + appends)
      problems.push(
        `after ${appends} appends: ${shown} rollouts on screen, ${rows + appends} written`,
      );
    log(
      `  appended ${appends} lines: on screen median ${median(screen).toFixed(0)} ms, p95 ${p95(screen).toFixed(0)} ms; server event median ${median(event).toFixed(0)} ms`,
    );
  } catch (e) {
    problems.push(`append: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    await context.close();
    controller.abort();
    await following.catch(() => undefined);
    const code = await view.stop();
    if (code !== 0) problems.push(`view exited ${code}`);
    rmSync(dir, { recursive: true, force: true });
  }
  return { screen, event, problems };
}
