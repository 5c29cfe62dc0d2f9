/**
 * Covers: the page `rollout-studio view` serves is the studio as the static build is: under the
 * server's CSP header (on top of the page's meta policy), with `?token=` in its URL, it opens the
 * demo from `?demo` and the drop zone with no page error (e2e/view-run.spec.ts: runs from the API).
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { viewStart, type ViewProcess } from "../scripts/viewProcess.ts";
import { writeDemo } from "./harness/cli.ts";
import { describe, expect, test } from "./harness/test.ts";

const BIN = fileURLToPath(new URL("../bin/rollout-studio.mjs", import.meta.url));
let view: ViewProcess;

beforeAll(async () => {
  view = await viewStart(process.execPath, [
    BIN,
    "view",
    writeDemo("view-page-"),
    "--port",
    "0",
    "--no-open",
  ]);
});

afterAll(async () => {
  expect(await view.stop("SIGTERM")).toBe(0);
});

describe("the page view serves", () => {
  test("opens the demo with ?demo and the token in the URL, with no page error", async ({
    loaderPage,
    pageErrors,
  }) => {
    const response = await loaderPage.page.goto(`${view.origin}/?demo&token=${view.token!}`);
    expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(await loaderPage.groupIds()).toHaveLength(40);
    expect(pageErrors.list).toEqual([]);
  });

  test("opens the demo from the drop zone", async ({ loaderPage, page, pageErrors }) => {
    await loaderPage.open(view.origin);
    await page.getByTestId("drop-zone.demo").click();
    expect(await loaderPage.groupIds()).toHaveLength(40);
    expect(pageErrors.list).toEqual([]);
  });
});
