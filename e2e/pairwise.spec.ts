/**
 * Covers: the Compare tab's blind pairwise tournament. On a demo group of 8, a seeded single
 * elimination takes exactly 14 comparisons made by keyboard; the sides show no ids or rewards; an
 * undo and a reload resume the same session; the results list every rollout, and accepting the
 * proposed ranking (the passes' order) stores it in the exported annotations, after which the
 * studio shows the same GAR advantages as `rollout-studio analyze --annotations`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDemo } from "../scripts/generate-demo.ts";
import {
  pairwiseChoose,
  pairwiseNext,
  pairwiseStart,
  pairwiseSummary,
  type PairwiseSession,
} from "../src/core/index.ts";
import { Compare } from "./pages/Compare.ts";
import { describe, expect, test } from "./harness/test.ts";
import { cliAnalyze as cli } from "./harness/cli.ts";

const dir = mkdtempSync(join(tmpdir(), "pairwise-"));
const demoPath = join(dir, "support-groups.jsonl");
writeFileSync(demoPath, generateDemo());

describe("blind pairwise comparison", () => {
  test("a single elimination of 8 takes 14 keyboard choices; its ranking is accepted", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const group = (await cli(demoPath)).find(
      (g) => g.rollouts.length === 8 && g.passes >= 2 && g.passes < 8,
    )!;
    expect(group).toBeDefined();
    const ids = group.rollouts.map((r) => r.id);
    // The judge's taste: a later rollout in group order is better (so the order is checkable).
    const better = (x: string, y: string) => ids.indexOf(x) > ids.indexOf(y);

    await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(group.id)}`);
    await loaderPage.groupIds();
    const compare = new Compare(page);
    await compare.open();
    await compare.schedule.waitFor();
    expect(await compare.schedule.inputValue()).toBe("single-elimination");
    const seed = Number(await compare.seed.inputValue());
    expect(Number.isInteger(seed)).toBe(true);
    await compare.begin.click();

    // The spec replays the same session in core to know which rollout each side shows.
    let session: PairwiseSession = pairwiseStart("single-elimination", ids, seed);
    const choose = async (): Promise<void> => {
      const step = pairwiseNext(session);
      if (step.kind !== "match") throw new Error("no match left");
      const side = better(step.left, step.right) ? "left" : "right";
      await page.keyboard.press(side === "left" ? "a" : "b");
      session = pairwiseChoose(session, side);
    };

    await compare.waitProgress("1 of 14");
    // Blind: no id and no reward on either side.
    const shown = await compare.match.innerText();
    for (const id of ids) expect(shown).not.toContain(id);
    expect(await compare.sideA.getByRole("heading").innerText()).toBe("A");
    expect(await compare.sideB.getByRole("heading").innerText()).toBe("B");
    expect(await page.getByTestId("metric-reward").count()).toBe(0);

    // One choice, undone by key, then made again.
    await choose();
    await compare.waitProgress("2 of 14");
    await page.keyboard.press("u");
    await compare.waitProgress("1 of 14");
    session = { ...session, judgements: session.judgements.slice(0, -1) };
    for (let i = 0; i < 3; i++) await choose();
    await compare.waitProgress("4 of 14");

    // Every choice is saved: once storage has every write, a reload resumes the session.
    await page.locator('[data-testid="annotations.saved"][data-pending="0"]').waitFor();
    await page.reload();
    await loaderPage.groupIds();
    await compare.open();
    await compare.waitProgress("4 of 14");

    let presses = 4; // one undone, three kept
    while (pairwiseNext(session).kind === "match") {
      await choose();
      presses += 1;
    }
    expect(session.judgements).toHaveLength(14);
    expect(presses).toBe(15);
    await compare.waitProgress("14 of 14: complete");
    // A further key press does nothing once the tournament is complete.
    await page.keyboard.press("a");
    expect(await compare.progressText()).toBe("14 of 14: complete");

    const summary = pairwiseSummary(session);
    expect(await compare.resultIds()).toEqual(summary.proposed.flat());
    expect(await compare.noCycles.isVisible()).toBe(true);
    const passed = new Set(group.rollouts.filter((r) => r.passed).map((r) => r.id));
    const expected = summary.proposed
      .map((tier) => tier.filter((id) => passed.has(id)))
      .filter((tier) => tier.length > 0);
    // The taste was consistent: the champion is the last rollout in group order.
    expect(summary.proposed[0]).toEqual([ids[ids.length - 1]]);
    await page.getByTestId("pairwise.left-out").waitFor();

    await compare.accept.click();
    await page.getByText("Ranking accepted").waitFor();

    const download = page.waitForEvent("download");
    await page.getByTestId("annotations-export").click();
    const saved = readFileSync(await (await download).path(), "utf8");
    const exported = JSON.parse(saved) as {
      groups: Record<string, { ranking: string[][]; pairwise: PairwiseSession }>;
    };
    expect(exported.groups[group.id]!.ranking).toEqual(expected);
    expect(exported.groups[group.id]!.pairwise.judgements).toEqual(session.judgements);

    // The ranking covers every pass, so the group has GAR values: the CLI's, from the export.
    const annotationsPath = join(dir, "exported.json");
    writeFileSync(annotationsPath, saved);
    const withGar = (await cli(demoPath, "--annotations", annotationsPath)).find(
      (g) => g.id === group.id,
    )!;
    await page.getByTestId("workspace.tab.rollouts").click();
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    const gar = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="rollout-column"]')].map(
        (c) => c.querySelector('[data-testid="metric-gar-advantage"]')?.textContent ?? "",
      ),
    );
    expect(gar).toHaveLength(8);
    gar.forEach((text, i) =>
      expect(Math.abs(Number(text) - withGar.rollouts[i]!.garAdvantage!)).toBeLessThan(1e-4),
    );
    expect(pageErrors.list).toEqual([]);
  });
});
