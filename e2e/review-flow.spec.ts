/**
 * Covers: the review flow. The queue is every group, the mixed ones, or a seeded sample of N (the
 * same ids as core's `reviewQueue`); "k of N" follows the open group; `]` and `[` (and the buttons)
 * move through the queue; "mark reviewed and next" counts; Ctrl+Z and Ctrl+Shift+Z undo and redo
 * an annotation change; `?` opens the cheat sheet of every shortcut, Escape closes it and the focus
 * comes back; keys typed in a text field never trigger a shortcut.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDemo } from "../scripts/generate-demo.ts";
import { reviewQueue } from "../src/core/index.ts";
import { ReviewBar } from "./pages/ReviewBar.ts";
import { cliAnalyze } from "./harness/cli.ts";
import { describe, expect, test } from "./harness/test.ts";

const dir = mkdtempSync(join(tmpdir(), "review-flow-"));
const demoPath = join(dir, "support-groups.jsonl");
writeFileSync(demoPath, generateDemo());

describe("review flow", () => {
  test("queue modes, k of N, next and previous, reviewed, undo and redo", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const groups = await cliAnalyze(demoPath);
    const ids = groups.map((g) => g.id);
    const mixed = reviewQueue(groups, { kind: "mixed" });
    expect(mixed.length).toBeGreaterThan(1);
    expect(mixed.length).toBeLessThan(ids.length);

    await page.goto(`${baseUrl}/?demo`);
    expect(await loaderPage.groupIds()).toEqual(ids);
    const review = new ReviewBar(page);
    // The demo opens its first group.
    await review.waitPosition(`1 of ${ids.length}`);
    expect(await review.openGroup()).toBe(ids[0]);
    await review.waitReviewed(0);
    expect(await review.previous.isDisabled()).toBe(true);

    await page.keyboard.press("]");
    await review.waitPosition(`2 of ${ids.length}`);
    expect(await review.openGroup()).toBe(ids[1]);
    expect(page.url()).toContain(`group=${encodeURIComponent(ids[1]!)}`);
    await page.keyboard.press("]");
    await review.waitPosition(`3 of ${ids.length}`);
    expect(await review.openGroup()).toBe(ids[2]);
    await page.keyboard.press("[");
    await review.waitPosition(`2 of ${ids.length}`);
    await review.next.click();
    await review.waitPosition(`3 of ${ids.length}`);
    await review.previous.click();
    await review.waitPosition(`2 of ${ids.length}`);
    await review.previous.click();
    await review.waitPosition(`1 of ${ids.length}`);
    expect(await review.previous.isDisabled()).toBe(true);

    // Mixed groups only: the position is the open group's place in that queue.
    await review.mode.selectOption("mixed");
    await review.blur();
    const inMixed = mixed.indexOf(ids[0]!);
    await review.waitPosition(`${inMixed === -1 ? "–" : inMixed + 1} of ${mixed.length}`);
    expect(page.url()).toContain("queue=mixed");
    await page.keyboard.press("]");
    const afterMixed = mixed[inMixed + 1]!;
    expect(await review.openGroup()).toBe(afterMixed);
    await review.waitPosition(`${inMixed + 2} of ${mixed.length}`);

    // A seeded sample of 5: the same groups as core's reviewQueue.
    await review.mode.selectOption("sample");
    await review.sampleSize.fill("5");
    await review.sampleSeed.fill("3");
    await review.blur();
    const sample = reviewQueue(groups, { kind: "sample", size: 5, seed: 3 });
    expect(sample).toHaveLength(5);
    const at = sample.indexOf(afterMixed);
    await review.waitPosition(`${at === -1 ? "–" : at + 1} of 5`);
    expect(page.url()).toContain("queue=sample%3A5%3A3");
    if (at !== 0) {
      // From outside the sample, Next opens its first group; from inside, the one after.
      await page.keyboard.press("]");
      expect(await review.openGroup()).toBe(sample[at === -1 ? 0 : at + 1]);
    }
    // Walk to the start of the sample.
    while (!(await review.previous.isDisabled())) await page.keyboard.press("[");
    await review.waitPosition("1 of 5");
    expect(await review.openGroup()).toBe(sample[0]);

    // Mark reviewed and next, by key and by button.
    await page.keyboard.press("m");
    await review.waitReviewed(1);
    await review.waitPosition("2 of 5");
    expect(await review.openGroup()).toBe(sample[1]);
    await review.markNext.click();
    await review.waitReviewed(2);
    await review.waitPosition("3 of 5");

    // Undo and redo of annotation changes, by key and by button.
    await review.blur();
    await page.keyboard.press("Control+z");
    await review.waitReviewed(1);
    await page.keyboard.press("Control+Shift+Z");
    await review.waitReviewed(2);
    await review.undo.click();
    await review.waitReviewed(1);
    await review.redo.click();
    await review.waitReviewed(2);
    expect(await review.redo.isDisabled()).toBe(true);

    // Typing in the group search triggers no shortcut, Ctrl+Z included.
    const search = loaderPage.groups.search;
    await search.click();
    await page.keyboard.type("m]?[u");
    await page.keyboard.press("Control+z");
    expect(await review.position.innerText()).toBe("3 of 5");
    expect(await review.reviewed.innerText()).toBe("reviewed 2");
    expect(await review.sheet.count()).toBe(0);
    expect(await review.openGroup()).toBe(sample[2]);
    await search.fill("");
    expect(pageErrors.list).toEqual([]);
  });

  test("? lists every shortcut; Escape closes it and gives the focus back", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await page.goto(`${baseUrl}/?demo`);
    await loaderPage.groupIds();
    const review = new ReviewBar(page);
    await review.waitPosition(/1 of \d+/.source);

    await page.keyboard.press("Shift+?");
    await review.sheet.waitFor();
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    expect(await dialog.isVisible()).toBe(true);
    const titles = await dialog.locator("h3").allInnerTexts();
    expect(titles).toEqual([
      "Review queue",
      "Group browser",
      "Group view",
      "Annotate (group view)",
      "Transcripts (group view)",
      "Compare (blind pairwise)",
    ]);
    const text = await dialog.innerText();
    for (const want of [
      "next group in the queue",
      "undo the last annotation change",
      "tie",
      "open the group",
      "focus the ranking of the passes",
      "previous or next rollout column",
    ])
      expect(text).toContain(want);
    // Inside the dialog, shortcuts do not fire.
    await page.keyboard.press("]");
    expect(await review.position.innerText()).toMatch(/^1 of /);
    await page.keyboard.press("Escape");
    await review.sheet.waitFor({ state: "detached" });

    // Opened from its button, it gives the focus back to the button when it closes.
    await review.help.click();
    await review.sheet.waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest("dialog") !== null)).toBe(
      true,
    );
    await page.keyboard.press("Escape");
    await review.sheet.waitFor({ state: "detached" });
    expect(
      await page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? null),
    ).toBe("review.help");
    expect(pageErrors.list).toEqual([]);
  });
});
