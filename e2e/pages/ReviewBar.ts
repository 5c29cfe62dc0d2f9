/**
 * Page object for the review bar (src/ui/features/review): the queue mode, the "k of N" position,
 * the reviewed count, previous and next, undo and redo, and the `?` cheat sheet.
 */
import type { Locator, Page } from "playwright-core";

export class ReviewBar {
  readonly page: Page;
  readonly bar: Locator;
  readonly mode: Locator;
  readonly sampleSize: Locator;
  readonly sampleSeed: Locator;
  readonly position: Locator;
  readonly reviewed: Locator;
  readonly previous: Locator;
  readonly next: Locator;
  readonly markNext: Locator;
  readonly undo: Locator;
  readonly redo: Locator;
  readonly help: Locator;
  readonly sheet: Locator;

  constructor(page: Page) {
    this.page = page;
    this.bar = page.getByTestId("review.bar");
    this.mode = page.getByTestId("review.mode");
    this.sampleSize = page.getByTestId("review.sample-size");
    this.sampleSeed = page.getByTestId("review.sample-seed");
    this.position = page.getByTestId("review.position");
    this.reviewed = page.getByTestId("review.reviewed");
    this.previous = page.getByTestId("review.previous");
    this.next = page.getByTestId("review.next");
    this.markNext = page.getByTestId("review.mark-next");
    this.undo = page.getByTestId("review.undo");
    this.redo = page.getByTestId("review.redo");
    this.help = page.getByTestId("review.help");
    this.sheet = page.getByTestId("shortcuts.dialog");
  }

  /** Waits until the position reads `text` ("3 of 87"). */
  async waitPosition(text: string): Promise<void> {
    await this.page
      .locator('[data-testid="review.position"]', { hasText: new RegExp(`^${text}$`) })
      .waitFor();
  }

  async waitReviewed(k: number): Promise<void> {
    await this.page
      .locator('[data-testid="review.reviewed"]', { hasText: new RegExp(`^reviewed ${k}$`) })
      .waitFor();
  }

  /** The open group's id, from the workspace's label. */
  async openGroup(): Promise<string> {
    const ws = this.page.getByTestId("group.workspace");
    await ws.waitFor();
    return ((await ws.getAttribute("aria-label")) ?? "").replace(/^Group /, "");
  }

  /** Moves the focus out of any field, so the next key press is a shortcut. */
  async blur(): Promise<void> {
    await this.page.evaluate(() => {
      const el = document.activeElement;
      if (el instanceof HTMLElement) el.blur();
    });
  }
}
