/**
 * Page object for the annotation controls of the group view (src/ui/features/annotate): the
 * ranking panel (tiers, unranked passes, keyboard), each column's label buttons, hack form and
 * "find similar", and the notes. Reads wait for their element first (no auto-waiting `expect`).
 */
import type { Locator, Page } from "playwright-core";

export class Annotate {
  readonly page: Page;
  readonly panel: Locator;
  readonly status: Locator;
  readonly tiers: Locator;
  readonly unranked: Locator;
  readonly live: Locator;
  readonly groupNotes: Locator;

  constructor(page: Page) {
    this.page = page;
    this.panel = page.getByTestId("ranking.panel");
    this.status = page.getByTestId("ranking.status");
    this.tiers = page.getByTestId("ranking.tier");
    this.unranked = page.getByTestId("ranking.unranked");
    this.live = page.getByTestId("ranking.live");
    this.groupNotes = page.getByTestId("annotate.group-notes");
  }

  item(rolloutId: string): Locator {
    return this.panel.locator(`[data-testid="ranking.item"][data-rollout-id="${rolloutId}"]`);
  }

  column(rolloutId: string): Locator {
    return this.page.locator(`[data-testid="rollout-column"][data-rollout-id="${rolloutId}"]`);
  }

  /** The ranking as shown: tiers of rollout ids, best first. */
  async ranking(): Promise<string[][]> {
    await this.panel.waitFor();
    return this.tiers.evaluateAll((tiers) =>
      tiers.map((t) =>
        [...t.querySelectorAll('[data-testid="ranking.item"]')].map(
          (i) => i.getAttribute("data-rollout-id") ?? "",
        ),
      ),
    );
  }

  async unrankedIds(): Promise<string[]> {
    await this.panel.waitFor();
    return this.unranked
      .locator('[data-testid="ranking.item"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-rollout-id") ?? ""));
  }

  /** The id of the focused ranking item ("" when the focus is elsewhere). */
  async focusedItem(): Promise<string> {
    return this.page.evaluate(() => {
      const el = document.activeElement;
      return el?.getAttribute("data-testid") === "ranking.item"
        ? (el.getAttribute("data-rollout-id") ?? "")
        : "";
    });
  }

  /** Selects the first `chars` characters of the last assistant turn's text in a column. */
  async selectInTranscript(rolloutId: string, chars: number): Promise<string> {
    const body = this.column(rolloutId).getByTestId("rollout-column.body");
    await body.waitFor();
    return body.evaluate((root, n) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      let chosen: Text | null = null;
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode())
        if ((node.textContent ?? "").trim().length >= n) chosen = node as Text;
      if (chosen === null) throw new Error("no text long enough to select");
      const text = chosen.textContent ?? "";
      const start = text.length - text.trimStart().length;
      const range = document.createRange();
      range.setStart(chosen, start);
      range.setEnd(chosen, start + n);
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      return selection.toString();
    }, chars);
  }

  label(rolloutId: string, label: "pass" | "fail" | "defer"): Locator {
    return this.column(rolloutId).getByTestId(`annotate.label.${label}`);
  }

  /** The pressed label of each given rollout (null when none). */
  async labels(ids: readonly string[]): Promise<(string | null)[]> {
    const out: (string | null)[] = [];
    for (const id of ids) {
      const pressed = this.column(id).locator(
        '[data-testid^="annotate.label."][aria-pressed="true"]',
      );
      out.push(
        (await pressed.count()) === 0
          ? null
          : ((await pressed.getAttribute("data-testid")) ?? "").replace("annotate.label.", ""),
      );
    }
    return out;
  }

  hackToggle(rolloutId: string): Locator {
    return this.column(rolloutId).getByTestId("annotate.hack-toggle");
  }

  hackForm(rolloutId: string): Locator {
    return this.column(rolloutId).getByTestId("annotate.hack-form");
  }

  hackSummary(rolloutId: string): Locator {
    return this.column(rolloutId).getByTestId("annotate.hack-summary");
  }

  /** A rollout's note field (shown after its "Add note" / "Edit note" button). */
  rolloutNote(rolloutId: string): Locator {
    return this.column(rolloutId).getByTestId("annotate.rollout-note");
  }

  /** Runs "find similar" for a marked hack; returns [group id, rollout id, similarity] rows. */
  async findSimilar(rolloutId: string): Promise<[string, string, number][]> {
    await this.column(rolloutId).getByTestId("annotate.find-similar").click();
    const list = this.column(rolloutId).getByTestId("annotate.similar");
    await list.waitFor();
    return list
      .locator('[data-testid="annotate.similar.item"]')
      .evaluateAll((els) =>
        els.map((e): [string, string, number] => [
          e.getAttribute("data-group-id") ?? "",
          e.getAttribute("data-similar-rollout") ?? "",
          Number(e.querySelector("b")?.textContent ?? "NaN"),
        ]),
      );
  }
}
