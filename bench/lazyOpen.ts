/**
 * T10 (performance.md §9): opening a group whose rows are not parsed yet, in a file the studio
 * indexed instead of reading whole. The file is loaded once; then groups are opened one after the
 * other from the group list. For each, the studio's `group-parsed` measure (request to rows parsed:
 * the worker reads the group's byte ranges from the File and parses them) is the value; the
 * baseline is the simplest main-thread read of the same bytes in the same page: `Blob.slice` of
 * the group's span, `text()`, and `JSON.parse` per line. The time from the click to the group's
 * columns painted is logged too (it includes rendering up to 8 transcripts).
 */
import type { Browser } from "playwright-core";

interface LazyWindow extends Window {
  __lazyFile?: File;
}

/** A group's contiguous byte span in the file (the bench's generated files keep groups contiguous). */
export interface GroupSpan {
  readonly start: number;
  readonly end: number;
  readonly rows: number;
}

export interface LazyOpenResult {
  /** ms from request to rows parsed, per first open. */
  readonly parsed: readonly number[];
  /** ms for the main-thread slice + text + JSON.parse baseline, per group. */
  readonly baseline: readonly number[];
  /** ms from the click to the columns painted, per first open. */
  readonly painted: readonly number[];
  /** Bytes of each opened group. */
  readonly bytes: readonly number[];
  readonly groups: readonly string[];
  readonly problems: readonly string[];
}

/**
 * @param path a JSONL file large enough to be indexed (>= the studio's index threshold, 32 MB)
 * @param spans each group's byte span, by group id
 * @param opens how many groups to open (the first rows of the list, skipping the one already open)
 */
export async function benchLazyOpen(
  browser: Browser,
  url: string,
  path: string,
  spans: ReadonlyMap<string, GroupSpan>,
  opens = 15,
): Promise<LazyOpenResult> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("crash", () => problems.push("the page crashed"));
  const parsed: number[] = [];
  const baseline: number[] = [];
  const painted: number[] = [];
  const bytes: number[] = [];
  const groups: string[] = [];
  try {
    await page.goto(`${url}/`);
    await page.getByTestId("drop-zone.root").waitFor({ state: "visible" });
    await page.evaluate(() => {
      document.addEventListener(
        "change",
        (event) => {
          const chosen = (event.target as HTMLInputElement).files?.[0];
          if (chosen !== undefined) (window as LazyWindow).__lazyFile = chosen;
        },
        true,
      );
    });
    await page.getByTestId("file-input").setInputFiles(path);
    await page.waitForFunction(
      () => performance.getEntriesByName("index-done").length > 0,
      undefined,
      { timeout: 120_000, polling: 50 },
    );
    await page.getByTestId("group.detail").waitFor({ state: "visible", timeout: 120_000 });
    const open = (await page.getByTestId("group.detail").getAttribute("aria-label")) ?? "";
    const ids = await page
      .getByTestId("group-row")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-group-id") ?? ""));
    for (const id of ids) {
      if (groups.length >= opens) break;
      if (id === "" || `Group ${id}` === open || !spans.has(id)) continue;
      groups.push(id);
    }
    for (const id of groups) {
      const span = spans.get(id)!;
      const clicked = Date.now();
      await page.locator(`[data-testid="group-row"][data-group-id="${id}"] td`).nth(1).click();
      const ms = await page.waitForFunction(
        (groupId) =>
          performance
            .getEntriesByName("group-parsed")
            .find(
              (e) =>
                ((e as PerformanceMeasure).detail as { groupId?: string } | null)?.groupId ===
                groupId,
            )?.duration ?? false,
        id,
        { timeout: 60_000, polling: 10 },
      );
      parsed.push(Number(await ms.jsonValue()));
      await page
        .locator(
          `[data-testid="group.detail"][aria-label="Group ${id}"] [data-testid="rollout-column"]`,
        )
        .first()
        .waitFor({ state: "visible", timeout: 60_000 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
      painted.push(Date.now() - clicked);
      bytes.push(span.end - span.start);
      baseline.push(
        await page.evaluate(async ({ start, end }) => {
          const file = (window as LazyWindow).__lazyFile!;
          const t0 = performance.now();
          const text = await file.slice(start, end).text();
          let rows = 0;
          for (const line of text.split("\n")) if (line !== "" && JSON.parse(line) !== null) rows++;
          return rows > 0 ? performance.now() - t0 : NaN;
        }, span),
      );
    }
  } catch (e) {
    problems.push(e instanceof Error ? e.message.split("\n")[0]! : String(e));
  } finally {
    await context.close().catch(() => undefined);
  }
  return { parsed, baseline, painted, bytes, groups, problems };
}
