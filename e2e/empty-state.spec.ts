/**
 * Covers: the first screen of the built app. The header and drop zone render with an accessible
 * "Choose file", and the page logs no errors (which includes Content-Security-Policy violations).
 */
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";

describe("empty state", () => {
  test("shows the drop zone and nothing else", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await loaderPage.open(baseUrl);
    expect(await loaderPage.header.innerText()).toContain("Rollout Studio");
    const text = await loaderPage.dropZone.innerText();
    expect(text).toContain("Drop a rollout file, several, or a run's folder here");
    expect(text).toContain("nothing is uploaded");
    expect(await loaderPage.chooseFileButton.isVisible()).toBe(true);
    expect(await page.getByTestId("folder-input").count()).toBe(1);
    expect(await page.getByTestId("groups.table").count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS_DIR}empty-state.png`, fullPage: true });
    expect(pageErrors.list).toEqual([]);
  });
});
