/**
 * Covers: the bundled demo dataset (generated at build time by scripts/generate-demo.ts) opens from
 * the drop zone and from `?demo`, as `npm start` opens it on start.
 */
import { describe, expect, test } from "./harness/test.ts";

describe("demo dataset", () => {
  test("opens from the drop zone: 40 support groups, no issues", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await loaderPage.open(baseUrl);
    await page.getByTestId("drop-zone.demo").click();
    const ids = await loaderPage.groupIds();
    expect(ids).toHaveLength(40);
    expect(await loaderPage.counts.innerText()).toContain("226 rollouts in 40 groups");
    expect(await loaderPage.issueCount.innerText()).toBe("No issues");
    expect(await loaderPage.readAs.inputValue()).toBe("native");
    expect(await page.getByTestId("rollout-column").count()).toBeGreaterThanOrEqual(4);
    expect(pageErrors.list).toEqual([]);
  });

  test("opens on start with ?demo", async ({ baseUrl, loaderPage, pageErrors }) => {
    await loaderPage.page.goto(`${baseUrl}/?demo`);
    expect(await loaderPage.groupIds()).toHaveLength(40);
    expect(pageErrors.list).toEqual([]);
  });
});
