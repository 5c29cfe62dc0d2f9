/**
 * Page object for the group browser (src/ui/features/groups): the virtualised group table, its
 * sort headers and its filters. Only the rows in view (plus a few) are in the DOM, so reading every
 * row scrolls the table's scroller from top to bottom, collecting rows by their `aria-rowindex`,
 * and checks that it saw as many as `aria-rowcount` announces. playwright-core ships no
 * auto-waiting `expect`, so every read waits for its element.
 */
import type { Locator, Page } from "playwright-core";

export type FilterName = "mixed" | "zero-std" | "hacks" | "unreviewed";

export class GroupBrowser {
  readonly page: Page;
  /** The grid (stable id `groups.table`); its parent element is the scroller. */
  readonly table: Locator;
  /** The rendered rows (stable id `group-row`, with `data-group-id`). */
  readonly rows: Locator;
  readonly search: Locator;
  readonly count: Locator;

  constructor(page: Page) {
    this.page = page;
    this.table = page.getByTestId("groups.table");
    this.rows = page.getByTestId("group-row");
    this.search = page.getByTestId("filter-search");
    this.count = page.getByTestId("filter-count");
  }

  /**
   * Waits until the table is shown and its rows follow the current filters and sort (the list
   * renders them deferred, and says aria-busy meanwhile).
   */
  async ready(): Promise<void> {
    await this.table.waitFor({ state: "visible" });
    await this.page.locator('section[aria-label="Groups"]:not([aria-busy="true"])').waitFor();
  }

  /** Groups listed under the current filters (the grid's aria-rowcount, less the header row). */
  async listedCount(): Promise<number> {
    await this.ready();
    return Number(await this.table.getAttribute("aria-rowcount")) - 1;
  }

  /** The ids of the rows in the DOM, in list order. */
  async renderedIds(): Promise<string[]> {
    await this.ready();
    return this.table.evaluate((table) =>
      [...table.querySelectorAll('[data-testid="group-row"]')]
        .sort(
          (a, b) =>
            Number(a.getAttribute("aria-rowindex")) - Number(b.getAttribute("aria-rowindex")),
        )
        .map((r) => r.getAttribute("data-group-id") ?? ""),
    );
  }

  /**
   * Every listed group's id, in list order: scrolls the scroller one view at a time (waiting two
   * frames for the virtualiser to render), then back to where it was. Throws when it saw a
   * different number of rows than the grid announces, so a partial read never passes silently.
   */
  async allIds(): Promise<string[]> {
    return this.scan(null);
  }

  /** The text of one column (0-based) for every listed row, in list order (scrolls like `allIds`). */
  async allCells(column: number): Promise<string[]> {
    return this.scan(column);
  }

  private async scan(column: number | null): Promise<string[]> {
    await this.ready();
    return this.table.evaluate(async (table, col) => {
      const scroller = table.parentElement!;
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const expected = Number(table.getAttribute("aria-rowcount")) - 1;
      const seen = new Map<number, string>();
      const start = scroller.scrollTop;
      scroller.scrollTop = 0;
      await frame();
      await frame();
      for (;;) {
        for (const row of table.querySelectorAll('[data-testid="group-row"]'))
          seen.set(
            Number(row.getAttribute("aria-rowindex")),
            col === null
              ? (row.getAttribute("data-group-id") ?? "")
              : (row.children[col]?.textContent ?? ""),
          );
        if (seen.size >= expected) break;
        if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) break;
        scroller.scrollTop += Math.max(1, scroller.clientHeight - 60);
        await frame();
        await frame();
      }
      scroller.scrollTop = start;
      await frame();
      if (seen.size !== expected)
        throw new Error(
          `group browser: saw ${seen.size} rows while aria-rowcount says ${expected}`,
        );
      return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, value]) => value);
    }, column);
  }

  /** A group's row, scrolled into the DOM first if the list has it. */
  async row(groupId: string): Promise<Locator> {
    await this.ready();
    const found = await this.table.evaluate(async (table, id) => {
      const scroller = table.parentElement!;
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const present = () =>
        [...table.querySelectorAll('[data-testid="group-row"]')].some(
          (r) => r.getAttribute("data-group-id") === id,
        );
      if (present()) return true;
      scroller.scrollTop = 0;
      await frame();
      await frame();
      for (;;) {
        if (present()) return true;
        if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) return false;
        scroller.scrollTop += Math.max(1, scroller.clientHeight - 60);
        await frame();
        await frame();
      }
    }, groupId);
    if (!found) throw new Error(`group browser: no listed group ${JSON.stringify(groupId)}`);
    const row = this.rows.and(this.page.locator(`[data-group-id="${cssString(groupId)}"]`));
    await row.scrollIntoViewIfNeeded();
    return row;
  }

  /** Opens a group by clicking its id button (stable id `groups.row.id`). */
  async open(groupId: string): Promise<void> {
    await (await this.row(groupId)).getByTestId("groups.row.id").click();
  }

  /** The selected row's group id, when it is rendered. */
  async selectedId(): Promise<string | null> {
    const selected = this.table.locator('[data-testid="group-row"][aria-selected="true"]');
    return (await selected.count()) === 0 ? null : selected.getAttribute("data-group-id");
  }

  /** Clicks a column's sort button (`groups.sort.<column>`). */
  async sortBy(column: string): Promise<void> {
    await this.page.getByTestId(`groups.sort.${column}`).click();
  }

  async ariaSort(column: string): Promise<string | null> {
    return this.page
      .getByTestId(`groups.sort.${column}`)
      .locator("xpath=..")
      .getAttribute("aria-sort");
  }

  filter(name: FilterName): Locator {
    return this.page.getByTestId(`filter-${name}`);
  }
}

/** A value quoted for a CSS attribute selector (ids are untrusted text). */
function cssString(value: string): string {
  return value.replace(/["\\]/g, "\\$&");
}
