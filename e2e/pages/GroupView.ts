/**
 * Page object for the open group's workspace (src/ui/features/rollouts): the rollout columns with
 * their headers and transcripts, the layout controls (columns visible, pins, synchronised
 * scrolling), and the divergence tab. playwright-core has no auto-waiting `expect`, so reads wait
 * for their element first.
 */
import type { Locator, Page } from "playwright-core";

export class GroupView {
  readonly page: Page;
  readonly detail: Locator;
  readonly columnsScroller: Locator;
  readonly columns: Locator;
  readonly columnsVisible: Locator;
  readonly syncScroll: Locator;
  readonly rolloutsTab: Locator;
  readonly divergenceTab: Locator;
  readonly divergence: Locator;

  constructor(page: Page) {
    this.page = page;
    this.detail = page.getByTestId("group.detail");
    this.columnsScroller = page.getByTestId("group.columns");
    this.columns = page.getByTestId("rollout-column");
    this.columnsVisible = page.getByTestId("columns-visible");
    this.syncScroll = page.getByTestId("sync-scroll");
    this.rolloutsTab = page.getByTestId("workspace.tab.rollouts");
    this.divergenceTab = page.getByTestId("workspace.tab.divergence");
    this.divergence = page.getByTestId("divergence.view");
  }

  /** Opens a group from the group list and waits until its clusters are computed. */
  async open(groupId: string): Promise<void> {
    await this.page
      .locator(`[data-testid="group-row"][data-group-id="${groupId}"]`)
      .getByTestId("groups.row.id")
      .click();
    await this.detail.getByText(`Group ${groupId}`, { exact: true }).waitFor();
    await this.page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
  }

  column(rolloutId: string): Locator {
    return this.page.locator(`[data-testid="rollout-column"][data-rollout-id="${rolloutId}"]`);
  }

  body(rolloutId: string): Locator {
    return this.column(rolloutId).getByTestId("rollout-column.body");
  }

  async columnIds(): Promise<string[]> {
    await this.columns.first().waitFor();
    return this.columns.evaluateAll((els) =>
      els.map((e) => e.getAttribute("data-rollout-id") ?? ""),
    );
  }

  /** Each column's text for one metric test id, in DOM (group) order. */
  async metric(testId: string): Promise<(string | null)[]> {
    await this.columns.first().waitFor();
    return this.page.evaluate(
      (id) =>
        [...document.querySelectorAll('[data-testid="rollout-column"]')].map(
          (c) => c.querySelector(`[data-testid="${id}"]`)?.textContent ?? null,
        ),
      testId,
    );
  }

  /** Expands every folded tool result in a column. */
  async expandToolResults(rolloutId: string): Promise<number> {
    const toggles = this.column(rolloutId).locator(
      '[data-testid="tool-result-toggle"][aria-expanded="false"]',
    );
    const n = await toggles.count();
    for (let i = 0; i < n; i++) await toggles.first().click();
    return n;
  }

  /** The bounding boxes of an element and of the columns' scroll container. */
  async boxes(el: Locator): Promise<{ el: Box; scroller: Box }> {
    const [a, b] = await Promise.all([el.boundingBox(), this.columnsScroller.boundingBox()]);
    if (a === null || b === null) throw new Error("element not rendered");
    return { el: a, scroller: b };
  }

  async openDivergence(): Promise<void> {
    await this.divergenceTab.click();
    await this.divergence.waitFor();
  }
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
