/**
 * Covers: the workspace is built around the transcripts (issue 13, finding 9). At 1440x900 and
 * 1280x720, with a group open (from the URL, and after moving to it with the review bar), the first
 * message of the first rollout column is on screen without scrolling and not covered; opening the
 * settings and each toolbar panel leaves it there (panels and settings are side sheets beside the
 * workspace, never above it); the columns' scroll boxes reach the bottom of the window; the group
 * browser is shorter while a group is open; each column header is one dense block of the same
 * height across the columns. Screenshots of every state go to e2e/.artifacts/layout/.
 */
import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";
import { ReviewBar } from "./pages/ReviewBar.ts";
import { Settings } from "./pages/Settings.ts";

/** The toolbar's panels (src/ui/app/datasetPanels.ts), in toolbar order. */
const PANELS = [
  "overview",
  "judge",
  "rubrics",
  "calibration",
  "verifiers",
  "run-compare",
  "exports",
];

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const;

const SHOTS = `${ARTIFACTS_DIR}layout/`;

const firstMessage = (page: Page) =>
  page.getByTestId("rollout-column").first().getByTestId("transcript-message").first();

/**
 * Where the first transcript message is: its box, and whether the element at a point inside its
 * first line is the message itself (no sheet, dialog or bar lies over it).
 */
async function firstMessagePlace(page: Page) {
  const message = firstMessage(page);
  await message.waitFor();
  return message.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const x = box.left + Math.min(24, box.width / 2);
    const y = box.top + Math.min(10, box.height / 2);
    const hit = document.elementFromPoint(x, y);
    return {
      top: box.top,
      left: box.left,
      right: box.right,
      firstLineBottom: box.top + Math.min(box.height, 20),
      uncovered: hit !== null && el.contains(hit),
    };
  });
}

async function expectFirstMessageOnScreen(
  page: Page,
  viewport: { width: number; height: number },
  what: string,
): Promise<void> {
  const place = await firstMessagePlace(page);
  expect({ what, ...place, top: place.top >= 0 }).toEqual({ what, ...place, top: true });
  expect(place.firstLineBottom, `${what}: first line above the fold`).toBeLessThanOrEqual(
    viewport.height,
  );
  expect(place.left, what).toBeGreaterThanOrEqual(0);
  expect(place.right, what).toBeLessThanOrEqual(viewport.width);
  expect(place.uncovered, `${what}: nothing lies over the first message`).toBe(true);
}

describe("layout", () => {
  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}x${viewport.height}`;
    test(`the transcripts come first at ${size}`, async ({ baseUrl, page, pageErrors }) => {
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize(viewport);
      await page.goto(`${baseUrl}/?demo&group=refund-004`);
      await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
      await expectFirstMessageOnScreen(page, viewport, "group from the URL");
      // Nothing was scrolled to get there.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await page.screenshot({ path: `${SHOTS}group-${size}.png` });

      // The column's scroll box reaches (nearly) the bottom of the window: it uses its height.
      const body = await page.getByTestId("rollout-column.body").first().boundingBox();
      expect(body).not.toBeNull();
      expect(body!.y + body!.height).toBeGreaterThan(viewport.height - 40);
      // A dense header: well under half the column, the same height in every column.
      const heads = await page
        .getByTestId("rollout-column")
        .evaluateAll((cols) =>
          cols.map((c) => c.querySelector("header")?.getBoundingClientRect().height ?? 0),
        );
      expect(Math.max(...heads)).toBeLessThan(viewport.height / 4);
      expect(new Set(heads.map((h) => Math.round(h))).size).toBe(1);
      // The group browser makes room while a group is open.
      const list = await page.getByTestId("groups.list").boundingBox();
      expect(list!.height).toBeLessThan(260);
      // It keeps the open group's row in view.
      expect(
        await page.locator('[data-testid="group-row"][aria-selected="true"]').evaluate((row) => {
          const r = row.getBoundingClientRect();
          const s = row.closest("table")!.parentElement!.getBoundingClientRect();
          return r.top >= s.top && r.bottom <= s.bottom + 1;
        }),
      ).toBe(true);

      // Settings: a side sheet with every input, and the summary of non-default ones in the bar.
      const settings = new Settings(page);
      await settings.open();
      await expectFirstMessageOnScreen(page, viewport, "settings open");
      await page.getByTestId("settings-scale").selectOption("none");
      expect(await settings.summary()).toContain("scale none");
      await page.screenshot({ path: `${SHOTS}settings-${size}.png` });
      await settings.close();
      expect(await settings.summary()).toContain("scale none");

      // Every toolbar panel opens beside the transcripts.
      const toggles = await page
        .locator('[data-testid^="panel.toggle."]')
        .evaluateAll((els) =>
          els.map((e) => e.getAttribute("data-testid")!.replace("panel.toggle.", "")),
        );
      expect(toggles).toEqual(PANELS);
      for (const id of PANELS) {
        await page.getByTestId(`panel.toggle.${id}`).click();
        const panel = page.getByTestId(`panel.${id}`);
        await panel.waitFor();
        // Its code has loaded (the fallback is gone).
        await panel.locator("p", { hasText: /^Loading/ }).waitFor({ state: "detached" });
        // The screenshot comes first, so a failure has a picture beside it.
        await page.screenshot({ path: `${SHOTS}panel-${id}-${size}.png` });
        await expectFirstMessageOnScreen(page, viewport, `panel ${id} open`);
        await page.getByTestId(`panel.toggle.${id}`).click();
        await panel.waitFor({ state: "detached" });
      }
      expect(pageErrors.list).toEqual([]);
    });

    test(`a group opened from the review bar at ${size}`, async ({
      baseUrl,
      loaderPage,
      page,
      pageErrors,
    }) => {
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize(viewport);
      await page.goto(`${baseUrl}/?demo`);
      await loaderPage.groupIds();
      const review = new ReviewBar(page);
      await review.next.click();
      await review.waitPosition("2 of 40");
      await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
      await expectFirstMessageOnScreen(page, viewport, "group from the review bar");
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await page.screenshot({ path: `${SHOTS}review-${size}.png` });
      expect(pageErrors.list).toEqual([]);
    });
  }
});
