/**
 * Covers (issue 14, points 4 and 5): the page `rollout-studio view` serves reads the run from the
 * server (range requests through the worker's indexer; no file chosen in the page) and follows it.
 * A verl step folder and a TRL completions folder of Parquet files open as runs with every step;
 * a step file written during the spec joins the open run with no reload, keeping the selected
 * group, and the live bar lists it; a line appended in two halves is read once, whole, with no
 * issue; a file rewritten shorter is read again and the page says so. No page errors.
 * Screenshots at 1440x900 and 1280x720 go to e2e/.artifacts/.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { viewStart, type ViewProcess } from "../scripts/viewProcess.ts";
import { trlParquet, verlLine, writeVerlFolder } from "../src/test/runFixtures.ts";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";

const BIN = fileURLToPath(new URL("../bin/rollout-studio.mjs", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "rs-view-run-"));
const verl = join(root, "rollout_data_dir");
writeVerlFolder(verl, [1, 2, 3]);
const trl = join(root, "trl", "completions");
mkdirSync(trl, { recursive: true });
for (const step of [10, 20, 30])
  writeFileSync(
    join(trl, `completions_${String(step).padStart(5, "0")}.parquet`),
    trlParquet(step),
  );

/** A run for the ranking test, whose annotations.json starts absent. */
const ranked = join(root, "ranked");
writeVerlFolder(ranked, [1, 2]);
const state = join(root, "ranked-state");

/** One native JSONL, indexed (`?index-threshold=0`) as a large file is, and appended to. */
const dump = join(root, "dump", "rollouts.jsonl");
mkdirSync(join(root, "dump"));
const nativeRow = (group: string, i: number, reward: number): string =>
  JSON.stringify({ group_id: group, prompt: `prompt ${group}`, completion: `answer ${i}`, reward });
writeFileSync(
  dump,
  `${[0, 1, 2, 3].map((i) => nativeRow("g0", i, i % 2)).join("\n")}\n${[0, 1, 2, 3]
    .map((i) => nativeRow("g1", i, 1))
    .join("\n")}\n`,
);

let dumpView: ViewProcess;
let verlView: ViewProcess;
let trlView: ViewProcess;
let rankedView: ViewProcess;

const start = (dir: string, ...extra: string[]): Promise<ViewProcess> =>
  viewStart(process.execPath, [BIN, "view", dir, "--port", "0", "--no-open", ...extra]);

beforeAll(async () => {
  [dumpView, verlView, trlView, rankedView] = await Promise.all([
    start(dump),
    start(verl),
    start(join(root, "trl")),
    start(ranked, "--state", state),
  ]);
});

afterAll(async () => {
  expect(await dumpView.stop("SIGTERM")).toBe(0);
  expect(await verlView.stop("SIGTERM")).toBe(0);
  expect(await trlView.stop("SIGTERM")).toBe(0);
  expect(await rankedView.stop("SIGTERM")).toBe(0);
});

interface AnalyzedRollout {
  readonly id: string;
  readonly garAdvantage?: number;
}

/** The dataset summary's counts, as the page shows them. */
async function counts(page: Page): Promise<{ rollouts: string; groups: string; steps: string }> {
  const summary = page.getByTestId("dataset-summary");
  return {
    rollouts: (await summary.getAttribute("data-rollouts")) ?? "",
    groups: (await summary.getAttribute("data-groups")) ?? "",
    steps: (await summary.getAttribute("data-steps")) ?? "",
  };
}

/** Wait until the summary's attribute has the value (the page follows the run on its own). */
async function summaryBecomes(page: Page, attribute: string, value: string): Promise<void> {
  await page.waitForFunction(
    ([a, v]) => document.querySelector('[data-testid="dataset-summary"]')?.getAttribute(a!) === v,
    [attribute, value],
    { timeout: 20_000 },
  );
}

describe("a run read from the view server", () => {
  test("a verl step folder opens with every step, and follows new steps and lines", async ({
    page,
    pageErrors,
  }) => {
    await page.goto(`${verlView.origin}/?token=${verlView.token!}`);
    await page.getByTestId("dataset-summary").waitFor();
    expect(await counts(page)).toEqual({ rollouts: "24", groups: "6", steps: "3" });
    expect(await page.getByTestId("dataset.run").textContent()).toBe("run of 3 files, 3 steps");
    expect(await page.getByTestId("dataset.live").isVisible()).toBe(true);
    expect(new URL(page.url()).searchParams.get("run")).toContain("rollout_data_dir");

    // Select the second group: following must not move the selection.
    await page.getByTestId("groups.size-toggle").click();
    const second = page.getByTestId("group-row").nth(1);
    const secondId = await second.getAttribute("data-group-id");
    await second.click();
    await page.waitForURL((url) => url.searchParams.get("group") === secondId);

    // A new step file: its groups join the run, the live bar names them.
    const step4 = [0, 1, 2, 3].map((i) => verlLine(4, "Solve 2+2.", 1, i));
    step4.push(...[0, 1, 2, 3].map((i) => verlLine(4, "What is 3*5?", i % 2, i)));
    writeFileSync(join(verl, "4.jsonl"), `${step4.join("\n")}\n`);
    await summaryBecomes(page, "data-steps", "4");
    expect(await counts(page)).toEqual({ rollouts: "32", groups: "8", steps: "4" });
    expect(await page.getByTestId("live.arrived").getAttribute("data-count")).toBe("2");
    // The all-pass group of step 4 is zero-std: listed as such.
    expect(await page.getByTestId("live.zero-std").getAttribute("data-count")).toBe("1");
    expect(new URL(page.url()).searchParams.get("group")).toBe(secondId);
    expect(await page.getByTestId("group-row").nth(1).getAttribute("aria-selected")).toBe("true");

    // A line appended in two halves: nothing and no issue after the first, one rollout after both.
    const line = verlLine(4, "Solve 2+2.", 0, 9);
    appendFileSync(join(verl, "4.jsonl"), line.slice(0, 25));
    await page.getByTestId("live.held-back").waitFor({ timeout: 20_000 });
    expect(await counts(page)).toEqual({ rollouts: "32", groups: "8", steps: "4" });
    expect(await page.getByTestId("load-issues").textContent()).toBe("0");
    appendFileSync(join(verl, "4.jsonl"), `${line.slice(25)}\n`);
    await summaryBecomes(page, "data-rollouts", "33");
    expect(await page.getByTestId("load-issues").textContent()).toBe("0");
    expect(await page.getByTestId("live.held-back").count()).toBe(0);

    for (const [width, height] of [
      [1440, 900],
      [1280, 720],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: `${ARTIFACTS_DIR}view-run-${width}x${height}.png` });
    }

    // A file rewritten shorter is read again from the start, and the page says so.
    writeFileSync(join(verl, "4.jsonl"), `${step4.slice(0, 4).join("\n")}\n`);
    await summaryBecomes(page, "data-rollouts", "28");
    await page
      .getByTestId("live.notice")
      .getByText(/4\.jsonl/)
      .waitFor();

    // Read as a format that does not fit: the error offers the formats, and one reads the run again.
    await page.getByTestId("dataset.read-as").selectOption("openai");
    const error = page.getByTestId("load.error");
    await error.waitFor();
    expect(await error.getByTestId("load.map-fields").count()).toBe(0);
    await error.getByTestId("load.read-as").getByText("verl rollout dump").click();
    await summaryBecomes(page, "data-rollouts", "28");
    expect(await counts(page)).toEqual({ rollouts: "28", groups: "7", steps: "4" });
    expect(pageErrors.list).toEqual([]);
  });

  test("an indexed file grows: new rows join, the open group shows its new rollout", async ({
    page,
    pageErrors,
  }) => {
    await page.goto(`${dumpView.origin}/?token=${dumpView.token!}&index-threshold=0`);
    await page.getByTestId("dataset-summary").waitFor();
    expect(await counts(page)).toEqual({ rollouts: "8", groups: "2", steps: "0" });
    await expect.poll(() => page.getByTestId("rollout-column").count()).toBe(4);
    // Two rows for the open group g0 and a new group g2, the last line in two halves.
    const tail = nativeRow("g2", 0, 1);
    appendFileSync(dump, `${nativeRow("g0", 4, 1)}\n${tail.slice(0, 10)}`);
    await summaryBecomes(page, "data-rollouts", "9");
    await expect.poll(() => page.getByTestId("rollout-column").count()).toBe(5);
    expect(await page.getByTestId("load-issues").textContent()).toBe("0");
    appendFileSync(dump, `${tail.slice(10)}\n`);
    await summaryBecomes(page, "data-groups", "3");
    expect(await counts(page)).toEqual({ rollouts: "10", groups: "3", steps: "0" });
    expect(await page.getByTestId("live.arrived").getAttribute("data-count")).toBe("1");
    expect(await page.getByTestId("load-issues").textContent()).toBe("0");
    expect(pageErrors.list).toEqual([]);
  });

  test("a TRL completions folder of Parquet files opens with every step", async ({
    page,
    pageErrors,
  }) => {
    await page.goto(`${trlView.origin}/?token=${trlView.token!}`);
    await page.getByTestId("dataset-summary").waitFor();
    const shown = await counts(page);
    expect(shown.steps).toBe("3");
    expect(Number(shown.groups)).toBeGreaterThanOrEqual(3);
    await page.getByTestId("groups.size-toggle").click();
    const steps = await page.getByTestId("groups.row.step").allTextContents();
    expect(new Set(steps)).toEqual(new Set(["10", "20", "30"]));
    expect(await page.getByTestId("load-issues").textContent()).toBe("0");
    expect(pageErrors.list).toEqual([]);
  });

  test("a ranking made by keyboard is in annotations.json, and analyze gives the columns' GAR", async ({
    page,
    pageErrors,
  }) => {
    await page.goto(`${rankedView.origin}/?token=${rankedView.token!}`);
    await page.getByTestId("dataset-summary").waitFor();
    await page.locator('[data-testid="annotations.saved"][data-target="server"]').waitFor();
    // The first group (step 1, two passes of four) opens first; `r` focuses the ranking's first
    // pass, `a` ranks it, Down reaches the next, `a` ranks it: both passes ranked.
    const group = await page.getByTestId("group-row").first().getAttribute("data-group-id");
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    // Each key once the previous one has landed (the focus moves in the next frame).
    const focusedItem = () =>
      page.waitForFunction(
        () => (document.activeElement as HTMLElement | null)?.dataset.testid === "ranking.item",
      );
    const rankedCount = (n: number) =>
      expect
        .poll(() =>
          page.locator('[data-testid="ranking.tier"] [data-testid="ranking.item"]').count(),
        )
        .toBe(n);
    await page.keyboard.press("r");
    await focusedItem();
    await page.keyboard.press("a");
    await rankedCount(1);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("a");
    await rankedCount(2);
    await page
      .locator(
        '[data-testid="annotations.saved"][data-target="server"][data-status="saved"][data-pending="0"]',
      )
      .waitFor();
    const columns = page.getByTestId("rollout-column");
    await expect
      .poll(async () =>
        (await page.getByTestId("metric-gar-advantage").allTextContents()).filter((t) => t !== ""),
      )
      .toHaveLength(4);
    const shown = new Map<string, number>();
    for (const column of await columns.all())
      shown.set(
        (await column.getAttribute("data-rollout-id"))!,
        Number(await column.getByTestId("metric-gar-advantage").textContent()),
      );

    const out = execFileSync(
      process.execPath,
      [BIN, "analyze", ranked, "--annotations", join(state, "annotations.json"), "--json"],
      { encoding: "utf8" },
    );
    const analyzed = JSON.parse(out) as {
      groups: { id: string; gar: string; rollouts: AnalyzedRollout[] }[];
    };
    const mine = analyzed.groups.find((g) => g.id === group)!;
    expect(mine.gar).not.toBe("none");
    expect(mine.rollouts.map((r) => r.id).sort()).toEqual([...shown.keys()].sort());
    for (const r of mine.rollouts) {
      expect(r.garAdvantage).toBeDefined();
      expect(shown.get(r.id)!).toBeCloseTo(r.garAdvantage!, 3);
    }
    expect(pageErrors.list).toEqual([]);
  });

  test("a wrong token says why the run cannot be read", async ({ page, pageErrors }) => {
    await page.goto(`${verlView.origin}/?token=not-the-token-123`);
    await page.getByText(/401/).first().waitFor();
    expect(await page.getByText(/token is wrong/).count()).toBeGreaterThan(0);
    // The browser logs each refused request; nothing else may go wrong, and the page stops asking.
    const refused = /status of 401 \(Unauthorized\) \(http:\/\/[^/]+\/api\/(runs|events)/;
    expect(pageErrors.list.filter((e) => !refused.test(e))).toEqual([]);
    const seen = pageErrors.list.length;
    await page.waitForTimeout(4000);
    expect(pageErrors.list.length).toBe(seen);
  });
});
