/**
 * Covers (issue 14): a run opened without a server. A verl step folder through "Choose folder"
 * (a directory input) and a TRL completions run of Parquet files through the multi-file input
 * open as one dataset with every step; the Step column sorts and the step filter narrows, both in
 * the URL; `dataset-summary` carries the run's counts; no page errors. Screenshots of the group
 * browser with a run open at 1440x900 and 1280x720 go to e2e/.artifacts/.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { trlParquet, writeVerlFolder } from "../src/test/runFixtures.ts";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";

const root = mkdtempSync(join(tmpdir(), "rs-run-folder-"));
const verl = join(root, "rollout_data_dir");
writeVerlFolder(verl, [1, 2, 10]);
const trl = join(root, "completions");
mkdirSync(trl);
const trlFiles = [10, 20].map((step) => {
  const path = join(trl, `completions_${String(step).padStart(5, "0")}.parquet`);
  writeFileSync(path, trlParquet(step));
  return path;
});

describe("a run of many files", () => {
  test("a verl step folder opens as one run; Step column and step filter in the URL", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await loaderPage.open(baseUrl);
    await page.getByTestId("folder-input").setInputFiles(verl);
    const summary = page.getByTestId("dataset-summary");
    await summary.waitFor();
    expect(await summary.getAttribute("data-steps")).toBe("3");
    expect(await summary.getAttribute("data-groups")).toBe("6");
    expect(await summary.getAttribute("data-rollouts")).toBe("24");
    expect(await page.getByTestId("dataset.run").textContent()).toBe("run of 3 files, 3 steps");
    await page.getByTestId("groups.size-toggle").click();

    const steps = async (): Promise<string[]> =>
      page.getByTestId("groups.row.step").allTextContents();
    expect(await steps()).toEqual(["1", "1", "2", "2", "10", "10"]);

    await page.getByTestId("groups.sort.step").click();
    await page.getByTestId("groups.sort.step").click();
    await page.waitForURL(/sort=step%3Adesc|sort=step:desc/);
    expect(await steps()).toEqual(["10", "10", "2", "2", "1", "1"]);

    await page.getByTestId("filter-step").selectOption("2");
    await page.waitForURL(/[?&]step=2(&|$)/);
    await page.getByTestId("filter-count").getByText("2 of 6 groups").waitFor();
    expect(await steps()).toEqual(["2", "2"]);

    // A link with a range opens filtered.
    const url = new URL(page.url());
    url.searchParams.delete("step");
    url.searchParams.set("steps", "2-10");
    await page.goto(url.toString());
    await page.getByTestId("folder-input").setInputFiles(verl);
    await page.getByTestId("filter-count").getByText("4 of 6 groups").waitFor();
    expect(await page.getByTestId("filter-step").inputValue()).toBe("2-10");

    await page.getByTestId("groups.size-toggle").click();
    for (const [width, height] of [
      [1440, 900],
      [1280, 720],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: `${ARTIFACTS_DIR}run-folder-${width}x${height}.png` });
    }
    expect(pageErrors.list).toEqual([]);
  });

  test("a TRL completions run of Parquet files opens with every step", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await loaderPage.open(baseUrl);
    await loaderPage.fileInput.setInputFiles(trlFiles);
    const summary = page.getByTestId("dataset-summary");
    await summary.waitFor();
    expect(await summary.getAttribute("data-steps")).toBe("2");
    expect(await summary.getAttribute("data-groups")).toBe("4");
    expect(await summary.getAttribute("data-rollouts")).toBe("10");
    expect(await page.getByTestId("dataset.run").textContent()).toBe("run of 2 files, 2 steps");
    await page.getByTestId("groups.size-toggle").click();
    expect(await page.getByTestId("groups.row.step").allTextContents()).toEqual([
      "10",
      "10",
      "20",
      "20",
    ]);
    expect(pageErrors.list).toEqual([]);
  });

  test("a run indexed file by file (?index-threshold=0) opens each group on demand", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await loaderPage.open(`${baseUrl}/?index-threshold=0`);
    await page.getByTestId("folder-input").setInputFiles(verl);
    const summary = page.getByTestId("dataset-summary");
    await summary.waitFor();
    expect(await summary.getAttribute("data-steps")).toBe("3");
    expect(await summary.getAttribute("data-rollouts")).toBe("24");
    await page.getByTestId("groups.size-toggle").click();
    // A group of the last file, parsed when it is opened: its four rollouts, under its run id.
    const row = page.getByTestId("group-row").nth(5);
    const id = await row.getAttribute("data-group-id");
    expect(id).toMatch(/^10\//);
    await row.click();
    await expect.poll(() => page.getByTestId("rollout-column").count()).toBe(4);
    const ids = await page
      .getByTestId("rollout-column")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-rollout-id")));
    expect(ids).toEqual([0, 1, 2, 3].map((i) => `${id}/${i}`));
    expect(await page.getByTestId("load-issues").textContent()).toBe("0");
    expect(pageErrors.list).toEqual([]);
  });
});
