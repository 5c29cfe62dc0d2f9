/**
 * Covers: annotations are saved in the browser (IndexedDB) as they happen and come back after a
 * reload of the same data; clearing asks first, and after it nothing comes back.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "./harness/test.ts";

const dir = mkdtempSync(join(tmpdir(), "annotations-persist-"));

describe("annotations survive a reload", () => {
  test("import, reload, restored; clear, reload, gone", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await page.goto(`${baseUrl}/?demo`);
    const [first, second] = await loaderPage.groupIds();
    const path = join(dir, "a.json");
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        groups: {
          [first!]: { hacks: [`${first}/0`], notes: "checked" },
          [second!]: { reviewed: true },
        },
      }),
    );
    await page.getByTestId("annotations-import").setInputFiles(path);
    // The import is done when it says so (the status may already read "saved" from the restore).
    await page.getByTestId("annotations.message").getByText("Imported annotations of 2").waitFor();
    await page
      .locator('[data-testid="annotations.saved"][data-status="saved"][data-pending="0"]')
      .waitFor();
    expect(await page.getByTestId("annotations-export").innerText()).toContain("(2)");

    await page.reload();
    await loaderPage.groupIds();
    await page.getByText("2 group(s) restored").waitFor();
    expect(await page.getByTestId("annotations-export").innerText()).toContain("(2)");

    await page.getByTestId("annotations-clear").click();
    await page.getByTestId("annotations-clear-confirm").click();
    expect(await page.getByTestId("annotations-export").isDisabled()).toBe(true);
    // The deletion is done in storage before the page says so; only then reload.
    await page.getByTestId("annotations.message").getByText("Deleted this dataset").waitFor();
    await page.reload();
    await loaderPage.groupIds();
    await page.locator('[data-testid="annotations.saved"][data-status="saved"]').waitFor();
    expect(await page.getByTestId("annotations-export").innerText()).toContain("(0)");
    expect(pageErrors.list).toEqual([]);
  });
});
