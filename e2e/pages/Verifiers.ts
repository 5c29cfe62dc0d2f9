/**
 * Page object for the Verifiers panel (src/ui/features/verifiers): add and configure verifiers,
 * apply the spec, read the run's status and counts, export the spec, and the drop-a-component
 * table. Reads wait for their element first (playwright-core has no auto-waiting `expect`).
 */
import type { Locator, Page } from "playwright-core";

export interface TallyRow {
  name: string;
  pass: number;
  fail: number;
}

/** The check shown before a spec is applied: who would pass differently. */
export interface FlipCheck {
  state: "pending" | "applied";
  count: number;
  summary: string;
  rule: string;
  /** Per group with a flip: [group id, "4 → 6 of 6", what it does to the ranking]. */
  groups: [string, string, string][];
  /** Per flipped rollout: [rollout id, "to-pass" | "to-fail", against a human label]. */
  rows: [string, string, boolean][];
}

export class Verifiers {
  readonly page: Page;
  readonly toggle: Locator;
  readonly panel: Locator;
  readonly status: Locator;

  constructor(page: Page) {
    this.page = page;
    this.toggle = page.getByTestId("panel.toggle.verifiers");
    this.panel = page.getByTestId("panel.verifiers");
    this.status = page.getByTestId("verifiers.status");
  }

  /** Opens the panel (it loads on first open). */
  async open(): Promise<void> {
    await this.toggle.click();
    await this.page.getByTestId("verifiers").waitFor();
  }

  item(kind: string): Locator {
    return this.page.locator(`[data-testid="verifiers.item"][data-kind="${kind}"]`).last();
  }

  /** Adds a format gate with the given pattern and flags. */
  async addFormatGate(pattern: string, flags: string): Promise<void> {
    await this.page.getByTestId("verifiers.add.format").click();
    const item = this.item("format");
    await item.getByTestId("verifiers.pattern").fill(pattern);
    await item.getByTestId("verifiers.flags").fill(flags);
  }

  /** Adds an exact match against a metadata field, the answer taken by `pattern`'s first group. */
  async addExactMatch(field: string, pattern: string): Promise<void> {
    await this.page.getByTestId("verifiers.add.exact-match").click();
    const item = this.item("exact-match");
    await item.getByTestId("verifiers.field").fill(field);
    await item.getByTestId("verifiers.pattern").fill(pattern);
  }

  /** Adds a rubric-judge verifier reading the newest run of `mode`. */
  async addJudge(mode: "rubric" | "gar" | "pairwise"): Promise<Locator> {
    await this.page.getByTestId("verifiers.add.judge").click();
    const item = this.item("judge");
    await item.getByTestId("verifiers.judge-mode").selectOption(mode);
    return item;
  }

  /** Picks the logged-reward rule: auto, multiply, keep or drop. */
  async loggedReward(rule: "auto" | "multiply" | "keep" | "drop"): Promise<void> {
    await this.page.getByTestId("verifiers.logged").selectOption(rule);
  }

  /**
   * Clicks Apply and returns the check it shows (who would pass differently), without confirming.
   */
  async requestApply(): Promise<FlipCheck> {
    await this.page.getByTestId("verifiers.apply").click();
    return this.flipCheck();
  }

  /** The flip check on screen, once there. */
  async flipCheck(): Promise<FlipCheck> {
    const check = this.page.getByTestId("verifiers.flips");
    await check.waitFor();
    return check.evaluate((el) => ({
      state: el.getAttribute("data-state") === "pending" ? "pending" : "applied",
      count: Number(el.getAttribute("data-count")),
      summary: el.querySelector('[data-testid="verifiers.flips.summary"]')?.textContent ?? "",
      rule: el.querySelector('[data-testid="verifiers.flips.rule"]')?.textContent ?? "",
      groups: [...el.querySelectorAll('[data-testid="verifiers.flips.group"]')].map(
        (tr): [string, string, string] => [
          tr.getAttribute("data-group-id") ?? "",
          tr.querySelector('[data-testid="verifiers.flips.passes"]')?.textContent ?? "",
          tr.querySelector("td:last-child")?.textContent ?? "",
        ],
      ),
      rows: [...el.querySelectorAll('[data-testid="verifiers.flips.row"]')].map(
        (li): [string, string, boolean] => [
          li.getAttribute("data-rollout-id") ?? "",
          li.getAttribute("data-direction") ?? "",
          li.getAttribute("data-against-label") === "true",
        ],
      ),
    }));
  }

  /**
   * Applies the draft and waits until the run is done; when the check says some rollouts would
   * pass differently, confirms it ("Apply anyway").
   */
  async apply(): Promise<void> {
    await this.page.getByTestId("verifiers.apply").click();
    const pending = '[data-testid="verifiers.flips"][data-state="pending"]';
    const done = '[data-testid="verifiers.status"][data-status="done"]';
    await this.page.locator(`${pending}, ${done}`).first().waitFor();
    if ((await this.page.locator(pending).count()) > 0)
      await this.page.getByTestId("verifiers.flips.confirm").click();
    await this.page.locator(done).waitFor();
  }

  async tally(): Promise<TallyRow[]> {
    await this.page.getByTestId("verifiers.tally").waitFor();
    return this.page.getByTestId("verifiers.tally.row").evaluateAll((rows) =>
      rows.map((r) => ({
        name: r.getAttribute("data-name") ?? "",
        pass: Number(r.querySelector('[data-testid="verifiers.tally.pass"]')?.textContent),
        fail: Number(r.querySelector('[data-testid="verifiers.tally.fail"]')?.textContent),
      })),
    );
  }

  /** Downloads the applied spec to `path`. */
  async exportSpec(path: string): Promise<void> {
    const download = this.page.waitForEvent("download");
    await this.page.getByTestId("verifiers.export").click();
    await (await download).saveAs(path);
  }

  /** The drop table's parts and, per rollout, [advantage, change without each part]. */
  async dropTable(): Promise<{ parts: string[]; rows: [string, string, string[]][] }> {
    const rows = this.page.getByTestId("verifiers.drop.row");
    await rows.first().waitFor();
    return {
      parts: await rows
        .first()
        .locator("td[data-part]")
        .evaluateAll((tds) => tds.map((td) => td.getAttribute("data-part") ?? "")),
      rows: await rows.evaluateAll((trs) =>
        trs.map((tr): [string, string, string[]] => [
          tr.getAttribute("data-rollout-id") ?? "",
          tr.querySelector('[data-testid="verifiers.drop.advantage"]')?.textContent ?? "",
          [...tr.querySelectorAll("td[data-part]")].map((td) => td.textContent ?? ""),
        ]),
      ),
    };
  }
}
