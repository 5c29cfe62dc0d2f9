/**
 * Covers: the group view on the demo (src/ui/features/rollouts): one column per rollout in group
 * order with the metric test ids in each header; 2 to 8 columns share the width; a pinned column
 * moves to the left edge and stays visible while the others scroll; synchronised scrolling moves
 * the other columns to the same relative position, and stops when turned off; a tool result
 * expands, its long JSON unfolds, markdown renders (a list) and code is highlighted by a chunk
 * loaded after the first page; the divergence tab shows the first differing step the core
 * computes, and the branches there.
 */
import { loadText } from "../src/io/index.ts";
import {
  divergenceFirstSplit,
  divergenceOfRollouts,
  type DivergenceNode,
  type RolloutGroup,
} from "../src/core/index.ts";
import { generateDemo } from "../scripts/generate-demo.ts";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";
import { GroupView } from "./pages/GroupView.ts";

const demo = loadText("support-groups.jsonl", generateDemo());

async function demoGroup(id: string): Promise<RolloutGroup> {
  const group = (await demo).groups.find((g) => g.id === id);
  if (group === undefined) throw new Error(`no demo group ${id}`);
  return group;
}

/** Every branch's members as the view writes them (data-members), depth first. */
function branchKeys(node: DivergenceNode): string[] {
  return node.branches.flatMap((b) => [b.members.join(","), ...branchKeys(b)]);
}

describe("group view", () => {
  test("columns, layout controls, transcripts, then the divergence tab", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    const view = new GroupView(page);
    await page.goto(`${baseUrl}/?demo`);
    await loaderPage.groupIds();
    const group = await demoGroup("cancellation-001");
    await view.open(group.id);

    // One column per rollout, in group order, each with its metric ids.
    const ids = group.rollouts.map((r) => r.id);
    expect(ids).toHaveLength(8);
    expect(await view.columnIds()).toEqual(ids);
    for (const metric of ["metric-reward", "metric-rank", "metric-advantage", "metric-cluster"]) {
      const values = await view.metric(metric);
      expect(values.every((v) => v !== null && v !== "" && Number.isFinite(Number(v)))).toBe(true);
    }
    expect(await view.metric("metric-reward")).toEqual(group.rollouts.map((r) => String(r.reward)));
    // Every header renders, in view or not (4 of 8 columns visible, the group below the fold):
    // a script reading the metrics with innerText gets the numbers, not empty strings.
    for (const metric of ["metric-reward", "metric-rank", "metric-advantage", "metric-cluster"]) {
      const cells = page.getByTestId(metric);
      expect(await cells.allInnerTexts()).toEqual(await cells.allTextContents());
    }
    // No ranking: no GAR advantage, and the element is there, empty.
    expect(await view.metric("metric-gar-advantage")).toEqual(ids.map(() => ""));

    // Columns visible: 4 by default, 2 twice as wide, 8 fit without scrolling.
    expect(await view.columnsVisible.inputValue()).toBe("4");
    const width = async () => (await view.column(ids[0]!).boundingBox())!.width;
    const four = await width();
    await view.columnsVisible.selectOption("2");
    expect((await width()) / four).toBeCloseTo(2, 1);
    await view.columnsVisible.selectOption("8");
    expect(await view.columnsScroller.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(
      true,
    );
    await view.columnsVisible.selectOption("4");
    expect(await view.columnsScroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

    // Pin the last column: it moves to the left edge and stays there while the others scroll.
    const last = ids[ids.length - 1]!;
    await view.column(last).getByTestId("column-pin").click();
    expect(await view.column(last).getByTestId("column-pin").getAttribute("aria-pressed")).toBe(
      "true",
    );
    let boxes = await view.boxes(view.column(last));
    expect(boxes.el.x - boxes.scroller.x).toBeLessThan(20);
    await view.columnsScroller.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    boxes = await view.boxes(view.column(last));
    expect(boxes.el.x).toBeGreaterThanOrEqual(boxes.scroller.x);
    expect(boxes.el.x - boxes.scroller.x).toBeLessThan(20);
    const first = await view.boxes(view.column(ids[1]!));
    expect(first.el.x + first.el.width).toBeLessThan(first.scroller.x + 20);
    // The DOM keeps group order; two pins at most.
    expect(await view.columnIds()).toEqual(ids);
    await view.column(ids[2]!).getByTestId("column-pin").click();
    expect(await view.column(ids[3]!).getByTestId("column-pin").isDisabled()).toBe(true);
    await view.column(ids[2]!).getByTestId("column-pin").click();
    await view.column(last).getByTestId("column-pin").click();
    await view.columnsScroller.evaluate((el) => (el.scrollLeft = 0));

    // A tool result expands: highlighted JSON whose long body folds and unfolds.
    const a = ids[0]!;
    const result = view
      .column(a)
      .getByTestId("transcript.tool-result")
      .filter({ hasText: "get_order" })
      .first();
    expect(await result.innerText()).not.toContain('"refunds"');
    await result.getByTestId("tool-result-toggle").click();
    await result.locator("code.hljs").first().waitFor();
    const fold = result.getByTestId("fold-toggle");
    expect(await fold.getAttribute("aria-expanded")).toBe("false");
    expect(await result.innerText()).not.toContain('"refunds"');
    await fold.click();
    expect(await fold.getAttribute("aria-expanded")).toBe("true");
    expect(await result.innerText()).toContain('"refunds"');

    // Markdown renders: a list in a final answer.
    const listed = view.column(ids[2]!).locator("[data-testid=markdown] li");
    await listed.first().waitFor();
    expect(await listed.count()).toBeGreaterThanOrEqual(4);

    // Synchronised scrolling: both transcripts scroll; sync moves b with a, relatively.
    const b = ids[1]!;
    await view.expandToolResults(a);
    await view.expandToolResults(b);
    for (const id of [a, b]) {
      expect(await view.body(id).evaluate((el) => el.scrollHeight > el.clientHeight + 50)).toBe(
        true,
      );
    }
    const fraction = (id: string) =>
      view.body(id).evaluate((el) => el.scrollTop / Math.max(1, el.scrollHeight - el.clientHeight));
    await view.body(b).evaluate((el) => (el.scrollTop = 0));
    await view.syncScroll.check();
    await view.body(a).evaluate((el) => (el.scrollTop = (el.scrollHeight - el.clientHeight) / 2));
    await page.waitForFunction(
      (id) =>
        (document.querySelector(`[data-rollout-id="${id}"] [data-testid="rollout-column.body"]`)
          ?.scrollTop ?? 0) > 0,
      b,
    );
    expect(Math.abs((await fraction(b)) - (await fraction(a)))).toBeLessThan(0.02);
    await view.syncScroll.uncheck();
    const before = await fraction(b);
    await view.body(a).evaluate((el) => (el.scrollTop = 0));
    await page.waitForTimeout(100);
    expect(await fraction(a)).toBe(0);
    expect(await fraction(b)).toBe(before);

    await view.detail.screenshot({ path: `${ARTIFACTS_DIR}group-view.png` });

    // Markdown and highlighting came in chunks of their own, after the first page.
    const index = await (await fetch(`${baseUrl}/`)).text();
    expect(index).not.toMatch(/MarkdownRenderer|rehype-highlight/);
    expect(scripts.some((u) => /MarkdownRenderer-[^/]*\.js$/.test(u))).toBe(true);
    expect(scripts.some((u) => /rehype-highlight-[^/]*\.js$/.test(u))).toBe(true);

    // Divergence: the first differing step and the branches there, as core computes them.
    const split = await demoGroup("order_status-003");
    await view.open(split.id);
    await view.openDivergence();
    const tree = divergenceOfRollouts(split.rollouts);
    const at = divergenceFirstSplit(tree);
    expect(at).not.toBeNull();
    const summary = view.divergence.getByTestId("divergence.summary");
    expect(await summary.getAttribute("data-split")).toBe(String(at! + 1));
    expect(await summary.innerText()).toContain(`at step ${at! + 1}`);
    const branches = view.divergence.getByTestId("divergence.branch");
    expect(
      await branches.evaluateAll((els) => els.map((e) => e.getAttribute("data-members"))),
    ).toEqual(branchKeys(tree));
    const differing = view.divergence.locator('[data-testid="divergence.step"][data-differs]');
    expect(await differing.count()).toBeGreaterThanOrEqual(tree.branches.length);
    expect(await differing.first().innerText()).toContain(`#${at! + 1}`);
    const members = await view.divergence
      .getByTestId("divergence.rollout")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-rollout-id")));
    for (const r of split.rollouts) expect(members).toContain(r.id);
    await view.divergence.getByTestId("divergence.prefix").locator("summary").click();
    expect(
      await view.divergence.getByTestId("divergence.prefix").getByTestId("divergence.step").count(),
    ).toBe(at);

    // Tool results left out: the split the core computes without them.
    await view.divergence.getByTestId("divergence.results").uncheck();
    const noResults = divergenceFirstSplit(
      divergenceOfRollouts(split.rollouts, { results: false }),
    );
    expect(await summary.getAttribute("data-split")).toBe(
      noResults === null ? "" : String(noResults + 1),
    );
    await view.divergence.screenshot({ path: `${ARTIFACTS_DIR}divergence-view.png` });
    expect(pageErrors.list).toEqual([]);
  });
});
