/**
 * Page object for the charts: the Metrics tab of a group and the dataset overview, each chart in a
 * frame (`chart`, `data-chart=<name>`) with "Save PNG" / "Save SVG". Saving returns the downloaded
 * file's name and bytes.
 */
import { readFile } from "node:fs/promises";

import type { Locator, Page } from "playwright-core";

export interface SavedFile {
  name: string;
  bytes: Buffer;
}

export class ChartsPage {
  readonly page: Page;
  readonly metricsTab: Locator;
  readonly metricsPanel: Locator;
  readonly metricsTable: Locator;
  readonly clusters: Locator;
  readonly overviewToggle: Locator;
  readonly overview: Locator;

  constructor(page: Page) {
    this.page = page;
    this.metricsTab = page.getByTestId("workspace.tab.metrics");
    this.metricsPanel = page.getByTestId("metrics.panel");
    this.metricsTable = page.getByTestId("metrics.table");
    this.clusters = page.locator('[data-testid="metrics.clusters"][data-clusters="ready"]');
    this.overviewToggle = page.getByTestId("panel.toggle.overview");
    this.overview = page.getByTestId("overview");
  }

  chart(name: string): Locator {
    return this.page.locator(`[data-testid="chart"][data-chart="${name}"]`);
  }

  /** Opens a group from the group list, then its Metrics tab. */
  async openMetrics(groupId: string): Promise<void> {
    await this.page
      .locator(`[data-testid="group-row"][data-group-id="${groupId}"]`)
      .getByTestId("groups.row.id")
      .click();
    await this.metricsTab.click();
    await this.metricsPanel.waitFor({ state: "visible" });
  }

  /** The text of one table column, in row order. */
  async column(id: string): Promise<string[]> {
    await this.metricsTable.waitFor({ state: "visible" });
    return this.metricsTable.getByTestId(`metrics.cell.${id}`).allInnerTexts();
  }

  /** How many bars, dots or lines the recharts chart drew inside a frame. */
  async marks(name: string): Promise<number> {
    const chart = this.chart(name);
    await chart.locator(".recharts-wrapper > svg").first().waitFor({ state: "visible" });
    return chart
      .locator(
        ".recharts-bar-rectangle path, .recharts-scatter-symbol, .recharts-line-dot, .recharts-line-curve, .recharts-line-dots circle",
      )
      .count();
  }

  /** Pixels of a heatmap canvas that are not white: > 0 once it has been drawn. */
  async paintedPixels(testId: string): Promise<number> {
    const canvas = this.page.locator(`[data-testid="${testId}"][data-drawn="true"]`);
    await canvas.waitFor({ state: "visible" });
    return canvas.evaluate((el) => {
      const c = el as HTMLCanvasElement;
      const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      let painted = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i]! < 250 || data[i + 1]! < 250 || data[i + 2]! < 250) painted += 1;
      return painted;
    });
  }

  /** Clicks a chart's save button and reads the file the browser downloaded. */
  async save(name: string, ext: "png" | "svg"): Promise<SavedFile> {
    const [download] = await Promise.all([
      this.page.waitForEvent("download"),
      this.chart(name).getByTestId(`chart-save-${ext}`).click(),
    ]);
    const path = await download.path();
    return { name: download.suggestedFilename(), bytes: await readFile(path) };
  }
}
