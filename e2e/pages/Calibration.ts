/**
 * Page object for the calibration panel (src/ui/features/calibration): the source pickers, the
 * metric tables per split (values and intervals as data attributes), the sealed test split and
 * its one-time unseal dialog, the log and warnings, rank agreement, and the disagreement list with
 * its walker. Reads wait for their element first (playwright-core has no auto-waiting `expect`).
 */
import type { Locator, Page } from "playwright-core";

export type SplitName = "train" | "dev" | "test";
export type MetricName = "tpr" | "tnr" | "accuracy" | "kappa";

export interface ShownInterval {
  value: string;
  lower: string;
  upper: string;
}

export class Calibration {
  readonly page: Page;
  readonly toggle: Locator;
  readonly panel: Locator;
  readonly judge: Locator;
  readonly humanCounts: Locator;
  readonly sealed: Locator;
  readonly testRows: Locator;
  readonly unsealButton: Locator;
  readonly dialog: Locator;
  readonly unsealed: Locator;
  readonly logEntries: Locator;
  readonly warnings: Locator;
  readonly disagreements: Locator;
  readonly walker: Locator;
  readonly rankOverall: Locator;
  readonly corrected: Locator;

  constructor(page: Page) {
    this.page = page;
    this.toggle = page.getByTestId("panel.toggle.calibration");
    this.panel = page.getByTestId("calibration");
    this.judge = page.getByTestId("calibration.judge");
    this.humanCounts = page.getByTestId("calibration.human.counts");
    this.sealed = page.getByTestId("calibration.sealed");
    this.testRows = page.getByTestId("calibration.test-rows");
    this.unsealButton = page.getByTestId("calibration.unseal");
    this.dialog = page.getByTestId("calibration.unseal.dialog");
    this.unsealed = page.getByTestId("calibration.unsealed");
    this.logEntries = page.getByTestId("calibration.log.entry");
    this.warnings = page.getByTestId("calibration.warning");
    this.disagreements = page.getByTestId("calibration.disagreement");
    this.walker = page.getByTestId("calibration.walk");
    this.rankOverall = page.getByTestId("calibration.rank.overall");
    this.corrected = page.getByTestId("calibration.corrected");
  }

  /** Opens the panel (it loads on first open). */
  async open(): Promise<void> {
    await this.toggle.click();
    await this.panel.waitFor();
  }

  split(split: SplitName): Locator {
    return this.page.getByTestId(`calibration.metrics.${split}`);
  }

  /** A split's confusion matrix as shown. */
  async confusion(split: SplitName): Promise<{ tp: number; tn: number; fp: number; fn: number }> {
    const table = this.page.getByTestId(`calibration.confusion.${split}`);
    await table.waitFor();
    const read = async (k: string) => Number(await table.getAttribute(`data-${k}`));
    return {
      tp: await read("tp"),
      tn: await read("tn"),
      fp: await read("fp"),
      fn: await read("fn"),
    };
  }

  /** A metric's estimate and interval bounds, as the plain numbers of its data attributes. */
  async metric(split: SplitName, name: MetricName): Promise<ShownInterval> {
    const cell = this.page.getByTestId(`calibration.metric.${split}.${name}`);
    await cell.waitFor();
    return {
      value: (await cell.getAttribute("data-value")) ?? "",
      lower: (await cell.getAttribute("data-lower")) ?? "",
      upper: (await cell.getAttribute("data-upper")) ?? "",
    };
  }

  /** Unseals the test split through its confirmation dialog. */
  async unseal(): Promise<void> {
    await this.unsealButton.click();
    await this.dialog.waitFor();
    await this.page.getByTestId("calibration.unseal.confirm").click();
    await this.unsealed.waitFor();
  }

  /** The listed disagreements: [group id, rollout id, split]. */
  async disagreementRows(): Promise<[string, string, string][]> {
    await this.panel.waitFor();
    return this.disagreements.evaluateAll((els) =>
      els.map((e): [string, string, string] => [
        e.getAttribute("data-group-id") ?? "",
        e.getAttribute("data-rollout-id") ?? "",
        e.getAttribute("data-split") ?? "",
      ]),
    );
  }

  /** The walker's "k of N" and the rollout it is on. */
  async walkerState(): Promise<{ position: string; rolloutId: string }> {
    await this.walker.waitFor();
    return {
      position: (await this.page.getByTestId("calibration.walk.position").textContent()) ?? "",
      rolloutId:
        (await this.page.getByTestId("calibration.walk.item").getAttribute("data-rollout-id")) ??
        "",
    };
  }

  /** Waits until a rollout's column is marked as the disagreement shown; returns whether it has the focus. */
  async revealedColumnFocused(rolloutId: string): Promise<boolean> {
    const column = this.page.locator(
      `[data-testid="rollout-column"][data-rollout-id="${rolloutId}"][data-calibration-focus="true"]`,
    );
    await column.waitFor();
    return column.evaluate((el) => el === document.activeElement);
  }
}
