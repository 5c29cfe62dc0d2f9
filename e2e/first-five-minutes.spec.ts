/**
 * Covers: the README's "First five minutes" walkthrough, key by key, as a new user would follow it
 * on the demo (issue 13). Each step here is a step there; when one changes, change the other.
 * `/` and a search, Enter to the list's first match, `e` to the tool error, Right to a column and
 * `f` to label it, `h` and a reason and Ctrl+Enter to mark the double refund, `r` and `a` to rank
 * the passes (the GAR values appear, from the human ranking), `3` for the Divergence view, `m` to
 * mark the group reviewed and move on, `[` back, `?` for the cheat sheet.
 */
import type { Page } from "playwright-core";
import { describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";
import { GroupView } from "./pages/GroupView.ts";
import { ReviewBar } from "./pages/ReviewBar.ts";

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    const column = el?.closest("[data-rollout-id]");
    return {
      testId: el?.getAttribute("data-testid") ?? null,
      rollout: column?.getAttribute("data-rollout-id") ?? null,
    };
  });

describe("first five minutes", () => {
  test("the README's walkthrough, by keyboard, on the demo", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseUrl}/?demo`);
    await page.getByTestId("filter-count").getByText("40 groups").waitFor();

    // 1. `/`, type the group, Enter: the first match opens and the list has the focus.
    await page.keyboard.press("/");
    expect((await focused(page)).testId).toBe("filter-search");
    await page.keyboard.type("refund-004");
    await page.getByTestId("filter-count").getByText("1 of 40 groups").waitFor();
    await page.keyboard.press("Enter");
    await page.locator('[data-testid="group.workspace"][aria-label="Group refund-004"]').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("grid");
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    const view = new GroupView(page);
    const annotate = new Annotate(page);

    // 2. The first column's header says "1 tool error"; `e` focuses it: the payment gateway's 502.
    expect(
      await annotate.column("refund-004/0").getByTestId("column.tool-errors").innerText(),
    ).toBe("1 tool error");
    await page.keyboard.press("e");
    await expect.poll(async () => (await focused(page)).rollout).toBe("refund-004/0");
    const error = page.locator(":focus");
    expect(await error.innerText()).toMatch(/TOOL ERROR[\s\S]*502/);

    // 3. Right and Left move between the columns; `f` labels the focused one fail: the reward
    // agrees, and the chip says so.
    await page.keyboard.press("ArrowRight");
    expect(await focused(page)).toEqual({ testId: "rollout-column", rollout: "refund-004/1" });
    await page.keyboard.press("ArrowLeft");
    expect(await focused(page)).toEqual({ testId: "rollout-column", rollout: "refund-004/0" });
    await page.keyboard.press("f");
    await annotate
      .column("refund-004/0")
      .locator('[data-testid="annotate.label.fail"][aria-pressed="true"]')
      .waitFor();
    expect(await annotate.column("refund-004/0").getByTestId("column.pass").innerText()).toMatch(
      /human agrees/,
    );

    // 4. Four columns to the right, refund-004/4 passed by issuing the refund twice: `h`, a reason
    // typed into the list, Ctrl+Enter.
    for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowRight");
    expect(await focused(page)).toEqual({ testId: "rollout-column", rollout: "refund-004/4" });
    const body = await annotate.column("refund-004/4").innerText();
    expect(body.match(/refund_order/g)?.length).toBeGreaterThanOrEqual(2);
    await page.keyboard.press("h");
    const form = annotate.column("refund-004/4").getByTestId("annotate.hack-form");
    await form.waitFor();
    await page.keyboard.type("repeated");
    expect(await form.getByTestId("annotate.hack-reason").inputValue()).toBe(
      "repeated side effect",
    );
    await page.keyboard.press("Control+Enter");
    await form.waitFor({ state: "detached" });
    await annotate.column("refund-004/4").getByText("hack", { exact: true }).first().waitFor();

    // 5. `r` focuses the ranking's first pass; `a` ranks it last (the focus stays on it), Down
    // moves to the next unranked pass: four times ranks the four passes in order; the GAR
    // advantages appear, from the human ranking.
    await page.keyboard.press("r");
    await expect.poll(async () => (await focused(page)).testId).toBe("ranking.item");
    expect(await view.metric("metric-gar-advantage")).toEqual(["", "", "", "", "", ""]);
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press("a");
      await page.keyboard.press("ArrowDown");
    }
    await expect.poll(() => annotate.unrankedIds()).toEqual([]);
    expect((await annotate.ranking()).flat()).toHaveLength(4);
    const gar = await view.metric("metric-gar-advantage");
    expect(gar.filter((v) => v !== "")).toHaveLength(6);
    expect(
      await annotate
        .column("refund-004/1")
        .getByTestId("metric-rank-head")
        .getAttribute("data-source"),
    ).toBe("human");

    // 6. `3`: the Divergence view, where the trajectories part.
    await page.keyboard.press("3");
    await view.divergence.waitFor();
    await page.keyboard.press("1");

    // 7. `m` marks the group reviewed and opens the next unreviewed one; `[` goes back.
    const review = new ReviewBar(page);
    await review.blur();
    await page.keyboard.press("m");
    await expect
      .poll(() => page.getByTestId("group.workspace").getAttribute("aria-label"))
      .not.toBe("Group refund-004");
    await page.keyboard.press("[");
    await page.locator('[data-testid="group.workspace"][aria-label="Group refund-004"]').waitFor();

    // 8. `?`: every shortcut on one sheet; Escape closes it.
    await review.blur();
    await page.keyboard.press("?");
    await review.sheet.waitFor();
    const sheet = await review.sheet.innerText();
    for (const section of ["Group browser", "Review queue", "Group view", "Annotate (group view)"])
      expect(sheet).toContain(section);
    expect(sheet).toContain("in the hack form: save, or cancel");
    await page.keyboard.press("Escape");
    await review.sheet.waitFor({ state: "detached" });

    // 9. The marks are saved in this browser, and the export names them.
    await page
      .locator('[data-testid="annotations.saved"][data-status="saved"][data-pending="0"]')
      .waitFor();
    expect(await page.getByTestId("annotations-export").innerText()).toMatch(/\(\d+\)/);
    expect(pageErrors.list).toEqual([]);
  });
});
