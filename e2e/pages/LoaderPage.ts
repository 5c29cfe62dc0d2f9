/**
 * Page object for loading files: the header, the drop zone, the load feedback, the dataset bar and
 * the issue list. playwright-core ships no auto-waiting `expect`, so every read waits for its element.
 */
import type { Locator, Page } from "playwright-core";

import { GroupBrowser } from "./GroupBrowser.ts";

export interface FileToChoose {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export class LoaderPage {
  readonly page: Page;
  readonly header: Locator;
  readonly dropZone: Locator;
  readonly fileInput: Locator;
  readonly chooseFileButton: Locator;
  readonly format: Locator;
  readonly readAs: Locator;
  readonly groupKey: Locator;
  readonly counts: Locator;
  readonly issueCount: Locator;
  /** The issue count alone (stable id `load-issues`). */
  readonly issueNumber: Locator;
  readonly issuesList: Locator;
  readonly loadError: Locator;
  /** The group browser, whose rows are virtualised (see GroupBrowser). */
  readonly groups: GroupBrowser;

  constructor(page: Page) {
    this.page = page;
    this.header = page.getByTestId("app.header");
    this.dropZone = page.getByTestId("drop-zone.root");
    this.fileInput = page.getByTestId("file-input");
    this.chooseFileButton = this.dropZone.getByText("Choose file", { exact: true });
    this.format = page.getByTestId("dataset.format");
    this.readAs = page.getByTestId("dataset.read-as");
    this.groupKey = page.getByTestId("dataset.group-key");
    this.counts = page.getByTestId("dataset.counts");
    this.issueCount = page.getByTestId("dataset.issue-count");
    this.issueNumber = page.getByTestId("load-issues");
    this.issuesList = page.getByTestId("issues.list");
    this.loadError = page.getByTestId("load.error");
    this.groups = new GroupBrowser(page);
  }

  /** Opens the app at `baseUrl` and waits until the drop zone has rendered. */
  async open(baseUrl: string): Promise<void> {
    await this.page.goto(`${baseUrl}/`);
    await this.dropZone.waitFor({ state: "visible" });
  }

  /** Chooses a file from the drop zone (first load) or the header's "Open file" (later loads). */
  async choose(file: FileToChoose | string): Promise<void> {
    await this.fileInput.setInputFiles(typeof file === "string" ? file : [file]);
  }

  /**
   * Waits until a dataset is shown, and returns the ids of every listed group in table order. The
   * table is virtualised, so this scrolls through it (GroupBrowser.allIds), not just reads the DOM.
   */
  async groupIds(): Promise<string[]> {
    await this.counts.waitFor({ state: "visible" });
    return this.groups.allIds();
  }

  async issues(): Promise<string[]> {
    await this.issueCount.click();
    await this.issuesList.waitFor({ state: "visible" });
    return this.issuesList.getByTestId("issues.item").allInnerTexts();
  }
}
