/**
 * Page object for rubrics (src/ui/features/rubrics): the group workspace's "Rubric" tab (the
 * criteria editor, save, "Draft with judge", versions with their diff, stale labels, the GRS
 * preview) and the dataset-level "Rubrics" panel. Reads wait for their element first
 * (playwright-core has no auto-waiting `expect`).
 */
import type { Locator, Page } from "playwright-core";

export type CriteriaList = "solution" | "behavior";

export class Rubrics {
  readonly page: Page;
  readonly tab: Locator;
  readonly status: Locator;
  readonly save: Locator;
  readonly draft: Locator;
  readonly history: Locator;
  readonly stale: Locator;
  readonly grs: Locator;
  readonly panel: Locator;

  constructor(page: Page) {
    this.page = page;
    this.tab = page.getByTestId("rubric.tab");
    this.status = page.getByTestId("rubric.status");
    this.save = page.getByTestId("rubric.save");
    this.draft = page.getByTestId("rubric.draft");
    this.history = page.getByTestId("rubric.history");
    this.stale = page.getByTestId("rubric.stale");
    this.grs = page.getByTestId("grs.preview");
    this.panel = page.getByTestId("rubrics.panel");
  }

  /** Opens the group's "Rubric" tab. */
  async open(): Promise<void> {
    await this.page.getByTestId("workspace.tab.rubric").click();
    await this.tab.waitFor();
  }

  /** Back to the "Rollouts" tab (where labels are set). */
  async openRollouts(): Promise<void> {
    await this.page.getByTestId("workspace.tab.rollouts").click();
    await this.page.getByTestId("ranking.panel").waitFor();
  }

  line(list: CriteriaList, index: number): Locator {
    return this.page
      .getByTestId(`rubric.list.${list}`)
      .locator('[data-testid="rubric.criterion"]')
      .nth(index);
  }

  /** The editor's lines as shown (input values). */
  async lines(list: CriteriaList): Promise<string[]> {
    await this.tab.waitFor();
    return this.page
      .getByTestId(`rubric.list.${list}`)
      .locator('[data-testid="rubric.criterion"]')
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  }

  /** Types criteria into an empty list from the keyboard alone (Enter starts the next line). */
  async typeLines(list: CriteriaList, lines: readonly string[]): Promise<void> {
    await this.line(list, 0).click();
    for (const [i, text] of lines.entries()) {
      if (i > 0) await this.page.keyboard.press("Enter");
      await this.page.keyboard.type(text);
    }
  }

  /** Saves and waits until the given version is current. */
  async saveAs(version: number): Promise<void> {
    await this.save.click();
    await this.waitForVersion(version);
  }

  async waitForVersion(version: number): Promise<void> {
    await this.page.locator(`[data-testid="rubric.status"][data-version="${version}"]`).waitFor();
  }

  /** The shown diff: "+text", "-text" or " text" per line, by list. */
  async diff(): Promise<Record<CriteriaList, string[]>> {
    await this.history.waitFor();
    const read = (list: CriteriaList) =>
      this.page
        .locator(`[data-testid="rubric.diff.line"][data-list="${list}"]`)
        .evaluateAll((els) =>
          els.map((e) => {
            const kind = e.getAttribute("data-kind");
            const mark = kind === "added" ? "+" : kind === "removed" ? "-" : " ";
            return `${mark}${e.querySelector('[data-testid="rubric.diff.text"]')?.textContent ?? ""}`;
          }),
        );
    return { solution: await read("solution"), behavior: await read("behavior") };
  }

  /** Picks the two versions to diff (0 = empty). */
  async diffVersions(from: number, to: number): Promise<void> {
    await this.page.getByTestId("rubric.diff.from").selectOption(String(from));
    await this.page.getByTestId("rubric.diff.to").selectOption(String(to));
  }

  /** The stale labels listed: [rollout id, version it was made under ("" = before any)]. */
  async staleLabels(): Promise<[string, string][]> {
    await this.stale.waitFor();
    return this.stale
      .locator('[data-testid="rubric.stale.item"]')
      .evaluateAll((els) =>
        els.map((e): [string, string] => [
          e.getAttribute("data-rollout-id") ?? "",
          e.getAttribute("data-version") ?? "",
        ]),
      );
  }

  grsRow(rolloutId: string): Locator {
    return this.grs.locator(`[data-testid="grs.row"][data-rollout-id="${rolloutId}"]`);
  }

  /** Types s and b for a pass in the GRS preview. */
  async typeScores(rolloutId: string, s: string, b: string): Promise<void> {
    await this.grsRow(rolloutId).getByTestId("grs.s").fill(s);
    await this.grsRow(rolloutId).getByTestId("grs.b").fill(b);
  }

  async setFloor(text: string): Promise<void> {
    await this.grs.getByTestId("grs.floor").fill(text);
  }

  /** Every preview row: id, status, shaped reward (plain number text), stale label marker. */
  async grsRows(): Promise<{ id: string; status: string; shaped: string; stale: boolean }[]> {
    await this.grs.waitFor();
    return this.grs.locator('[data-testid="grs.row"]').evaluateAll((rows) =>
      rows.map((r) => ({
        id: r.getAttribute("data-rollout-id") ?? "",
        status: r.getAttribute("data-status") ?? "",
        shaped: r.querySelector('[data-testid="grs.shaped"]')?.getAttribute("data-value") ?? "",
        stale: r.querySelector('[data-testid="grs.stale-label"]') !== null,
      })),
    );
  }

  /** Opens the dataset-level panel (toggle in the toolbar). */
  async openPanel(): Promise<void> {
    await this.page.getByTestId("panel.toggle.rubrics").click();
    await this.panel.waitFor();
  }

  panelRow(task: string): Locator {
    return this.panel.locator(`[data-testid="rubrics.row"][data-task="${task}"]`);
  }
}
