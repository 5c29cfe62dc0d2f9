/**
 * Page object for the field-mapping dialog (src/ui/features/mapping): the pickers, the fields
 * found in the sample, the preview, presets and submit. Reads wait for their element, as
 * playwright-core has no auto-waiting `expect`.
 */
import type { Locator, Page } from "playwright-core";

export class MappingDialog {
  readonly page: Page;
  readonly root: Locator;
  /** "Map fields…" in the load error. */
  readonly openButton: Locator;
  readonly group: Locator;
  readonly id: Locator;
  readonly text: Locator;
  readonly rewards: Locator;
  readonly fields: Locator;
  readonly preview: Locator;
  readonly submit: Locator;
  readonly cancel: Locator;
  readonly presetName: Locator;
  readonly presetSave: Locator;
  readonly presets: Locator;

  constructor(page: Page) {
    this.page = page;
    this.root = page.getByTestId("mapping.dialog");
    this.openButton = page.getByTestId("load.map-fields");
    this.group = this.root.getByTestId("mapping.group");
    this.id = this.root.getByTestId("mapping.id");
    this.text = this.root.getByTestId("mapping.text");
    this.rewards = this.root.getByTestId("mapping.reward");
    this.fields = this.root.getByTestId("mapping.field");
    this.preview = this.root.getByTestId("mapping.preview");
    this.submit = this.root.getByTestId("mapping.submit");
    this.cancel = this.root.getByTestId("mapping.cancel");
    this.presetName = this.root.getByTestId("mapping.preset-name");
    this.presetSave = this.root.getByTestId("mapping.preset-save");
    this.presets = this.root.getByTestId("mapping.preset");
  }

  /** Waits until the dialog shows the fields of its sample. */
  async ready(): Promise<void> {
    await this.root.getByTestId("mapping.fields").waitFor({ state: "visible" });
  }

  /** Opens the dialog from the load error's "Map fields…" and waits for the fields. */
  async open(): Promise<void> {
    await this.openButton.click();
    await this.ready();
  }

  async closed(): Promise<void> {
    await this.root.waitFor({ state: "detached" });
  }

  /** The names of the fields found in the sample, in order. */
  async fieldNames(): Promise<string[]> {
    return this.fields.locator("code").allInnerTexts();
  }

  /** The paths of the checked reward fields. */
  async checkedRewards(): Promise<string[]> {
    const values: string[] = [];
    for (const box of await this.rewards.all()) {
      if (await box.isChecked()) values.push(await box.inputValue());
    }
    return values;
  }

  /** Saves the current picks as a preset and waits for it to be listed. */
  async savePreset(name: string): Promise<void> {
    await this.presetName.fill(name);
    await this.presetSave.click();
    await this.preset(name).waitFor();
  }

  /** The listed preset with this name. */
  preset(name: string): Locator {
    return this.presets.filter({
      has: this.page.getByTestId("mapping.preset.name").getByText(name, { exact: true }),
    });
  }

  async presetNames(): Promise<string[]> {
    return this.root.getByTestId("mapping.preset.name").allInnerTexts();
  }
}
