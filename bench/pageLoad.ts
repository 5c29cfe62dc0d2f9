/**
 * One load of one file through the studio's drop zone, in a fresh browser context: its marks, long
 * tasks, main-thread and worker heaps, and the counts it shows.
 */
import type { Browser, Page } from "playwright-core";

import type { DataFile } from "./browserFiles.ts";
import { check, log } from "./browserReport.ts";
import { blankPageRead } from "./runIndexBrowser.ts";

interface BenchWindow {
  __benchLongTasks?: { start: number; duration: number }[];
}

interface HeapReading {
  /** Main thread: performance.memory.usedJSHeapSize after gc(). */
  readonly main: number;
  readonly mainBefore: number;
  /** The load worker's V8 heap and ArrayBuffer backing stores (the index's typed arrays), after a GC. */
  readonly worker: number;
  readonly workerArrayBuffers: number;
  readonly total: number;
}

export interface LoadRun {
  readonly ttfgMs: number;
  readonly committedMs: number;
  readonly indexMs: number;
  readonly rollouts: number;
  readonly groups: number;
  readonly countsText: string;
  readonly issuesText: string;
  /** The studio asked for the format; timings start at the answer (the second file-selected). */
  readonly prompted: boolean;
  /** Long tasks on the main thread between file-selected and index-done. */
  readonly longTasks: readonly number[];
  readonly heap?: HeapReading;
  readonly byobMs?: number;
  readonly byobBytes?: number;
}

interface LoadOptions {
  readonly heap: boolean;
  readonly byob: boolean;
  readonly timeoutMs: number;
}

async function mainHeap(page: Page): Promise<number> {
  return page.evaluate(() => {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    const memory = (performance as { memory?: { usedJSHeapSize: number } }).memory;
    return memory?.usedJSHeapSize ?? NaN;
  });
}

/**
 * The page's dedicated worker's heap, through the browser's CDP session: the worker is a target
 * whose parent is the page. Playwright's CDPSession cannot address a flat child session, so the
 * commands go through Target.sendMessageToTarget.
 */
async function workerHeap(
  browser: Browser,
  page: Page,
): Promise<{ used: number; arrayBuffers: number } | null> {
  const pageSession = await page.context().newCDPSession(page);
  const { targetInfo } = await pageSession.send("Target.getTargetInfo");
  await pageSession.detach();
  const session = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await session.send("Target.getTargets");
    const worker = targetInfos.find(
      (t) => t.type === "worker" && t.parentId === targetInfo.targetId,
    );
    if (worker === undefined) return null;
    const { sessionId } = await session.send("Target.attachToTarget", {
      targetId: worker.targetId,
      flatten: false,
    });
    let nextId = 0;
    const call = (method: string): Promise<Record<string, unknown>> =>
      new Promise((resolve, reject) => {
        const id = ++nextId;
        const onMessage = (event: { sessionId: string; message: string }): void => {
          const reply = JSON.parse(event.message) as {
            id?: number;
            result?: Record<string, unknown>;
            error?: { message: string };
          };
          if (event.sessionId !== sessionId || reply.id !== id) return;
          session.off("Target.receivedMessageFromTarget", onMessage);
          if (reply.error !== undefined) reject(new Error(`${method}: ${reply.error.message}`));
          else resolve(reply.result ?? {});
        };
        session.on("Target.receivedMessageFromTarget", onMessage);
        session
          .send("Target.sendMessageToTarget", {
            sessionId,
            message: JSON.stringify({ id, method }),
          })
          .catch(reject);
      });
    await call("HeapProfiler.collectGarbage");
    const usage = await call("Runtime.getHeapUsage");
    await session.send("Target.detachFromTarget", { sessionId });
    return { used: Number(usage.usedSize), arrayBuffers: Number(usage.backingStorageSize ?? 0) };
  } finally {
    await session.detach();
  }
}

/**
 * Bytes-only read of the file (T2's baseline): BYOB reader, one reused 1 MB buffer, in a blank page
 * of a context of its own. Not in the studio's page: there, a second stream read of the File after
 * the load worker's stalled for good in Chromium 156 (the bench hung on it, 2026-11-30; the
 * studio's own reads, a fresh worker per load, never did).
 */
async function byobRead(browser: Browser, path: string): Promise<{ ms: number; bytes: number }> {
  return blankPageRead(browser, path, false);
}

/** FORMATS' label of the native format, the button to press if the studio asks for a format. */
const NATIVE_LABEL = "Rollout Studio JSONL";
let warnedPrompt = false;

const COUNTS = /^([\d,]+) rollouts in ([\d,]+) groups(.*)$/;

export async function loadOnce(
  browser: Browser,
  url: string,
  file: DataFile,
  options: LoadOptions,
): Promise<LoadRun | null> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("crash", () => problems.push("the page crashed"));
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") log(`  console.error: ${message.text()}`);
  });
  const wait = { timeout: options.timeoutMs, polling: 50 } as const;
  try {
    await page.goto(`${url}/`);
    await page.getByTestId("drop-zone.root").waitFor({ state: "visible" });
    // Record long tasks.
    await page.evaluate(() => {
      const w = window as BenchWindow;
      const tasks: { start: number; duration: number }[] = [];
      w.__benchLongTasks = tasks;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) tasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: "longtask", buffered: true });
    });
    const mainBefore = options.heap ? await mainHeap(page) : NaN;
    // The drop zone's input: stable id `file-input` (README "Stable test ids").
    await page.getByTestId("file-input").setInputFiles(file.path);
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
    let prompted = false;
    if ((await first.jsonValue()) === "error") {
      // The studio asks which format this is (as it did before renameStepKey). Answer "native" as a
      // user would; the timings then start at the answer, with a warm worker (formatPrompted).
      const message = (await page.getByTestId("load.error").getByRole("alert").innerText()).trim();
      const native = page.getByTestId("load.read-as").filter({ hasText: NATIVE_LABEL });
      if ((await native.count()) !== 1) throw new Error(`load error: ${message}`);
      prompted = true;
      if (!warnedPrompt) {
        warnedPrompt = true;
        log(`  the studio asked for the format ("${message}"); choosing ${NATIVE_LABEL}`);
      }
      await native.click();
      await page.waitForFunction(
        () => performance.getEntriesByName("first-group-painted").length > 0,
        undefined,
        wait,
      );
    }
    await page.waitForFunction(
      () => performance.getEntriesByName("index-done").length > 0,
      undefined,
      wait,
    );
    const counts = page.getByTestId("dataset.counts");
    await counts.waitFor({ state: "visible", timeout: options.timeoutMs });
    await page
      .getByTestId("group.detail")
      .waitFor({ state: "visible", timeout: options.timeoutMs });
    const countsText = (await counts.innerText()).trim();
    const issuesText = (await page.getByTestId("dataset.issue-count").innerText()).trim();
    const { marks, tasks } = await page.evaluate(() => ({
      marks: performance.getEntriesByType("mark").map((m) => [m.name, m.startTime] as const),
      tasks: (window as BenchWindow).__benchLongTasks ?? [],
    }));
    // Map keeps the last of repeated names: the load that showed the group (after a format prompt).
    const at = new Map(marks);
    const selected = at.get("file-selected")!;
    const indexDone = at.get("index-done")!;
    const match = COUNTS.exec(countsText);
    let heap: HeapReading | undefined;
    if (options.heap) {
      const main = await mainHeap(page);
      const worker = await workerHeap(browser, page);
      if (worker === null) log("  no load worker found: worker heap not measured");
      const w = worker ?? { used: 0, arrayBuffers: 0 };
      heap = {
        main,
        mainBefore,
        worker: w.used,
        workerArrayBuffers: w.arrayBuffers,
        total: main + w.used + w.arrayBuffers,
      };
    }
    const byob = options.byob ? await byobRead(browser, file.path) : undefined;
    if (problems.length > 0) throw new Error(problems.join("; "));
    return {
      ttfgMs: at.get("first-group-painted")! - selected,
      committedMs: at.get("first-group-committed")! - selected,
      indexMs: indexDone - selected,
      rollouts: match === null ? NaN : Number(match[1]!.replaceAll(",", "")),
      groups: match === null ? NaN : Number(match[2]!.replaceAll(",", "")),
      countsText,
      issuesText,
      prompted,
      longTasks: tasks
        .filter((t) => t.start >= selected && t.start <= indexDone)
        .map((t) => t.duration),
      ...(heap === undefined ? {} : { heap }),
      ...(byob === undefined ? {} : { byobMs: byob.ms, byobBytes: byob.bytes }),
    };
  } catch (e) {
    const message = e instanceof Error ? e.message.split("\n")[0]! : String(e);
    check(false, `${file.label}: ${[...problems, message].join("; ")}`);
    return null;
  } finally {
    await context.close().catch(() => undefined);
  }
}

/** Every row accounted for: the studio's counts equal what was written, and nothing is flagged. */
export function checkCounts(file: DataFile, run: LoadRun): void {
  check(
    run.rollouts === file.rows && run.groups === file.groups,
    `${file.label}: the dataset bar says "${run.countsText}", but ${file.rows} rows in ${file.groups} groups were written`,
  );
  check(
    run.issuesText === "No issues",
    `${file.label}: "${run.issuesText}" for a file with no bad rows`,
  );
}
