/**
 * Covers (issue 14, "indexing a 100-file run of 2 GB"): a large run's files are indexed by index
 * workers nested in the load worker (src/workers/browserIndexPool.ts, index.worker.ts), in the
 * built app. A verl step folder opened with `?index-threshold=0` (so a small run takes the large
 * run's path) starts the nested workers, gives the same counts and steps as the same folder read
 * whole, and a group of its last file opens on demand with its rollouts under their run ids; no
 * issue, no page error.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { writeVerlFolder } from "../src/test/runFixtures.ts";
import { describe, expect, test } from "./harness/test.ts";
import { GroupView } from "./pages/GroupView.ts";

const STEPS = [1, 2, 3, 4, 5, 6, 7, 8];
const verl = join(mkdtempSync(join(tmpdir(), "rs-run-index-pool-")), "rollout_data_dir");
writeVerlFolder(verl, STEPS);

async function counts(page: Page): Promise<(string | null)[]> {
  const summary = page.getByTestId("dataset-summary");
  await summary.waitFor();
  return Promise.all(
    ["data-steps", "data-groups", "data-rollouts"].map((a) => summary.getAttribute(a)),
  );
}

describe("a large run indexed by nested index workers", () => {
  test("the index workers start, and the run equals the run read whole", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    // Playwright reports the page's own workers only; a nested worker shows as its script's request.
    const requests: string[] = [];
    page.context().on("request", (r) => requests.push(r.url()));
    await loaderPage.open(baseUrl);
    await page.getByTestId("folder-input").setInputFiles(verl);
    const whole = await counts(page);
    expect(whole).toEqual([
      String(STEPS.length),
      String(2 * STEPS.length),
      String(8 * STEPS.length),
    ]);
    expect(requests.some((u) => /index\.worker/.test(u))).toBe(false);

    // Not loaderPage.open: it appends "/" to the URL, which would spoil the number.
    await page.goto(`${baseUrl}/?index-threshold=0`);
    await loaderPage.dropZone.waitFor({ state: "visible" });
    await page.getByTestId("folder-input").setInputFiles(verl);
    expect(await counts(page)).toEqual(whole);
    await expect
      .poll(() => requests.filter((u) => /index\.worker/.test(u)).length)
      .toBeGreaterThan(0);
    expect(await page.getByTestId("load-issues").textContent()).toBe("0");

    // A group of the last file, parsed when it is opened: its four rollouts, under its run id.
    await page.getByTestId("groups.size-toggle").click();
    const id = await page.getByTestId("group-row").last().getAttribute("data-group-id");
    expect(id).toMatch(new RegExp(`^${STEPS.at(-1)}/`));
    const group = new GroupView(page);
    await group.open(id!);
    await expect.poll(() => group.columns.count()).toBe(4);
    expect(await group.columnIds()).toEqual([0, 1, 2, 3].map((i) => `${id}/${i}`));
    expect(pageErrors.list).toEqual([]);
  });
});
