/**
 * Covers: the group browser (src/ui/features/groups) in the built app: a row's spread cell and its
 * report, sorting from a header
 * (aria-sort, NaN-free numeric order, `?sort=`), the zero-std and mixed filters, a search that
 * finds a word only a completion holds, keyboard navigation (arrows, j/k, Home/End, `/`) moving
 * the selection and `?group=`, a deep link reproducing the view, and on 20,000 generated groups that
 * the DOM holds only the rows in view while End reaches the last group.
 */
import { mkdir } from "node:fs/promises";
import { rolloutText } from "../src/core/index.ts";
import { loadText, promptText } from "../src/io/index.ts";
import { generateDemo } from "../scripts/generate-demo.ts";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";
import { GroupBrowser } from "./pages/GroupBrowser.ts";

/** Columns of the table, in order (src/ui/features/groups/columns.tsx). */
const COL = { id: 0, n: 2, passes: 3, mean: 4, std: 5, zeroStd: 6 } as const;

const param = (url: string, name: string): string | null => new URL(url).searchParams.get(name);

/**
 * The demo's groups, and a word that only completions hold: it is in no group id and no prompt,
 * but in the completion text (the default "final-assistant" rule) of some groups and not others.
 */
async function demoFacts() {
  const result = await loadText("support-groups.jsonl", generateDemo());
  const groups = result.groups;
  const outside = groups
    .map((g) => `${g.id}\n${promptText(g.rollouts[0]?.prompt ?? null)}`)
    .join("\n")
    .toLowerCase();
  const completions = groups.map((g) =>
    g.rollouts
      .map((r) => rolloutText(r, "final-assistant"))
      .join("\n")
      .toLowerCase(),
  );
  const words = new Set(completions.join(" ").match(/[a-z]{7,}/g) ?? []);
  const candidates = [...words]
    .filter((w) => !outside.includes(w))
    .map((w) => ({
      w,
      hits: groups.filter((_, i) => completions[i]!.includes(w)).map((g) => g.id),
    }))
    .filter(({ hits }) => hits.length >= 2 && hits.length <= groups.length / 2)
    .sort((a, b) => a.w.localeCompare(b.w));
  const word = candidates[0];
  if (word === undefined) throw new Error("the demo has no completion-only word");
  return { ids: groups.map((g) => g.id), word: word.w, hits: word.hits };
}

const numbers = (cells: readonly string[]): number[] => cells.map((c) => Number.parseFloat(c));

describe("group browser", () => {
  test("sort, filter, search, keyboard and a deep link on the demo", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const facts = await demoFacts();
    const groups = loaderPage.groups;
    await page.goto(`${baseUrl}/?demo`);
    expect(await loaderPage.groupIds()).toEqual(facts.ids);
    expect(await groups.count.innerText()).toBe("40 groups");

    // A row's spread cell: its status, and the check's report as its tooltip (the report is built
    // when the row renders, not with the rows).
    const spread = groups.rows.first().locator("[data-spread]");
    const status = await spread.innerText();
    const report = (await spread.getAttribute("title")) ?? "";
    expect(["yes", "no", "n/a"]).toContain(status);
    expect(await spread.getAttribute("data-spread")).toBe(status);
    expect(report).toMatch(/^spread check: /);
    expect(report).toMatch(/\nComputed over the (rewards|GAR factors) of \d+ /);
    expect(report.includes("\nspread: yes.")).toBe(status === "yes");

    // Sort by mean: numbers sort descending first, then ascending, then file order again.
    await groups.sortBy("mean");
    expect(await groups.ariaSort("mean")).toBe("descending");
    expect(param(page.url(), "sort")).toBe("mean:desc");
    const desc = numbers(await groups.allCells(COL.mean));
    expect(desc).toHaveLength(40);
    expect(desc.every((m, i) => i === 0 || desc[i - 1]! >= m)).toBe(true);
    await groups.sortBy("mean");
    expect(await groups.ariaSort("mean")).toBe("ascending");
    const asc = numbers(await groups.allCells(COL.mean));
    expect(asc).toEqual([...desc].reverse());
    await groups.sortBy("mean");
    expect(await groups.ariaSort("mean")).toBe("none");
    expect(param(page.url(), "sort")).toBeNull();
    expect(await groups.allIds()).toEqual(facts.ids);

    // Zero std: every listed group has std 0 and is flagged.
    await groups.filter("zero-std").check();
    expect(param(page.url(), "filter")).toBe("zero-std");
    const zeroStd = await groups.allIds();
    expect(zeroStd.length).toBeGreaterThan(0);
    expect(zeroStd.length).toBeLessThan(40);
    expect(await groups.count.innerText()).toBe(`${zeroStd.length} of 40 groups`);
    expect((await groups.allCells(COL.std)).every((s) => s === "0.000")).toBe(true);
    expect((await groups.allCells(COL.zeroStd)).every((s) => s === "zero std")).toBe(true);
    await groups.filter("zero-std").uncheck();

    // Mixed: every listed group has at least one pass and one failure.
    await groups.filter("mixed").check();
    const n = numbers(await groups.allCells(COL.n));
    const passes = numbers(await groups.allCells(COL.passes));
    expect(n.length).toBeGreaterThan(0);
    expect(passes.every((p, i) => p >= 1 && p < n[i]!)).toBe(true);
    const mixed = await groups.allIds();
    expect(mixed.filter((id) => zeroStd.includes(id))).toEqual([]);
    await groups.filter("mixed").uncheck();

    // A word only completions hold finds exactly the groups whose completions have it.
    await groups.search.fill(facts.word.toUpperCase());
    await page.waitForFunction(
      (want) => document.querySelector('[data-testid="filter-count"]')?.textContent === want,
      `${facts.hits.length} of 40 groups`,
    );
    expect(await groups.allIds()).toEqual(facts.hits);
    expect(param(page.url(), "q")).toBe(facts.word.toUpperCase());
    await groups.search.fill("");

    // Keyboard: a click selects, the arrows, j/k and Home/End move the selection and the URL.
    await (await groups.row(facts.ids[0]!)).locator("td").nth(1).click();
    await expect.poll(() => groups.selectedId()).toBe(facts.ids[0]);
    expect(await groups.table.evaluate((t) => t === document.activeElement)).toBe(true);
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => groups.selectedId()).toBe(facts.ids[1]);
    expect(param(page.url(), "group")).toBe(facts.ids[1]);
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("k");
    await expect.poll(() => groups.selectedId()).toBe(facts.ids[2]);
    await page.keyboard.press("End");
    await expect.poll(() => groups.selectedId()).toBe(facts.ids[39]);
    expect(param(page.url(), "group")).toBe(facts.ids[39]);
    await page.getByTestId("group.detail").getByText(`Group ${facts.ids[39]!}`).waitFor();
    await page.keyboard.press("Home");
    await expect.poll(() => groups.selectedId()).toBe(facts.ids[0]);
    // Enter opens the group: the focus moves to its workspace.
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.getByTestId("group.workspace").evaluate((w) => w === document.activeElement))
      .toBe(true);
    await groups.table.focus();
    // `/` jumps to the search; typing there is text, not navigation.
    await page.keyboard.press("/");
    expect(await groups.search.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.type("jj");
    expect(await groups.search.inputValue()).toBe("jj");
    expect(param(page.url(), "group")).toBe(facts.ids[0]);
    await groups.search.fill("");

    // A deep link reproduces the view: filter, sort and the selected group (scrolled into view).
    await groups.filter("mixed").check();
    await groups.sortBy("std");
    const view = await groups.allIds();
    const target = view[view.length - 1]!;
    await groups.open(target);
    const link = page.url();
    expect(param(link, "filter")).toBe("mixed");
    expect(param(link, "sort")).toBe("std:desc");
    expect(param(link, "group")).toBe(target);
    await page.goto("about:blank");
    await page.goto(link);
    const again = new GroupBrowser(page);
    await again.ready();
    await expect.poll(() => again.selectedId()).toBe(target);
    expect(await again.filter("mixed").isChecked()).toBe(true);
    expect(await again.ariaSort("std")).toBe("descending");
    await page.getByTestId("group.detail").getByText(`Group ${target}`).waitFor();
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS_DIR}group-browser.png` });
    expect(await again.allIds()).toEqual(view);
    expect(pageErrors.list).toEqual([]);
  });

  test("20,000 groups: only the rows in view are in the DOM, and End reaches the last", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const count = 20_000;
    const id = (i: number) => `task-${String(i).padStart(5, "0")}`;
    const lines: string[] = [];
    for (let i = 0; i < count; i++)
      for (let k = 0; k < 2; k++)
        lines.push(
          JSON.stringify({
            group_id: id(i),
            prompt: `Question ${i}`,
            completion: `answer ${k} to ${i}`,
            reward: (i + k) % 3 === 0 ? 1 : 0,
          }),
        );
    await loaderPage.open(baseUrl);
    await loaderPage.choose({
      name: "many-groups.jsonl",
      mimeType: "application/jsonl",
      buffer: Buffer.from(lines.join("\n")),
    });
    const groups = loaderPage.groups;
    await page.waitForFunction(
      () => document.querySelector('[data-testid="filter-count"]')?.textContent === "20,000 groups",
    );
    expect(await groups.listedCount()).toBe(count);
    const rendered = await groups.rows.count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(80);
    expect((await groups.renderedIds())[0]).toBe(id(0));

    await (await groups.row(id(0))).locator("td").nth(1).click();
    await expect.poll(() => groups.selectedId()).toBe(id(0));
    await page.keyboard.press("End");
    await expect.poll(() => groups.selectedId()).toBe(id(count - 1));
    expect(param(page.url(), "group")).toBe(id(count - 1));
    const last = groups.rows.and(page.locator(`[data-group-id="${id(count - 1)}"]`));
    expect(await last.getAttribute("aria-rowindex")).toBe(String(count + 1));
    expect(await groups.rows.count()).toBeLessThan(80);
    await page.keyboard.press("ArrowUp");
    await expect.poll(() => groups.selectedId()).toBe(id(count - 2));
    await page.keyboard.press("Home");
    await expect.poll(() => groups.selectedId()).toBe(id(0));

    // Sorting 20,000 rows by id, descending after ascending, puts the last group first.
    await groups.sortBy("id");
    await groups.sortBy("id");
    expect(await groups.ariaSort("id")).toBe("descending");
    // The selected group (task-00000) is kept in view after the sort, which scrolls to the
    // bottom once the deferred rows land; scroll back up on every poll until the top shows.
    await expect
      .poll(async () => {
        await groups.table.evaluate((t) => (t.parentElement!.scrollTop = 0));
        return (await groups.renderedIds())[0];
      })
      .toBe(id(count - 1));
    expect(await groups.rows.count()).toBeLessThan(80);
    expect(pageErrors.list).toEqual([]);
  });
});
