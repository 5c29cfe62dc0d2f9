/**
 * Page object for the Exports dataset panel (src/ui/features/exports): each kind's row count, its
 * options (judge run, source, mode, floor, transcripts) and its download. Reads wait for their element first.
 */
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";

export type ExportKind = "calibration" | "rubrics" | "rewards" | "dpo" | "annotations";

export class Exports {
  readonly page: Page;
  readonly panel: Locator;
  readonly message: Locator;

  constructor(page: Page) {
    this.page = page;
    this.panel = page.getByTestId("exports.panel");
    this.message = page.getByTestId("exports.message");
  }

  /** Opens the panel from the toolbar and waits for its first row count. */
  async open(): Promise<void> {
    await this.page.getByTestId("panel.toggle.exports").click();
    await this.panel.getByTestId("exports.count.calibration").waitFor();
  }

  kind(kind: ExportKind): Locator {
    return this.panel.getByTestId(`exports.kind.${kind}`);
  }

  /** The row count the panel shows (null while the export cannot be written). */
  async rows(kind: ExportKind): Promise<number | null> {
    await this.kind(kind).waitFor();
    const rows = await this.kind(kind).getAttribute("data-rows");
    return rows === null ? null : Number(rows);
  }

  async error(kind: ExportKind): Promise<string | null> {
    const error = this.panel.getByTestId(`exports.error.${kind}`);
    return (await error.count()) === 0 ? null : error.textContent();
  }

  /** The equivalent `rollout-studio export` command the panel shows for a kind. */
  async command(kind: ExportKind): Promise<string> {
    return (await this.panel.getByTestId(`exports.command.${kind}`).textContent()) ?? "";
  }

  async chooseRun(kind: "calibration" | "rewards", value: string): Promise<void> {
    await this.panel.getByTestId(`exports.judge-run.${kind}`).selectOption(value);
  }

  async chooseSource(source: "human" | "judge"): Promise<void> {
    await this.panel.getByTestId("exports.source").selectOption(source);
  }

  async chooseMode(mode: "advantage" | "reward"): Promise<void> {
    await this.panel.getByTestId("exports.mode").selectOption(mode);
  }

  /** How chat transcripts are written: message lists (TRL's conversational form) or text. */
  async chooseTranscripts(form: "messages" | "text"): Promise<void> {
    await this.panel.getByTestId("exports.transcripts").selectOption(form);
  }

  async setFloor(floor: string): Promise<void> {
    await this.panel.getByTestId("exports.floor").fill(floor);
  }

  /** Downloads a kind into `dir` as `name`; returns the path and the name the studio suggested. */
  async download(
    kind: ExportKind,
    dir: string,
    name: string,
  ): Promise<{ path: string; suggested: string }> {
    const download = this.page.waitForEvent("download");
    await this.panel.getByTestId(`exports.download.${kind}`).click();
    const done = await download;
    const path = join(dir, name);
    await done.saveAs(path);
    return { path, suggested: done.suggestedFilename() };
  }
}
