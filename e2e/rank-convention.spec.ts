/**
 * Covers issue 13, finding 7 (one rank convention, best = 1). Reproduction: the headers' rank ran
 * 0 to 1 (1 best) while the Metrics tab's "Human rank" had 0 best; after a human ranking the
 * headers' rank and win rate still said "reward"; Compare's "Place" contradicted its own strength
 * column, and its proposed ranking put a human-marked hack above a pass without comment.
 *
 * On the demo: each header shows its place ("2 of 6", 1 = best, ties share their mean place) equal
 * to the CLI's `place`, with the convention in the tooltip; after the passes are ranked by keyboard
 * the rank and the win rate follow the human ranking (human tiers over the passes, then the fails
 * below them by reward) and say "human", the CLI with the exported annotations agrees, and the
 * Metrics tab's human rank gives the best tier 1. In Compare, a single elimination's places follow
 * the Bradley-Terry strengths shown, and a proposed ranking that puts a human-marked hack above a
 * pass says so, naming it. Zero page errors.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Page } from "playwright-core";
import {
  pairwiseChoose,
  pairwiseNext,
  pairwiseStart,
  pairwiseSummary,
  type PairwiseSession,
} from "../src/core/index.ts";
import { describe, expect, test } from "./harness/test.ts";
import { cliAnalyze as cli, writeDemo } from "./harness/cli.ts";
import { Annotate } from "./pages/Annotate.ts";
import { Compare } from "./pages/Compare.ts";
import { GroupView } from "./pages/GroupView.ts";

const demoPath = writeDemo("rank-convention-");
const dir = dirname(demoPath);

/** Mean 1-based places, best first: higher scores place better, equal scores share their mean. */
function meanPlaces(scores: readonly number[], same = (a: number, b: number) => a === b): number[] {
  return scores.map((s) => {
    const better = scores.filter((t) => t > s && !same(t, s)).length;
    const equal = scores.filter((t) => same(t, s)).length;
    return better + 1 + (equal - 1) / 2;
  });
}

async function headerPlaces(page: Page): Promise<(string | null)[]> {
  return new GroupView(page).metric("metric-place");
}

describe("one rank convention", () => {
  test("headers, human ranking, Metrics tab and CLI agree on best = 1", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const groups = await cli(demoPath);
    const group = groups.find(
      (g) => g.mixed && g.rollouts.length >= 5 && g.passes >= 3 && g.passes < g.rollouts.length,
    )!;
    expect(group).toBeDefined();
    const n = group.rollouts.length;
    const byReward = meanPlaces(group.rollouts.map((r) => r.reward));
    // The CLI states the place, best = 1, as the studio does.
    expect(group.rollouts.map((r) => r.place)).toEqual(byReward);

    await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(group.id)}`);
    const view = new GroupView(page);
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    expect((await headerPlaces(page)).map(Number)).toEqual(byReward);
    const head = page.getByTestId("metric-rank-head").first();
    expect(await head.getAttribute("data-source")).toBe("reward");
    expect(await head.getAttribute("title")).toContain("1 = best");
    expect(
      await view.column(group.rollouts[0]!.id).getByTestId("metric-place-of").innerText(),
    ).toBe(`of ${n}`);

    // Rank the passes by keyboard in group order: they tie by reward, not in the ranking.
    const passes = group.rollouts.filter((r) => r.passed).map((r) => r.id);
    await new Annotate(page).panel.waitFor();
    await page.getByTestId("ranking.unranked").getByTestId("ranking.item").first().focus();
    for (let i = 0; i < passes.length; i++) {
      await page.keyboard.press("a");
      await page.keyboard.press("ArrowDown");
    }
    const ranking = await new Annotate(page).ranking();
    expect(ranking.flat().sort()).toEqual([...passes].sort());
    await page.locator('[data-testid="annotations.saved"][data-pending="0"]').waitFor();

    // Human tiers over the passes, then the fails below them by reward.
    const tierOf = new Map(ranking.flatMap((tier, t) => tier.map((id) => [id, t] as const)));
    const key = group.rollouts.map((r) => (tierOf.has(r.id) ? 1000 - tierOf.get(r.id)! : r.reward));
    const humanPlaces = meanPlaces(key);
    await page.locator('[data-testid="metric-rank-head"][data-source="human"]').first().waitFor();
    expect((await headerPlaces(page)).map(Number)).toEqual(humanPlaces);
    expect(await page.getByTestId("metric-win-rate-head").first().getAttribute("data-source")).toBe(
      "human",
    );
    const best = group.rollouts.findIndex((r) => r.id === ranking[0]![0]);
    const winRates = (await view.metric("metric-win-rate")).map(Number);
    if (ranking[0]!.length === 1) expect(winRates[best]).toBe(1);

    // The CLI with the same annotations gives the same places.
    const download = page.waitForEvent("download");
    await page.getByTestId("annotations-export").click();
    const annotationsPath = join(dir, "ranked.json");
    writeFileSync(annotationsPath, readFileSync(await (await download).path(), "utf8"));
    const withHuman = (await cli(demoPath, "--annotations", annotationsPath)).find(
      (g) => g.id === group.id,
    )!;
    expect(withHuman.rollouts.map((r) => r.place)).toEqual(humanPlaces);

    // The Metrics tab: the human rank's best tier is 1.
    await page.getByTestId("workspace.tab.metrics").click();
    const humanRank = page.locator(
      `[data-testid="metrics.row"][data-rollout-id="${ranking[0]![0]}"] [data-testid="metrics.cell.humanRank"]`,
    );
    await humanRank.waitFor();
    expect(Number(await humanRank.innerText())).toBe(1 + (ranking[0]!.length - 1) / 2);
    const place = page.locator(
      `[data-testid="metrics.row"][data-rollout-id="${ranking[0]![0]}"] [data-testid="metrics.cell.rank"]`,
    );
    expect(Number((await place.innerText()).split(" ")[0])).toBe(humanPlaces[best]);
    expect(pageErrors.list).toEqual([]);
  });

  test("Compare: places follow the strengths; a hack above a pass is named", async ({
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
    const passes = group.rollouts.filter((r) => r.passed).map((r) => r.id);
    // A person marked the last pass in group order a hack; the judge prefers it to everything,
    // and otherwise later rollouts.
    const hack = passes[passes.length - 1]!;
    const hacksFile = join(dir, "hack.json");
    writeFileSync(
      hacksFile,
      JSON.stringify({
        version: 1,
        groups: { [group.id]: { ranking: [], hacks: [hack], labels: {}, notes: "" } },
      }),
    );
    await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(group.id)}`);
    await loaderPage.groupIds();
    await page.getByTestId("annotations-import").setInputFiles(hacksFile);
    await page.getByTestId("annotations.message").getByText("Imported annotations").waitFor();

    const compare = new Compare(page);
    await compare.open();
    await compare.schedule.waitFor();
    const seed = Number(await compare.seed.inputValue());
    await compare.begin.click();
    let session: PairwiseSession = pairwiseStart("single-elimination", ids, seed);
    const better = (x: string, y: string) =>
      x === hack || (y !== hack && ids.indexOf(x) > ids.indexOf(y));
    while (pairwiseNext(session).kind === "match") {
      const step = pairwiseNext(session);
      if (step.kind !== "match") break;
      const side = better(step.left, step.right) ? "left" : "right";
      await page.keyboard.press(side === "left" ? "a" : "b");
      session = pairwiseChoose(session, side);
    }
    await compare.waitProgress("14 of 14: complete");

    const summary = pairwiseSummary(session);
    const at = new Map(summary.players.map((id, i) => [id, i]));
    const rows = await compare.resultRows.evaluateAll((els) =>
      els.map((e) => ({
        id: e.getAttribute("data-rollout-id") ?? "",
        place: Number(e.querySelector('[data-testid="pairwise.place"]')?.textContent ?? "NaN"),
      })),
    );
    expect(rows).toHaveLength(8);
    const strengths = rows.map((r) => summary.strength[at.get(r.id)!]!);
    // Rows best first by strength, and each place is the strength's (ties share the mean place).
    for (let i = 1; i < strengths.length; i++)
      expect(strengths[i]!).toBeLessThanOrEqual(strengths[i - 1]! + 1e-9);
    expect(rows.map((r) => r.place)).toEqual(
      meanPlaces(strengths, (a, b) => Math.abs(a - b) < 1e-9),
    );

    // The proposed ranking puts the hack above a pass: it says so, by name.
    const proposed = rows.map((r) => r.id).filter((id) => passes.includes(id));
    expect(proposed.indexOf(hack)).toBeLessThan(proposed.length - 1);
    const warning = page.getByTestId("pairwise.hack-warning");
    await warning.waitFor();
    expect(await warning.innerText()).toContain(hack);
    expect(await warning.innerText()).toContain("hack");
    expect(pageErrors.list).toEqual([]);
  });
});
