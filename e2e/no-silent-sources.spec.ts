/**
 * Covers issue 13, finding 8 (no silent sources). Reproduction: a spread check (the heuristic
 * grader over a sample of 20 groups) silently became the GAR source of the unranked groups it
 * graded and the default judge of calibration and of the calibration export, and its hack flags
 * never reached the group table's Hacks column.
 *
 * On the demo, after a spread check: an unranked group it graded has no GAR values and no judge
 * or heuristic badge; the GAR ranking source is "human only", and the run is offered by a distinct
 * name (mode, heuristic grader, prompt version, time, "spread check (20 groups)"); picking it
 * gives that group GAR values marked heuristic. Calibration has no judge source until one is
 * picked, the calibration export none either, and the Hacks column counts the heuristic's flags
 * as "k (heuristic)". Zero page errors.
 */
import { loadForCli } from "../src/cli/loadForCli.ts";
import {
  JUDGE_TEXT_MAX_CHARS,
  judgeHeuristicRun,
  judgeSample,
  judgeSpreadEligible,
} from "../src/core/index.ts";
import { describe, expect, test } from "./harness/test.ts";
import { cliAnalyze as cli, writeDemo } from "./harness/cli.ts";
import { Calibration } from "./pages/Calibration.ts";
import { Exports } from "./pages/Exports.ts";
import { GroupBrowser } from "./pages/GroupBrowser.ts";
import { GroupView } from "./pages/GroupView.ts";

const demoPath = writeDemo("no-silent-sources-");

describe("no silent sources", () => {
  test("a spread check is no GAR source, calibration judge or export default until picked", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const groups = await cli(demoPath);
    await page.goto(`${baseUrl}/?demo`);
    await page.getByTestId("dataset.counts").waitFor();
    await page.getByTestId("panel.toggle.judge").click();
    const panel = page.getByTestId("panel.judge");
    await panel.getByTestId("judge.spread-run").click();
    await panel.getByText("Spread check (heuristic grader): done").waitFor();

    // The same run in core: the panel's defaults (20 groups, seed 0, the heuristic grader).
    const loaded = await loadForCli(demoPath, "support-groups.jsonl", undefined, undefined, 1e12);
    const options = {
      passThreshold: 0.5,
      rewardWeights: null,
      completionRule: "final-assistant" as const,
      maxChars: JUDGE_TEXT_MAX_CHARS,
    };
    const sample = judgeSample(judgeSpreadEligible(loaded.groups, options), 20, 0);
    const { run } = judgeHeuristicRun(sample, options, { id: "x", startedAt: "", finishedAt: "" });
    const judged = Object.keys(run.groups);
    expect(judged).toHaveLength(20);
    // A mixed group the spread check graded, which no person ranked.
    const graded = groups.find(
      (g) => g.mixed && judged.includes(g.id) && run.groups[g.id]!.tiers.length > 0,
    )!;
    expect(graded).toBeDefined();

    // The run has a distinct name, and is not the GAR source until picked.
    const source = panel.getByTestId("judge.gar-source");
    expect(await source.inputValue()).toBe("human-only");
    const optionText = await source.evaluate((select) =>
      [...(select as HTMLSelectElement).options].map((o) => o.text),
    );
    const named = optionText.find((t) => t.includes("spread check (20 groups)"));
    expect(named).toMatch(/gar · heuristic grader · prompt \S+ · \d{4}-\d\d-\d\d [\d:]+ UTC/);
    expect(await panel.getByTestId("judge.run-row").first().innerText()).toContain(
      "spread check (20 groups)",
    );

    const view = new GroupView(page);
    await page.getByTestId("panel.toggle.judge").click();
    await view.open(graded.id);
    expect(await page.getByTestId("metric-source.heuristic").count()).toBe(0);
    expect(await page.getByTestId("metric-source.judge").count()).toBe(0);
    expect((await view.metric("metric-gar-advantage")).every((v) => v === "")).toBe(true);

    // Picked by name: the group takes the heuristic's ranking, and says so.
    await page.getByTestId("panel.toggle.judge").click();
    await source.selectOption({ label: named! });
    await page.getByTestId("metric-source.heuristic").first().waitFor();
    expect((await view.metric("metric-gar-advantage")).some((v) => v !== "")).toBe(true);
    await source.selectOption("human-only");
    await page.getByTestId("panel.toggle.judge").click();

    // Calibration: no judge source until one is picked.
    const calibration = new Calibration(page);
    await calibration.open();
    expect(await calibration.judge.inputValue()).toBe("");
    await page.getByTestId("calibration.no-source").waitFor();
    await calibration.toggle.click();

    // The calibration export: no judge run until one is picked.
    const exports = new Exports(page);
    await exports.open();
    const menu = page.getByTestId("exports.judge-run.calibration");
    expect(await menu.inputValue()).toBe("");
    expect(
      await menu.evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.text ?? ""),
    ).toBe("none (human labels only)");
    await page.getByTestId("panel.toggle.exports").click();

    // The heuristic's hack flags reach the Hacks column, marked as heuristic.
    const flagged = judged.find((id) => run.groups[id]!.hacks.length > 0)!;
    expect(flagged).toBeDefined();
    const browser = new GroupBrowser(page);
    const row = await browser.row(flagged);
    expect(await row.getByTestId("groups.row.hacks").innerText()).toBe(
      `${run.groups[flagged]!.hacks.length} (heuristic)`,
    );
    expect(pageErrors.list).toEqual([]);
  });
});
