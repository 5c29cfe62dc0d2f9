/**
 * Covers: issue 16, point 3, "huge rows stay cheap", on the "few huge rows" shape: one ~50 MB
 * completion among small rollouts (generated into a temporary folder; nothing big is committed).
 * The huge text is folded with its size, opens in pieces, and its search finds a match near its
 * end; the Rollouts, Metrics and Divergence tabs and the Dataset overview answer with the group
 * open, and Metrics and Divergence say the text was cut to the setting's bound.
 *
 * Long tasks are measured in the page (a PerformanceObserver for "longtask") and printed, not
 * asserted: on this shared 2-core machine their length is noise (see performance.md, "Noise").
 * Screenshots of the folded and opened text at 1440x900 and 1280x720 go to
 * e2e/.artifacts/huge-row/.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";

const MARKER = "LATE-MARKER-7731";
const LINE = "The policy kept writing: the same paragraph again, and again, and again.\n";
/** A generous bound for a tab to answer: correctness, not timing (the machine is shared). */
const ANSWER_MS = 30_000;

let dir = "";
let file = "";

/** Ten small groups and group "huge", whose second rollout's completion is ~50 MB. */
async function writeHugeFile(): Promise<void> {
  dir = await mkdtemp(join(tmpdir(), "huge-row-"));
  file = join(dir, "huge-row.jsonl");
  const lines: string[] = [];
  for (let g = 0; g < 10; g++)
    for (let i = 0; i < 4; i++)
      lines.push(
        JSON.stringify({
          group_id: `small-${g}`,
          completion: `answer ${i} of group ${g}: ${"short text ".repeat(5 + i)}`,
          reward: i % 2,
        }),
      );
  const body = LINE.repeat(Math.ceil(50_000_000 / LINE.length));
  const at = body.length - 4_000;
  const huge = `${body.slice(0, at)}${MARKER}${body.slice(at)}`;
  for (let i = 0; i < 4; i++)
    lines.push(
      JSON.stringify({
        group_id: "huge",
        completion: i === 1 ? huge : `small answer ${i} ${"word ".repeat(10 * i)}`,
        reward: i === 1 ? 1 : i % 2,
      }),
    );
  await writeFile(file, `${lines.join("\n")}\n`);
}

/** Starts recording long tasks in the page, before any of its scripts run. */
async function observeLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration);
    }).observe({ type: "longtask", buffered: true });
  });
}

/** The longest task since the last call (0 when none), and clears the record. */
async function longestTask(page: Page): Promise<number> {
  return page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    const longest = Math.max(0, ...w.__longTasks);
    w.__longTasks = [];
    return Math.round(longest);
  });
}

beforeAll(writeHugeFile, 120_000);
afterAll(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true });
});

describe("huge rows stay cheap", () => {
  test("a 50 MB completion: folded with its size, read in pieces, searched to its end; tabs answer", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await observeLongTasks(page);
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.goto(baseUrl);
    await loaderPage.choose(file);
    await page
      .locator('[data-testid="group-row"][data-group-id="huge"]')
      .waitFor({ timeout: ANSWER_MS });
    const timings: Record<string, number> = { load: await longestTask(page) };

    await page
      .locator('[data-testid="group-row"][data-group-id="huge"]')
      .getByTestId("groups.row.id")
      .click();
    const label = page.getByTestId("huge-text.label");
    await label.waitFor({ timeout: ANSWER_MS });
    await page.waitForFunction(
      () =>
        /MB text/.test(
          document.querySelector('[data-testid="huge-text.label"]')?.textContent ?? "",
        ),
      undefined,
      { timeout: ANSWER_MS },
    );
    expect(await label.innerText()).toMatch(
      /^50\.0 MB text, shown in pieces \(50,000,0\d\d characters\)$/,
    );
    // Folded, the column holds the head only: nowhere near 50 MB of text in the DOM.
    const columnChars = await page
      .getByTestId("rollout-column")
      .evaluateAll((els) => els.reduce((n, e) => n + (e.textContent ?? "").length, 0));
    expect(columnChars).toBeLessThan(20_000);
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor({
      timeout: ANSWER_MS,
    });
    timings["open group"] = await longestTask(page);
    await mkdir(`${ARTIFACTS_DIR}huge-row`, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS_DIR}huge-row/folded-1440x900.png` });

    // Opened: a piece at a time, a bounded number of rows in the DOM.
    await page.getByTestId("huge-text.toggle").click();
    await page.getByTestId("huge-text.view").waitFor();
    const rows = await page.getByTestId("huge-text.row").count();
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThan(120);
    expect(await page.getByTestId("huge-text.piece").innerText()).toMatch(/^piece 1 of 51$/);
    expect(await page.getByTestId("huge-text.piece").getAttribute("title")).toBe(
      "Characters 1 to 1,000,000 of 50,000,052",
    );
    timings["open text"] = await longestTask(page);

    // The search finds the one match near the end, in the last piece, and scrolls to it.
    await page.getByTestId("huge-text.search").fill(MARKER.toLowerCase());
    await page.getByTestId("huge-text.search").press("Enter");
    await page.waitForFunction(
      () => document.querySelector('[data-testid="huge-text.status"]')?.textContent === "1 of 1",
      undefined,
      { timeout: ANSWER_MS },
    );
    const current = page.getByTestId("huge-text.current");
    await current.waitFor({ timeout: ANSWER_MS });
    expect(await current.innerText()).toBe(MARKER);
    expect(await current.isVisible()).toBe(true);
    expect(await page.getByTestId("huge-text.piece").getAttribute("data-piece")).toBe("50");
    timings.search = await longestTask(page);
    await page.screenshot({ path: `${ARTIFACTS_DIR}huge-row/opened-1440x900.png` });

    // Every tab answers with the largest rollout open; Metrics and Divergence say what they cut.
    await page.getByTestId("workspace.tab.metrics").click();
    const metricsCut = page.getByTestId("metrics.texts-cut");
    await metricsCut.waitFor({ timeout: ANSWER_MS });
    expect(await metricsCut.innerText()).toBe(
      "1 text cut to 200,000 characters for the clusters (each read by its first characters only)",
    );
    await page.getByTestId("metrics.clusters").waitFor({ timeout: ANSWER_MS });
    timings.metrics = await longestTask(page);

    await page.getByTestId("workspace.tab.divergence").click();
    await page.getByTestId("divergence.view").waitFor({ timeout: ANSWER_MS });
    expect(await page.getByTestId("divergence.texts-cut").innerText()).toBe(
      "1 text cut to 200,000 characters before comparing steps",
    );
    // A step's text is shown cut, never its 50 MB.
    const divergenceChars = await page
      .getByTestId("divergence.view")
      .evaluate((e) => (e.textContent ?? "").length);
    expect(divergenceChars).toBeLessThan(50_000);
    timings.divergence = await longestTask(page);

    await page.getByTestId("workspace.tab.rollouts").click();
    await page.getByTestId("huge-text.label").waitFor({ timeout: ANSWER_MS });
    timings.rollouts = await longestTask(page);

    await page.getByTestId("workspace.tab.metrics").click();
    await page.getByTestId("metrics.panel").waitFor({ timeout: ANSWER_MS });
    await page.getByTestId("workspace.tab.divergence").click();
    await page.getByTestId("divergence.view").waitFor({ timeout: ANSWER_MS });
    await page.getByTestId("workspace.tab.rollouts").click();
    await page.getByTestId("huge-text.label").waitFor({ timeout: ANSWER_MS });
    timings["tabs again"] = await longestTask(page);

    await page.getByTestId("panel.toggle.overview").click();
    await page.getByTestId("overview").waitFor({ state: "visible", timeout: ANSWER_MS });
    timings.overview = await longestTask(page);

    // The same views at 1280x720.
    await page.getByTestId("panel.toggle.overview").click();
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: `${ARTIFACTS_DIR}huge-row/folded-1280x720.png` });
    await page.getByTestId("huge-text.toggle").click();
    await page.getByTestId("huge-text.view").waitFor();
    await page.screenshot({ path: `${ARTIFACTS_DIR}huge-row/opened-1280x720.png` });
    await page.setViewportSize({ width: 1440, height: 900 });

    // A baseline on this machine: the same tab switches with a small group open.
    await page.getByTestId("groups.size-toggle").click();
    await page
      .locator('[data-testid="group-row"][data-group-id="small-0"]')
      .getByTestId("groups.row.id")
      .click();
    await page.getByTestId("group.detail").getByText("Group small-0").waitFor();
    await longestTask(page);
    for (const [tab, shown] of [
      ["metrics", "metrics.panel"],
      ["divergence", "divergence.view"],
      ["rollouts", "rollout-column"],
    ] as const) {
      await page.getByTestId(`workspace.tab.${tab}`).click();
      await page.getByTestId(shown).first().waitFor({ timeout: ANSWER_MS });
      timings[`small group: ${tab}`] = await longestTask(page);
    }

    // Recorded, not asserted (issue 16's target: no task over 50 ms while switching tabs).
    console.log(
      `huge-row: longest main-thread task (ms) per step: ${Object.entries(timings)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    );
    expect(pageErrors.list).toEqual([]);
  }, 240_000);
});
