/**
 * Page object for the loader: the header and the full-page drop zone with its list of chosen files.
 * playwright-core ships no auto-waiting `expect`, so every read waits for its element first.
 */
import type { Locator, Page } from "playwright-core";

export interface FileToChoose {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export interface ChosenFileText {
  name: string;
  size: string;
}

export class LoaderPage {
  readonly page: Page;
  readonly header: Locator;
  readonly dropZone: Locator;
  readonly fileInput: Locator;
  readonly chooseFileButton: Locator;
  readonly fileList: Locator;

  constructor(page: Page) {
    this.page = page;
    this.header = page.getByTestId("app.header");
    this.dropZone = page.getByTestId("drop-zone.root");
    this.fileInput = page.getByTestId("drop-zone.input");
    this.chooseFileButton = this.dropZone.getByText("Choose file", { exact: true });
    this.fileList = page.getByTestId("drop-zone.files");
  }

  /** Opens the app at `baseUrl` and waits until the drop zone has rendered. */
  async open(baseUrl: string): Promise<void> {
    await this.page.goto(`${baseUrl}/`);
    await this.dropZone.waitFor({ state: "visible" });
  }

  async chooseFiles(files: readonly FileToChoose[]): Promise<void> {
    await this.fileInput.setInputFiles([...files]);
    await this.fileList.waitFor({ state: "visible" });
  }

  /** Names and size labels as the user reads them, in list order. */
  async chosenFiles(): Promise<ChosenFileText[]> {
    await this.fileList.waitFor({ state: "visible" });
    const items = await this.fileList.getByTestId("drop-zone.files.item").all();
    return Promise.all(
      items.map(async (item) => ({
        name: await item.getByTestId("drop-zone.files.name").innerText(),
        size: await item.getByTestId("drop-zone.files.size").innerText(),
      })),
    );
  }
}
