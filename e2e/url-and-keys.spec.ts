/**
 * Covers: the URL follows the data, and the group view's keys (issue 13, finding 10). A file opened
 * from the demo turns `?demo` into `?file=<name>&fp=<fingerprint prefix>` (the group kept); a reload
 * then asks for that file again, naming it and its fingerprint, instead of showing the demo; chosen
 * again, it opens on the same group with its annotations back. Keys 1 to 5 switch the tabs, `r`
 * focuses the ranking, Left and Right move between the columns (and `p` labels the focused one);
 * none fires while typing; the `?` sheet lists them.
 */
import type { Page } from "playwright-core";
import { describe, expect, test } from "./harness/test.ts";
import { GroupView } from "./pages/GroupView.ts";
import { ReviewBar } from "./pages/ReviewBar.ts";

const FILE = {
  name: "my rollouts.jsonl",
  mimeType: "application/jsonl",
  buffer: Buffer.from(
    [
      { group_id: "alpha", completion: "first", reward: 1 },
      { group_id: "alpha", completion: "second", reward: 0 },
      { group_id: "beta", completion: "third", reward: 1 },
      { group_id: "beta", completion: "fourth", reward: 0 },
      { group_id: "beta", completion: "fifth", reward: 1 },
    ]
      .map((r) => JSON.stringify(r))
      .join("\n"),
  ),
};

const activeTestId = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el === null
      ? null
      : { id: el.getAttribute("data-testid"), rollout: el.getAttribute("data-rollout-id") };
  });

describe("URL and keys", () => {
  test("the URL names the opened file; a reload asks for it again and restores its annotations", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await page.goto(`${baseUrl}/?demo`);
    await loaderPage.groupIds();
    expect(new URL(page.url()).searchParams.has("demo")).toBe(true);

    await loaderPage.choose(FILE);
    await page.getByTestId("dataset.counts").getByText("5 rollouts in 2 groups").waitFor();
    const view = new GroupView(page);
    await view.open("beta");
    await page.waitForFunction(() => /[?&]fp=[0-9a-f]{12}(&|$)/.test(window.location.search));
    const url = new URL(page.url());
    expect(url.searchParams.has("demo")).toBe(false);
    expect(url.searchParams.get("file")).toBe(FILE.name);
    expect(url.searchParams.get("group")).toBe("beta");
    const fp = url.searchParams.get("fp")!;

    // An annotation, saved in this browser under the file's fingerprint.
    await view.column("beta/1").getByTestId("annotate.label.fail").click();
    await page
      .locator('[data-testid="annotations.saved"][data-status="saved"][data-pending="0"]')
      .waitFor();

    await page.reload();
    const notice = page.getByTestId("reopen.notice");
    await notice.waitFor();
    expect(await page.getByTestId("reopen.name").innerText()).toBe(FILE.name);
    expect(await page.getByTestId("reopen.fingerprint").innerText()).toBe(fp);
    expect(await notice.innerText()).toContain("choose it again");
    // Not the demo: nothing is loaded, and the URL still names the file.
    await page.waitForTimeout(500);
    expect(await page.getByTestId("groups.table").count()).toBe(0);
    expect(new URL(page.url()).searchParams.get("file")).toBe(FILE.name);

    await loaderPage.choose(FILE);
    await page.locator('[data-testid="group.workspace"][aria-label="Group beta"]').waitFor();
    await page.locator('[data-testid="annotations-export"]', { hasText: "(1)" }).waitFor();
    expect(
      await view.column("beta/1").getByTestId("annotate.label.fail").getAttribute("aria-pressed"),
    ).toBe("true");
    expect(new URL(page.url()).searchParams.get("fp")).toBe(fp);

    // The demo again: the URL says so.
    await page.goto(`${baseUrl}/?demo`);
    await loaderPage.groupIds();
    expect(new URL(page.url()).searchParams.get("file")).toBeNull();
    expect(pageErrors.list).toEqual([]);
  });

  test("keys switch tabs, focus the ranking and move between columns, never while typing", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    await page.goto(`${baseUrl}/?demo&group=refund-004`);
    const view = new GroupView(page);
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    const review = new ReviewBar(page);
    await review.blur();
    const selected = (id: string) =>
      page.locator(`[data-testid="workspace.tab.${id}"][aria-selected="true"]`).waitFor();

    await page.keyboard.press("2");
    await selected("metrics");
    await page.keyboard.press("3");
    await selected("divergence");
    await view.divergence.waitFor();
    await page.keyboard.press("1");
    await selected("rollouts");

    // r: keyboard ranking starts on the first pass.
    await page.keyboard.press("r");
    await expect
      .poll(() => activeTestId(page))
      .toEqual({
        id: "ranking.item",
        rollout: "refund-004/1",
      });
    // The ranking keeps its own arrows: Right does not leave it.
    await page.keyboard.press("ArrowRight");
    expect(await activeTestId(page)).toEqual({ id: "ranking.item", rollout: "refund-004/1" });

    // Right and Left move between the columns; p labels the focused one.
    await review.blur();
    await page.keyboard.press("ArrowRight");
    expect(await activeTestId(page)).toEqual({ id: "rollout-column", rollout: "refund-004/0" });
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await activeTestId(page)).toEqual({ id: "rollout-column", rollout: "refund-004/2" });
    await page.keyboard.press("ArrowLeft");
    expect(await activeTestId(page)).toEqual({ id: "rollout-column", rollout: "refund-004/1" });
    await page.keyboard.press("p");
    await view
      .column("refund-004/1")
      .locator('[data-testid="annotate.label.pass"][aria-pressed="true"]')
      .waitFor();

    // Typing a digit or an r in the search switches nothing.
    await page.getByTestId("filter-search").fill("");
    await page.getByTestId("filter-search").press("2");
    await page.getByTestId("filter-search").press("r");
    await selected("rollouts");
    expect(await page.getByTestId("filter-search").inputValue()).toBe("2r");
    await page.getByTestId("filter-search").fill("");

    // The ? sheet lists the keys.
    await review.blur();
    await page.keyboard.press("?");
    await review.sheet.waitFor();
    const sheet = await review.sheet.innerText();
    expect(sheet).toContain("Group view");
    expect(sheet).toContain("focus the ranking of the passes");
    expect(sheet).toContain("previous or next rollout column");
    expect(sheet).toMatch(/1 Rollouts, 2 Metrics, 3 Divergence, 4 Compare, 5 Rubric/);
    // Keys do not reach the page behind the dialog.
    await page.keyboard.press("2");
    await page.keyboard.press("Escape");
    await review.sheet.waitFor({ state: "detached" });
    await selected("rollouts");
    expect(pageErrors.list).toEqual([]);
  });
});
