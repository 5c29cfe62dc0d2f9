/**
 * Page object for the settings (src/ui/features/settings): a side sheet opened by the "Settings"
 * button of the dataset bar, and the summary of the settings that differ from their defaults,
 * always shown beside the button. Specs open the sheet before they use a `settings-*` input.
 */
import type { Locator, Page } from "playwright-core";

export class Settings {
  readonly page: Page;
  readonly toggle: Locator;
  readonly sheet: Locator;

  constructor(page: Page) {
    this.page = page;
    this.toggle = page.getByTestId("settings.toggle");
    this.sheet = page.getByTestId("settings.sheet");
  }

  /** Opens the sheet (a no-op when it is open) and waits for its inputs. */
  async open(): Promise<void> {
    await this.toggle.waitFor();
    if ((await this.toggle.getAttribute("aria-expanded")) !== "true") await this.toggle.click();
    await this.sheet.getByTestId("settings-scale").waitFor();
  }

  async close(): Promise<void> {
    if ((await this.toggle.getAttribute("aria-expanded")) === "true") await this.toggle.click();
    await this.sheet.waitFor({ state: "detached" });
  }

  /** The chips of the non-default settings, in order ("scale none", "eps 1e-6"). */
  async summary(): Promise<string[]> {
    return this.page.getByTestId("settings.summary-item").allInnerTexts();
  }
}
