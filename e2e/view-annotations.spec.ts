/**
 * Covers: in view mode the server is the annotations' store (issue 14, point 6). Two pages on the
 * same run through `rollout-studio view`: a group ranked by keyboard in the first is written to
 * `<state dir>/annotations.json` (the version-1 file the CLI reads), the save status names that
 * file, and the second page shows the ranking without a reload (the `annotations` event). No
 * page error in either.
 * Opening `${origin}/?token=T` loads the run from the server (store/remote/viewFollow.ts), and
 * `dataset-summary` appears.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { annotationsParse } from "../src/io/annotations/annotationsFile.ts";
import { viewStart, type ViewProcess } from "../scripts/viewProcess.ts";
import { writeDemo } from "./harness/cli.ts";
import { collectPageErrors } from "./harness/pageErrors.ts";
import { describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";

const BIN = fileURLToPath(new URL("../bin/rollout-studio.mjs", import.meta.url));
const GROUP = "refund-004";
const stateDir = join(mkdtempSync(join(tmpdir(), "view-annotations-state-")), "state");
let view: ViewProcess;

beforeAll(async () => {
  view = await viewStart(process.execPath, [
    BIN,
    "view",
    writeDemo("view-annotations-"),
    "--port",
    "0",
    "--state",
    stateDir,
    "--no-open",
  ]);
});

afterAll(async () => {
  expect(await view.stop("SIGTERM")).toBe(0);
});

/** Open the run from the server and the group, by keyboard (`/`, its id, Enter). */
async function openGroup(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${view.origin}/?token=${view.token!}`);
  await page.locator('[data-testid="dataset-summary"][data-groups="40"]').waitFor();
  await page.locator('[data-testid="annotations.saved"][data-target="server"]').waitFor();
  await page.keyboard.press("/");
  await page.keyboard.type(GROUP);
  await page.getByTestId("filter-count").getByText("1 of 40 groups").waitFor();
  await page.keyboard.press("Enter");
  await page.locator(`[data-testid="group.workspace"][aria-label="Group ${GROUP}"]`).waitFor();
}

/** The group's ranking in `<state dir>/annotations.json` (none while the file is absent). */
function rankingOnDisk(): string[][] | null {
  let text: string;
  try {
    text = readFileSync(join(stateDir, "annotations.json"), "utf8");
  } catch {
    return null;
  }
  const parsed = annotationsParse("annotations.json", text);
  if (!parsed.ok) throw new Error("annotations.json does not validate");
  return parsed.value.groups[GROUP]?.ranking.map((tier) => [...tier]) ?? null;
}

describe("annotations beside the run", () => {
  test("a ranking made in one page is on disk and shows in the other without a reload", async ({
    browser,
    page,
    pageErrors,
  }) => {
    const second = await (await browser.newContext()).newPage();
    const secondErrors = collectPageErrors(second);
    await openGroup(page);
    await openGroup(second);
    const annotate = new Annotate(page);
    const other = new Annotate(second);
    expect(await other.ranking()).toEqual([]);

    // `r` focuses the first pass of the ranking, `a` ranks it. The second page opened last, so
    // this one is brought to the front, and `r` is pressed until the ranking has the focus (on a
    // loaded machine the group's ranking can mount after the first press).
    await page.bringToFront();
    await expect
      .poll(async () => {
        const id = await page.evaluate(
          () => document.activeElement?.getAttribute("data-testid") ?? null,
        );
        if (id !== "ranking.item") await page.keyboard.press("r");
        return id;
      })
      .toBe("ranking.item");
    await page.keyboard.press("a");
    await expect.poll(async () => (await annotate.ranking()).flat()).toHaveLength(1);
    const ranking = await annotate.ranking();
    const status = page.locator(
      '[data-testid="annotations.saved"][data-target="server"][data-status="saved"][data-pending="0"]',
    );
    await status.waitFor();
    expect(await status.innerText()).toBe(`Saved to ${join(stateDir, "annotations.json")}`);
    expect(rankingOnDisk()).toEqual(ranking);

    await expect.poll(() => other.ranking()).toEqual(ranking);
    expect(await second.getByTestId("annotations-export").innerText()).toContain("(1)");
    expect(pageErrors.list).toEqual([]);
    expect(secondErrors.list).toEqual([]);
    await second.context().close();
  });
});
