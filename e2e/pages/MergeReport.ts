/**
 * Page object for merging another annotator's file (src/ui/features/annotations): the file input,
 * the agreement figures, the disagreement list and the merge button.
 */
import type { Locator, Page } from "playwright-core";

export class MergeReport {
  readonly page: Page;
  readonly input: Locator;
  readonly report: Locator;
  readonly apply: Locator;
  readonly disagreements: Locator;

  constructor(page: Page) {
    this.page = page;
    this.input = page.getByTestId("annotations-merge");
    this.report = page.getByTestId("merge.report");
    this.apply = page.getByTestId("merge.apply");
    this.disagreements = page.getByTestId("merge.disagreement");
  }

  async choose(path: string): Promise<void> {
    await this.input.setInputFiles(path);
    await this.report.waitFor();
  }

  /** The text of one figure (test id `merge.<name>`). */
  async figure(name: string): Promise<string> {
    return this.report.getByTestId(`merge.${name}`).innerText();
  }
}
