/**
 * Covers: issue 13 finding 4, tool errors look like successes. Reproduction: in the demo's
 * refund-004, a `{"error": "... (502)"}` result was an ordinary folded "TOOL RESULT", and at 6
 * columns its preview was blank. Now the result is marked "tool error" with the error's message
 * in its preview (visible at 6 columns), the column header counts the rollout's tool errors, the
 * group browser has a "Tool errors" column and a "has tool errors" filter, and `e` / Shift+E jump
 * to the next / previous tool error of the open group (listed in the `?` sheet, never while
 * typing).
 */
import type { Page } from "playwright-core";
import { generateDemo } from "../scripts/generate-demo.ts";
import { describe, expect, test } from "./harness/test.ts";
import { GroupBrowser } from "./pages/GroupBrowser.ts";
import { GroupView } from "./pages/GroupView.ts";

interface DemoRow {
  id: string;
  group_id: string;
  messages: { role: string; content: string | null }[];
}

const rows = generateDemo()
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as DemoRow);

/** The demo's tool errors, counted independently of the studio: a JSON object with an `error` key. */
function errorResults(row: DemoRow): string[] {
  return row.messages
    .filter((m) => m.role === "tool")
    .flatMap((m) => {
      try {
        const v = JSON.parse(m.content ?? "") as unknown;
        return typeof v === "object" && v !== null && "error" in v ? [String(v.error)] : [];
      } catch {
        return [];
      }
    });
}

const errorsByGroup = new Map<string, number>();
for (const r of rows)
  errorsByGroup.set(r.group_id, (errorsByGroup.get(r.group_id) ?? 0) + errorResults(r).length);

async function openGroup(page: Page, baseUrl: string, groupId: string): Promise<void> {
  await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(groupId)}`);
  await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
}

/** The focused element's tool-result test id and its column's rollout id. */
async function focusedResult(page: Page): Promise<{ rollout: string; error: string | null }> {
  return page.evaluate(() => {
    const el = document.activeElement;
    const result = el?.closest('[data-testid="transcript.tool-result"]');
    return {
      rollout: el?.closest('[data-testid="rollout-column"]')?.getAttribute("data-rollout-id") ?? "",
      error: result?.getAttribute("data-tool-error") ?? null,
    };
  });
}

describe("tool errors are visible", () => {
  test("the 502 is a marked tool error with its message, at 6 columns", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const rollout = rows.find(
      (r) => r.group_id === "refund-004" && errorResults(r).some((e) => e.includes("502")),
    )!;
    expect(rollout).toBeDefined();
    const view = new GroupView(page);
    await openGroup(page, baseUrl, "refund-004");
    await view.columnsVisible.selectOption("6");

    const column = view.column(rollout.id);
    const errors = column.locator('[data-testid="transcript.tool-result"][data-tool-error="true"]');
    expect(await errors.count()).toBe(errorResults(rollout).length);
    const first = errors.first();
    // Scrolled to (the transcript bodies skip rendering off screen: content-visibility), then read.
    await first.evaluate((el) => el.scrollIntoView({ block: "center" }));
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    expect((await first.getByTestId("tool-result-toggle").innerText()).toLowerCase()).toContain(
      "tool error",
    );
    // The folded preview shows the error's message, visibly: not blank, not clipped to nothing.
    const preview = first.getByTestId("tool-result-preview");
    expect(await preview.innerText()).toContain("502");
    const box = await preview.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.width).toBeGreaterThan(60);
    // Results that are not errors keep their plain label.
    const ok = column.locator('[data-testid="transcript.tool-result"][data-tool-error="false"]');
    expect(await ok.count()).toBeGreaterThan(0);
    expect((await ok.first().textContent())?.toLowerCase()).toContain("tool result");

    // The column header counts them.
    const n = errorResults(rollout).length;
    expect(await column.getByTestId("column.tool-errors").innerText()).toBe(
      `${n} tool error${n === 1 ? "" : "s"}`,
    );
    const clean = rows.find((r) => r.group_id === "refund-004" && errorResults(r).length === 0)!;
    expect(await view.column(clean.id).getByTestId("column.tool-errors").count()).toBe(0);
    expect(pageErrors.list).toEqual([]);
  });

  test("the group browser counts and filters them; e and Shift+E jump to them", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const browser = new GroupBrowser(page);
    await openGroup(page, baseUrl, "refund-004");
    const row = page.locator('[data-testid="group-row"][data-group-id="refund-004"]');
    expect(await row.getByTestId("groups.row.tool-errors").innerText()).toBe(
      String(errorsByGroup.get("refund-004")),
    );

    await page.getByTestId("filter-tool-errors").check();
    const withErrors = [...errorsByGroup].filter(([, n]) => n > 0).map(([id]) => id);
    expect(withErrors.length).toBeGreaterThan(0);
    expect(withErrors.length).toBeLessThan(errorsByGroup.size);
    expect(await browser.allIds()).toEqual(
      rows
        .map((r) => r.group_id)
        .filter((id, i, all) => all.indexOf(id) === i && withErrors.includes(id)),
    );
    expect(new URL(page.url()).searchParams.get("filter")).toContain("tool-errors");

    // The key walks the open group's tool errors in column order, and wraps: on the group with
    // the most of them.
    const busiest = [...errorsByGroup].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
    const expected = rows
      .filter((r) => r.group_id === busiest)
      .flatMap((r) => errorResults(r).map(() => r.id));
    expect(expected.length).toBeGreaterThanOrEqual(3);
    await openGroup(page, baseUrl, busiest);
    await page.getByTestId("group.detail").getByText(`Group ${busiest}`, { exact: true }).click();
    const seen: string[] = [];
    for (let i = 0; i < expected.length; i++) {
      await page.keyboard.press("e");
      const f = await focusedResult(page);
      expect(f.error).toBe("true");
      seen.push(f.rollout);
    }
    expect(seen).toEqual(expected);
    await page.keyboard.press("e");
    expect((await focusedResult(page)).rollout).toBe(expected[0]);
    await page.keyboard.press("Shift+E");
    expect((await focusedResult(page)).rollout).toBe(expected[expected.length - 1]);
    // The focused error is on screen.
    const focused = page.locator(":focus");
    const box = await focused.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(page.viewportSize()!.height);

    // Never while typing: an `e` in the search box stays in the box.
    await page.getByTestId("filter-search").focus();
    await page.keyboard.press("e");
    expect(await page.getByTestId("filter-search").inputValue()).toBe("e");
    expect(
      await page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? ""),
    ).toBe("filter-search");

    // The cheat sheet lists the key.
    await page.getByTestId("filter-search").fill("");
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.locator("body").press("?");
    const sheet = page.getByTestId("shortcuts.dialog");
    await sheet.waitFor();
    expect(await sheet.innerText()).toMatch(/next tool error/i);
    expect(pageErrors.list).toEqual([]);
  });
});
