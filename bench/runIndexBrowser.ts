/**
 * Issue 14's "indexing a 100-file run of 2 GB" in Chromium (`npm run bench:browser -- --run-index`,
 * `--run-index-only`): the generated verl run of bench/runData.ts (100 step files, 2 GB) chosen in
 * the built studio's folder input, timed from `file-selected` to `index-done` (the load worker's
 * run index, its files indexed by the nested index workers), against reading the same 100 Files'
 * bytes (BYOB, one reused 1 MB buffer, one file after another) in a blank page of a context of its
 * own. Runs alternate (index, read, index, read, ...); each in a fresh context.
 */
import { loadavg } from "node:os";
import type { Browser } from "playwright-core";

import { verlRunFolder } from "./runData.ts";

const CHUNK = 1 << 20;

export interface RunIndexBench {
  readonly indexMs: number[];
  readonly readMs: number[];
  readonly bytes: number;
  readonly files: number;
  readonly fingerprint: string;
  readonly cores: number;
  readonly loadAverage: number[];
  readonly checks: string[];
}

async function indexOnce(
  browser: Browser,
  url: string,
  dir: string,
): Promise<{ ms: number; rollouts: number; groups: number; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("crash", () => errors.push("the page crashed"));
    await page.goto(`${url}/`);
    await page.getByTestId("drop-zone.root").waitFor({ state: "visible" });
    await page.getByTestId("folder-input").setInputFiles(dir);
    await page.waitForFunction(
      () => performance.getEntriesByName("index-done").length > 0,
      undefined,
      {
        timeout: 300_000,
        polling: 50,
      },
    );
    const summary = page.getByTestId("dataset-summary");
    await summary.waitFor();
    const [rollouts, groups] = await Promise.all(
      ["data-rollouts", "data-groups"].map(async (a) => Number(await summary.getAttribute(a))),
    );
    const ms = await page.evaluate(
      () =>
        performance.getEntriesByName("index-done").at(-1)!.startTime -
        performance.getEntriesByName("file-selected").at(-1)!.startTime,
    );
    return { ms, rollouts: rollouts!, groups: groups!, errors };
  } finally {
    await context.close().catch(() => undefined);
  }
}

/**
 * Bytes-only read of files (the index metrics' baseline): BYOB reader, one reused 1 MB buffer, in
 * a blank page of a context of its own; `path` is one file, or a folder read file after file.
 */
export async function blankPageRead(
  browser: Browser,
  path: string,
  folder: boolean,
): Promise<{ ms: number; bytes: number }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.setContent(
      `<input type="file" id="bench-file"${folder ? " webkitdirectory multiple" : ""}>`,
    );
    await page.locator("#bench-file").setInputFiles(path);
    return await page.evaluate(async (chunk) => {
      const input = document.getElementById("bench-file") as HTMLInputElement;
      const files = [...(input.files ?? [])];
      if (files.length === 0) throw new Error("the bench's file input holds no file");
      let buffer = new ArrayBuffer(chunk);
      let bytes = 0;
      const start = performance.now();
      for (const file of files) {
        const reader = file.stream().getReader({ mode: "byob" });
        for (;;) {
          const { value, done } = await reader.read(new Uint8Array(buffer, 0, chunk));
          // The buffer comes back even with the end (empty): the next file reads into it.
          if (value !== undefined) buffer = value.buffer;
          if (done || value === undefined) break;
          bytes += value.byteLength;
        }
      }
      return { ms: performance.now() - start, bytes };
    }, CHUNK);
  } finally {
    await context.close().catch(() => undefined);
  }
}

export async function benchRunIndex(
  browser: Browser,
  url: string,
  rounds: number,
  log: (message: string) => void,
): Promise<RunIndexBench> {
  const run = verlRunFolder(100, 2e9, 400);
  const checks: string[] = [];
  const indexMs: number[] = [];
  const readMs: number[] = [];
  const cores = await (async () => {
    const context = await browser.newContext();
    try {
      return await (await context.newPage()).evaluate(() => navigator.hardwareConcurrency);
    } finally {
      await context.close();
    }
  })();
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? ["index", "read"] : ["read", "index"];
    for (const what of order) {
      if (what === "index") {
        const i = await indexOnce(browser, url, run.dir);
        if (i.errors.length > 0) checks.push(`run index: page errors ${i.errors.join("; ")}`);
        if (i.rollouts !== run.rows || i.groups !== run.groups)
          checks.push(
            `run index: ${i.rollouts} rollouts in ${i.groups} groups, expected ${run.rows} in ${run.groups}`,
          );
        indexMs.push(i.ms);
        log(`  run index ${Math.round(i.ms)} ms (${Math.round(run.bytes / 1e3 / i.ms)} MB/s)`);
      } else {
        const b = await blankPageRead(browser, run.dir, true);
        if (b.bytes !== run.bytes) checks.push(`bytes-only read ${b.bytes}, expected ${run.bytes}`);
        readMs.push(b.ms);
        log(
          `  bytes-only read ${Math.round(b.ms)} ms (${Math.round(run.bytes / 1e3 / b.ms)} MB/s)`,
        );
      }
    }
  }
  return {
    indexMs,
    readMs,
    bytes: run.bytes,
    files: run.files,
    fingerprint: run.fingerprint,
    cores,
    loadAverage: loadavg(),
    checks,
  };
}
