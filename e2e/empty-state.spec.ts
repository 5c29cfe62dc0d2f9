/**
 * Covers: the first screen of the built app. Header and drop zone render, a file chosen through
 * the input is listed with its size and the honest "use the CLI" note, and the page logs no errors
 * (which includes Content-Security-Policy violations).
 */
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";

describe("empty state", () => {
  test("lists a chosen file and points to the CLI", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await loaderPage.open(baseUrl);

    expect(await loaderPage.header.isVisible()).toBe(true);
    expect(await loaderPage.header.innerText()).toContain("Rollout Studio");
    expect(await loaderPage.dropZone.innerText()).toContain("Drop a rollout file here");
    expect(await loaderPage.chooseFileButton.isVisible()).toBe(true);

    const content = '{"group_id":"g1","completion":"4","reward":1}\n'.repeat(40);
    await loaderPage.chooseFiles([
      { name: "rollouts.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(content) },
    ]);

    expect(await loaderPage.chosenFiles()).toEqual([{ name: "rollouts.jsonl", size: "1.8 kB" }]);
    expect(await loaderPage.fileList.innerText()).toContain(
      "Reading rollout files in the studio is not available in this build yet; use the CLI: npx rollout-studio analyze FILE",
    );

    await page.screenshot({ path: `${ARTIFACTS_DIR}empty-state.png`, fullPage: true });
    expect(pageErrors.list).toEqual([]);
  });
});
