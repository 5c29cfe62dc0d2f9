/**
 * Covers: annotating inside the group view (src/ui/features/annotate). The passes of a demo group
 * are ranked by keyboard alone, a planted hack is marked with a reason, a note and a quote
 * selected in its transcript, two rollouts get labels and notes are written; everything survives
 * a reload; the exported file imported into a fresh browser context gives an identical export and
 * UI; `rollout-studio analyze` with that file prints the UI's GAR advantages; "find similar"
 * lists a rollout of another group for the hack. Stable test ids only.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { generateDemo } from "../scripts/generate-demo.ts";
import { main } from "../src/cli/main.ts";
import { describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";
import { GroupView } from "./pages/GroupView.ts";

interface CliGroup {
  id: string;
  passes: number;
  gar: string;
  rollouts: { id: string; passed: boolean; garAdvantage?: number }[];
}

async function cli(...args: string[]): Promise<CliGroup[]> {
  let out = "";
  await main(["analyze", ...args, "--json"], {
    stdout: (t) => (out += t),
    stderr: () => undefined,
    cwd: process.cwd(),
  });
  return (JSON.parse(out) as { groups: CliGroup[] }).groups;
}

const dir = mkdtempSync(join(tmpdir(), "annotate-"));
const demo = generateDemo();
const demoPath = join(dir, "support-groups.jsonl");
writeFileSync(demoPath, demo);
const rows = demo
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map(
    (l) => JSON.parse(l) as { id: string; group_id: string; meta: { planted_hack: string | null } },
  );
const plantedHack = new Map(rows.map((r) => [r.id, r.meta.planted_hack]));

async function exportAnnotations(page: Page, name: string): Promise<string> {
  const download = page.waitForEvent("download");
  await page.getByTestId("annotations-export").click();
  const path = join(dir, name);
  await (await download).saveAs(path);
  return path;
}

async function openGroup(page: Page, baseUrl: string, groupId: string): Promise<void> {
  await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(groupId)}`);
  await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
  await page.getByTestId("ranking.panel").waitFor();
}

/** Everything the annotation UI shows for the group, to compare two browsers. */
async function uiState(annotate: Annotate, view: GroupView, ids: readonly string[]) {
  return {
    ranking: await annotate.ranking(),
    unranked: await annotate.unrankedIds(),
    status: await annotate.status.getAttribute("data-status"),
    labels: await annotate.labels(ids),
    gar: await view.metric("metric-gar-advantage"),
    hackToggles: await view.page
      .getByTestId("annotate.hack-toggle")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-hack"))),
    notes: await annotate.groupNotes.inputValue(),
    rolloutNotes: await view.page
      .getByTestId("annotate.rollout-note-text")
      .evaluateAll((els) => els.map((e) => e.textContent)),
    hackSummaries: await view.page
      .getByTestId("annotate.hack-summary")
      .evaluateAll((els) => els.map((e) => e.textContent)),
  };
}

describe("annotate in the group view", () => {
  test("rank by keyboard, mark a hack, label; reload, export, import elsewhere, CLI agrees", async ({
    baseUrl,
    browser,
    page,
    pageErrors,
  }) => {
    const plain = await cli(demoPath);
    // A group with at least three passes, one of them a planted swallowed error.
    const group = plain.find(
      (g) =>
        g.passes >= 3 &&
        g.rollouts.some((r) => r.passed && plantedHack.get(r.id) === "swallowed_error"),
    )!;
    expect(group).toBeDefined();
    const ids = group.rollouts.map((r) => r.id);
    const passes = group.rollouts.filter((r) => r.passed).map((r) => r.id);
    const hack = passes.find((id) => plantedHack.get(id) === "swallowed_error")!;
    const fails = group.rollouts.filter((r) => !r.passed).map((r) => r.id);

    const annotate = new Annotate(page);
    const view = new GroupView(page);
    await openGroup(page, baseUrl, group.id);
    expect(await annotate.unrankedIds()).toEqual(passes);
    expect(await annotate.status.getAttribute("data-status")).toBe("none");

    // Keyboard alone: rank every pass last in turn (a), stepping on with ArrowDown.
    await page.getByTestId("ranking.unranked").getByTestId("ranking.item").first().focus();
    for (let i = 0; i < passes.length; i++) {
      await page.keyboard.press("a");
      await page.keyboard.press("ArrowDown");
    }
    expect(await annotate.ranking()).toEqual(passes.map((p) => [p]));
    expect(await annotate.status.getAttribute("data-status")).toBe("applied");
    const last = passes[passes.length - 1]!;
    expect(await annotate.focusedItem()).toBe(last);
    // The last pass moves to the top; the focus follows it.
    for (let i = 1; i < passes.length; i++) await page.keyboard.press("Alt+ArrowUp");
    expect(await annotate.focusedItem()).toBe(last);
    expect(await annotate.live.textContent()).toBe(`${last}: tier 1 of ${passes.length}`);
    // The second pass ties with the first (t), splits (s) and ties again.
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    expect(await annotate.focusedItem()).toBe(passes[1]);
    await page.keyboard.press("t");
    await page.keyboard.press("s");
    await page.keyboard.press("t");
    expect(await annotate.focusedItem()).toBe(passes[1]);
    const ranking = [[last], [passes[0]!, passes[1]!], ...passes.slice(2, -1).map((p) => [p])];
    expect(await annotate.ranking()).toEqual(ranking);
    expect(await annotate.live.textContent()).toContain(`tied with ${passes[0]}`);
    // Every GAR value now comes from the human ranking, and says so.
    await page.getByTestId("metric-source.human").first().waitFor();
    const garRanked = await view.metric("metric-gar-advantage");
    expect(garRanked.every((v) => v !== "")).toBe(true);

    // A hack with a reason, a note and text quoted from its transcript.
    const quote = await annotate.selectInTranscript(hack, 24);
    await annotate.hackToggle(hack).click();
    const form = annotate.hackForm(hack);
    expect(await form.getByTestId("annotate.hack-quote").inputValue()).toBe(quote.trim());
    await form.getByTestId("annotate.hack-reason").selectOption("swallowed exception");
    await form.getByTestId("annotate.hack-note").fill("reports the failed email as sent");
    await form.getByTestId("annotate.hack-save").click();
    await annotate.hackSummary(hack).getByText("swallowed exception").waitFor();
    expect(await annotate.hackToggle(hack).getAttribute("data-hack")).toBe("true");
    // Hack zeroing applies at once: the hack's GAR advantage changes.
    const garHacked = await view.metric("metric-gar-advantage");
    expect(garHacked[ids.indexOf(hack)]).not.toBe(garRanked[ids.indexOf(hack)]);

    // Two labels: one from the keyboard (p on the focused column), one by clicking.
    const labelled = [passes[0]!, fails[0] ?? passes[2]!];
    await annotate.column(labelled[0]!).getByTestId("rollout-column.body").focus();
    await page.keyboard.press("p");
    await annotate.label(labelled[1]!, "fail").click();
    expect(await annotate.labels(labelled)).toEqual(["pass", "fail"]);
    // h opens the focused rollout's hack form, with the focus in it; cancel leaves no hack.
    await annotate.column(labelled[1]!).getByTestId("rollout-column.body").focus();
    await page.keyboard.press("h");
    await annotate.hackForm(labelled[1]!).waitFor();
    expect(
      await page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? ""),
    ).toBe("annotate.hack-reason");
    await annotate.hackForm(labelled[1]!).getByText("Cancel", { exact: true }).click();
    expect(await annotate.hackToggle(labelled[1]!).getAttribute("data-hack")).toBe("false");
    // Typing in a note never triggers a shortcut.
    await annotate.column(labelled[0]!).getByTestId("annotate.rollout-note-edit").click();
    await annotate.rolloutNote(labelled[0]!).fill("polite and correct; p f d h");
    await annotate.rolloutNote(labelled[0]!).blur();
    await annotate.groupNotes.fill("checked the refunds");
    await annotate.groupNotes.blur();
    expect(await annotate.labels(labelled)).toEqual(["pass", "fail"]);
    expect(await annotate.hackForm(labelled[0]!).count()).toBe(0);

    await page.locator('[data-testid="annotations.saved"][data-pending="0"]').waitFor();
    const before = await uiState(annotate, view, ids);
    expect(before.notes).toBe("checked the refunds");
    expect(before.rolloutNotes).toEqual(["polite and correct; p f d h"]);

    await page.reload();
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    await page.getByText("1 group(s) restored").waitFor();
    expect(await uiState(annotate, view, ids)).toEqual(before);

    const exported = await exportAnnotations(page, "first.json");
    const file = JSON.parse(readFileSync(exported, "utf8")) as {
      groups: Record<string, Record<string, unknown>>;
    };
    expect(file.groups[group.id]).toMatchObject({
      ranking,
      hacks: [hack],
      labels: { [labelled[0]!]: "pass", [labelled[1]!]: "fail" },
      notes: "checked the refunds",
      hackDetails: {
        [hack]: {
          reason: "swallowed exception",
          note: "reports the failed email as sent",
          quote: quote.trim(),
        },
      },
      rolloutNotes: { [labelled[0]!]: "polite and correct; p f d h" },
    });

    // A fresh browser context: import the file, and the export and the UI are the same.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const fresh = await context.newPage();
    const freshErrors: string[] = [];
    fresh.on("pageerror", (e) => freshErrors.push(e.message));
    fresh.on("console", (m) => {
      if (m.type() === "error") freshErrors.push(m.text());
    });
    await openGroup(fresh, baseUrl, group.id);
    expect(await new Annotate(fresh).unrankedIds()).toEqual(passes);
    await fresh.getByTestId("annotations-import").setInputFiles(exported);
    await fresh.getByTestId("annotations.message").getByText("Imported annotations").waitFor();
    const freshState = await uiState(new Annotate(fresh), new GroupView(fresh), ids);
    expect(freshState).toEqual(before);
    const reexported = await exportAnnotations(fresh, "second.json");
    expect(JSON.parse(readFileSync(reexported, "utf8"))).toEqual(
      JSON.parse(readFileSync(exported, "utf8")),
    );
    await context.close();
    expect(freshErrors).toEqual([]);

    // The CLI, given the exported file, prints the UI's GAR advantages.
    const withGar = (await cli(demoPath, "--annotations", exported)).find(
      (g) => g.id === group.id,
    )!;
    expect(withGar.gar).not.toBe("none");
    before.gar.forEach((shown, i) =>
      expect(Math.abs(Number(shown) - withGar.rollouts[i]!.garAdvantage!)).toBeLessThan(1e-4),
    );

    // Find similar: rollouts of other groups close to the hack, one of them a planted hack.
    const similar = await annotate.findSimilar(hack);
    expect(similar.length).toBeGreaterThan(0);
    expect(similar.every(([g]) => g !== group.id)).toBe(true);
    expect(similar.some(([, r]) => plantedHack.get(r) === "swallowed_error")).toBe(true);
    expect(similar.every(([, , s]) => s > 0 && s <= 1)).toBe(true);
    // Its link opens that group.
    const target = similar[0]![0];
    await annotate.column(hack).getByTestId("annotate.similar.open").first().click();
    await page.getByTestId("group.detail").getByText(`Group ${target}`, { exact: true }).waitFor();
    expect(pageErrors.list).toEqual([]);
  });

  test("drag and drop: into a gap, into a tier (a tie), back to unranked", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const plain = await cli(demoPath);
    const group = plain.find((g) => g.passes >= 3)!;
    const passes = group.rollouts.filter((r) => r.passed).map((r) => r.id);
    const annotate = new Annotate(page);
    await openGroup(page, baseUrl, group.id);
    const gap = (before: number) =>
      page.locator(`[data-testid="ranking.gap"][data-before="${before}"]`);
    await annotate.item(passes[0]!).dragTo(gap(0));
    expect(await annotate.ranking()).toEqual([[passes[0]]]);
    await annotate.item(passes[1]!).dragTo(page.getByTestId("ranking.tier").first());
    expect(await annotate.ranking()).toEqual([[passes[0], passes[1]]]);
    await annotate.item(passes[2]!).dragTo(gap(0));
    expect(await annotate.ranking()).toEqual([[passes[2]], [passes[0], passes[1]]]);
    await annotate.item(passes[0]!).dragTo(annotate.unranked);
    expect(await annotate.ranking()).toEqual([[passes[2]], [passes[1]]]);
    expect(await annotate.unrankedIds()).toContain(passes[0]);
    // Drops are saved like every other edit.
    await page.locator('[data-testid="annotations.saved"][data-status="saved"]').waitFor();
    expect(pageErrors.list).toEqual([]);
  });
});
