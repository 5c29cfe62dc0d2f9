/**
 * Covers: accessibility of the main views (issue 8 part 6). axe-core (WCAG 2.1 A/AA and best
 * practices) reports no serious or critical violation on the empty drop zone, the group browser
 * with the demo, a group's Rollouts, Metrics, Divergence and Compare (pairwise) tabs, the dataset
 * overview and the shortcut cheat sheet. Every view is reached from the keyboard alone, and each
 * control the keyboard focuses shows a visible focus indicator.
 */
import type { Page } from "playwright-core";
import { axeViolations, type AxeViolation } from "./harness/axe.ts";
import { describe, expect, test } from "./harness/test.ts";

/** Readable failures: one line per offending element. */
function report(violations: readonly AxeViolation[]): string[] {
  return violations.flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id} (${v.help}): ${n}`));
}

async function expectAccessible(page: Page, view: string): Promise<void> {
  expect(report(await axeViolations(page)), view).toEqual([]);
}

/**
 * Tabs through the page from the top and returns the focused controls that show no focus
 * indicator: no outline and no box-shadow different from the control's look when not focused.
 */
async function invisibleFocus(page: Page, stops: number): Promise<string[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.getSelection()?.removeAllRanges();
  });
  const missing: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < stops; i++) {
    await page.keyboard.press("Tab");
    const found = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (el === null || el === document.body) return null;
      const name = `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ""} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}"`;
      const focused = getComputedStyle(el);
      const ring =
        (focused.outlineStyle !== "none" && parseFloat(focused.outlineWidth) > 0) ||
        focused.boxShadow !== "none";
      return { name, ring };
    });
    if (found === null) break;
    if (seen.has(found.name)) continue;
    seen.add(found.name);
    if (!found.ring) missing.push(found.name);
  }
  return missing;
}

describe("accessibility", () => {
  test("the main views have no serious or critical axe violation, and focus is visible", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await loaderPage.open(baseUrl);
    await expectAccessible(page, "empty drop zone");
    expect(await invisibleFocus(page, 10), "empty drop zone").toEqual([]);

    await page.goto(`${baseUrl}/?demo`);
    const [first] = await loaderPage.groupIds();
    await expectAccessible(page, "group browser");
    expect(await invisibleFocus(page, 40), "group browser").toEqual([]);

    // Keyboard alone: the search field, then arrows and Enter open the first group.
    await page.keyboard.press("/");
    await page.keyboard.press("Escape");
    await page.getByTestId("groups.row.id").first().focus();
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    expect(await page.getByTestId("group.workspace").getAttribute("aria-label")).toBe(
      `Group ${first}`,
    );
    await expectAccessible(page, "group view: rollouts");
    expect(await invisibleFocus(page, 60), "group view: rollouts").toEqual([]);

    for (const tab of ["metrics", "divergence", "compare"] as const) {
      await page.getByTestId(`workspace.tab.${tab}`).focus();
      await page.keyboard.press("Enter");
      expect(await page.getByTestId(`workspace.tab.${tab}`).getAttribute("aria-selected")).toBe(
        "true",
      );
      await page.getByRole("tabpanel").first().waitFor();
      await expectAccessible(page, `group view: ${tab}`);
    }
    await page.getByTestId("pairwise.begin").focus();
    await page.keyboard.press("Enter");
    await page.getByTestId("pairwise.match").waitFor();
    await expectAccessible(page, "group view: pairwise match");

    await page.getByTestId("panel.toggle.overview").focus();
    await page.keyboard.press("Enter");
    await page.getByTestId("panel.overview").locator("svg").first().waitFor();
    await expectAccessible(page, "dataset overview");

    await page.locator("body").press("?");
    await page.getByRole("dialog").waitFor();
    await expectAccessible(page, "cheat sheet");
    await page.keyboard.press("Escape");
    expect(await page.getByRole("dialog").count()).toBe(0);
    expect(pageErrors.list).toEqual([]);
  });

  test("the checks find what they look for (a page made to fail them)", async ({ page }) => {
    await page.setContent(
      `<main><button></button><p style="color:#bbb;background:#fff">faint</p>
       <div style="overflow:auto;height:20px"><p style="height:200px">tall</p></div>
       <button style="outline:none">plain</button></main>`,
    );
    const ids = (await axeViolations(page)).map((v) => v.id).sort();
    expect(ids).toEqual([
      "button-name",
      "color-contrast",
      "document-title",
      "html-has-lang",
      "scrollable-region-focusable",
    ]);
    expect(await invisibleFocus(page, 3)).toEqual(['button "plain"']);
  });
});
