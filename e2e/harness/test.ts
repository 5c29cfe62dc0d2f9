/**
 * The e2e `test`: vitest's test extended with Playwright fixtures, so specs ask for what they use
 * (tldraw's page-object fixtures). One Chromium per spec file; a fresh context and page per test.
 * On failure the page is screenshotted to e2e/.artifacts/failures/ before it closes.
 */
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";

import { inject, test as base } from "vitest";

import { LoaderPage } from "../pages/LoaderPage.ts";
import { launchChromium } from "./browser.ts";
import { collectPageErrors } from "./pageErrors.ts";

export const ARTIFACTS_DIR = fileURLToPath(new URL("../.artifacts/", import.meta.url));

function fileNameFor(testName: string): string {
  return testName
    .replace(/[^a-z0-9]+/gi, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();
}

export const test = base
  // Vitest reads a fixture's dependencies from its destructuring pattern; `{}` means "none".
  // eslint-disable-next-line no-empty-pattern
  .extend("browser", { scope: "file" }, async ({}, { onCleanup }) => {
    const browser = await launchChromium();
    onCleanup(() => browser.close());
    return browser;
  })
  .extend("baseUrl", { scope: "file" }, () => inject("baseUrl"))
  .extend("page", async ({ browser, task }, { onCleanup }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    // onTestFailed would run after this cleanup has closed the page, so check the result here.
    onCleanup(async () => {
      if (task.result?.state === "fail") {
        await mkdir(`${ARTIFACTS_DIR}failures`, { recursive: true });
        await page.screenshot({
          path: `${ARTIFACTS_DIR}failures/${fileNameFor(task.fullName)}.png`,
          fullPage: true,
        });
      }
      await context.close();
    });
    return page;
  })
  // Attached when the test starts, before any spec code can navigate.
  .extend("pageErrors", { auto: true }, ({ page }) => collectPageErrors(page))
  .extend("loaderPage", ({ page }) => new LoaderPage(page));

export { describe, expect } from "vitest";
