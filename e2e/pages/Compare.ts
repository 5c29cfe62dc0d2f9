/**
 * Page object for the group workspace's Compare tab (src/ui/features/pairwise): the start form,
 * the blind match (sides A and B), the progress, and the results with "Accept ranking".
 * playwright-core has no auto-waiting `expect`, so reads wait for their element first.
 */
import type { Locator, Page } from "playwright-core";

export class Compare {
  readonly page: Page;
  readonly tab: Locator;
  readonly schedule: Locator;
  readonly seed: Locator;
  readonly begin: Locator;
  readonly progress: Locator;
  readonly match: Locator;
  readonly sideA: Locator;
  readonly sideB: Locator;
  readonly undo: Locator;
  readonly results: Locator;
  readonly resultRows: Locator;
  readonly accept: Locator;
  readonly cycles: Locator;
  readonly noCycles: Locator;

  constructor(page: Page) {
    this.page = page;
    this.tab = page.getByTestId("workspace.tab.compare");
    this.schedule = page.getByTestId("pairwise.schedule");
    this.seed = page.getByTestId("pairwise.seed");
    this.begin = page.getByTestId("pairwise.begin");
    this.progress = page.getByTestId("pairwise.progress");
    this.match = page.getByTestId("pairwise.match");
    this.sideA = page.getByTestId("pairwise.side-a");
    this.sideB = page.getByTestId("pairwise.side-b");
    this.undo = page.getByTestId("pairwise.undo");
    this.results = page.getByTestId("pairwise.results");
    this.resultRows = page.getByTestId("pairwise.result-row");
    this.accept = page.getByTestId("pairwise.accept");
    this.cycles = page.getByTestId("pairwise.cycles");
    this.noCycles = page.getByTestId("pairwise.no-cycles");
  }

  async open(): Promise<void> {
    await this.tab.click();
  }

  /** The progress text once it reads `text` ("3 of 14"). */
  async waitProgress(text: string): Promise<void> {
    await this.page
      .locator('[data-testid="pairwise.progress"]', { hasText: new RegExp(`^${text}$`) })
      .waitFor();
  }

  async progressText(): Promise<string> {
    await this.progress.waitFor();
    return this.progress.innerText();
  }

  /** The result rows' rollout ids, best first. */
  async resultIds(): Promise<string[]> {
    await this.resultRows.first().waitFor();
    return this.resultRows.evaluateAll((els) =>
      els.map((e) => e.getAttribute("data-rollout-id") ?? ""),
    );
  }
}
