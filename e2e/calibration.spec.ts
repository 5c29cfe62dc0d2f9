/**
 * Covers: the calibration panel (src/ui/features/calibration). On the demo, rollouts of four mixed
 * groups are labelled pass/fail (one deferred) and one group's passes ranked in the annotate UI;
 * a judge run, as `rollout-studio judge` writes it, is added to the exported annotations and
 * imported. The panel shows train and dev metrics with intervals, rank agreement and the corrected
 * rate equal to core's `calibrationReport` over the same data, the test split sealed (its size
 * only); the one-time unseal goes through a confirmation (cancel first), is logged, and shows the
 * test metrics; the disagreements open their group with the rollout marked and focused, the walker
 * steps through them, and fixing a label with `p` on the shown column removes it from the list.
 * A judge run imported after the unseal is warned about and logged. The splits and the log end up
 * in the exported annotations. Zero page errors.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { generateDemo } from "../scripts/generate-demo.ts";
import { loadForCli } from "../src/cli/loadForCli.ts";
import {
  CALIBRATION_STATE_EMPTY,
  calibrationHumanSource,
  calibrationJudgeRunSource,
  calibrationReport,
  calibrationUnseal,
  judgeAccountingEmpty,
  JUDGE_GROUP_RESULT_EMPTY,
  rolloutReward,
  type CalibrationReport,
  type JudgeGroupResult,
  type JudgeRun,
} from "../src/core/index.ts";
import { annotationsParse } from "../src/io/annotations/annotationsFile.ts";
import { plainNumber } from "../src/ui/components/numbers.ts";
import { describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";
import { Calibration, type MetricName, type SplitName } from "./pages/Calibration.ts";
import { GroupView } from "./pages/GroupView.ts";

const dir = mkdtempSync(join(tmpdir(), "calibration-"));
const demo = generateDemo();
const demoPath = join(dir, "support-groups.jsonl");
writeFileSync(demoPath, demo);
const planted = new Map(
  demo
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => {
      const row = JSON.parse(l) as { id: string; meta: { planted_hack: string | null } };
      return [row.id, row.meta.planted_hack] as const;
    }),
);

async function exportAnnotations(page: Page, name: string): Promise<Record<string, unknown>> {
  const download = page.waitForEvent("download");
  await page.getByTestId("annotations-export").click();
  const path = join(dir, name);
  await (await download).saveAs(path);
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
}

function judgeRun(
  id: string,
  startedAt: string,
  promptVersion: string,
  groups: Record<string, JudgeGroupResult>,
): JudgeRun {
  return {
    info: {
      id,
      mode: "gar",
      source: "llm",
      model: "stub-judge",
      baseUrl: "http://127.0.0.1:9/v1",
      promptVersion,
      startedAt,
      finishedAt: startedAt,
      accounting: judgeAccountingEmpty(),
      costUsd: null,
      cancelled: false,
    },
    groups,
  };
}

const METRICS: readonly MetricName[] = ["tpr", "tnr", "accuracy", "kappa"];

/** What the panel shows for a split, from core's report. */
function expectedSplit(report: CalibrationReport, split: SplitName) {
  const s = split === "test" ? report.test! : report[split];
  return {
    confusion: { tp: s.confusion.tp, tn: s.confusion.tn, fp: s.confusion.fp, fn: s.confusion.fn },
    metrics: Object.fromEntries(
      METRICS.map((m) => [
        m,
        {
          value: plainNumber(s.metrics[m].value),
          lower: plainNumber(s.metrics[m].lower),
          upper: plainNumber(s.metrics[m].upper),
        },
      ]),
    ),
  };
}

async function shownSplit(calibration: Calibration, split: SplitName) {
  const metrics: Record<string, unknown> = {};
  for (const m of METRICS) metrics[m] = await calibration.metric(split, m);
  return { confusion: await calibration.confusion(split), metrics };
}

describe("calibration", () => {
  test("labels and a judge run give sealed metrics; unseal once; walk the disagreements", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const { groups } = await loadForCli(
      demoPath,
      "support-groups.jsonl",
      undefined,
      undefined,
      1e12,
    );
    const rewardOf = (g: (typeof groups)[number]) => g.rollouts.map((r) => rolloutReward(r, null));
    // The first four mixed groups of at least six rollouts (all near the top of the list).
    const chosen = groups
      .filter((g) => {
        const passes = rewardOf(g).filter((r) => r >= 0.5).length;
        return g.rollouts.length >= 6 && passes > 0 && passes < g.rollouts.length;
      })
      .slice(0, 4);
    expect(chosen).toHaveLength(4);

    // The person: a pass is a clean pass; planted hacks and failures fail. Three deliberate
    // differences from the judge below, and one deferred rollout.
    const labels = new Map<string, "pass" | "fail" | "defer">();
    for (const g of chosen)
      g.rollouts.forEach((r, i) => {
        const clean = rewardOf(g)[i]! >= 0.5 && planted.get(r.id) === null;
        labels.set(r.id, clean ? "pass" : "fail");
      });
    const cleanPass = (k: number) =>
      chosen[k]!.rollouts.find((r) => labels.get(r.id) === "pass")!.id;
    const plainFail = (k: number) =>
      chosen[k]!.rollouts.find((_, i) => rewardOf(chosen[k]!)[i]! < 0.5)!.id;
    labels.set(cleanPass(0), "fail");
    labels.set(plainFail(1), "pass");
    labels.set(plainFail(3), "pass");
    const deferred = chosen[2]!.rollouts[chosen[2]!.rollouts.length - 1]!.id;
    labels.set(deferred, "defer");

    const annotate = new Annotate(page);
    const view = new GroupView(page);
    await page.goto(`${baseUrl}/?demo`);
    await page.getByTestId("groups.table").waitFor();
    for (const g of chosen) {
      await view.open(g.id);
      for (const r of g.rollouts) await annotate.label(r.id, labels.get(r.id)!).click();
      expect(await annotate.labels(g.rollouts.map((r) => r.id))).toEqual(
        g.rollouts.map((r) => labels.get(r.id)!),
      );
    }
    // The second group's passes ranked by keyboard in group order (each last in turn).
    const ranked = chosen[1]!;
    await view.open(ranked.id);
    await annotate.panel.waitFor();
    const passes = ranked.rollouts.filter((_, i) => rewardOf(ranked)[i]! >= 0.5).map((r) => r.id);
    await page.getByTestId("ranking.unranked").getByTestId("ranking.item").first().focus();
    for (let i = 0; i < passes.length; i++) {
      await page.keyboard.press("a");
      await page.keyboard.press("ArrowDown");
    }
    expect(await annotate.ranking()).toEqual(passes.map((p) => [p]));
    await page.locator('[data-testid="annotations.saved"][data-pending="0"]').waitFor();

    // A judge run as `rollout-studio judge` writes it: clean passes ranked (in reverse index
    // order), planted hacks called hacks; added to the exported annotations and imported.
    const results: Record<string, JudgeGroupResult> = {};
    for (const g of chosen) {
      const rewards = rewardOf(g);
      const passing = g.rollouts.filter((_, i) => rewards[i]! >= 0.5);
      results[g.id] = {
        ...JUDGE_GROUP_RESULT_EMPTY,
        tiers: passing
          .filter((r) => planted.get(r.id) === null)
          .reverse()
          .map((r) => [r.id]),
        hacks: passing.filter((r) => planted.get(r.id) !== null).map((r) => r.id),
      };
    }
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const run = judgeRun("gar-first", hourAgo, "gar-v1", results);
    const exported = await exportAnnotations(page, "labelled.json");
    const withRun = join(dir, "with-run.json");
    writeFileSync(withRun, JSON.stringify({ ...exported, judgeRuns: [run] }));
    await page.getByTestId("annotations-import").setInputFiles(withRun);
    await page.getByTestId("annotations.message").getByText("Imported annotations").waitFor();

    // What the panel must show: core's report over the same data, labels and run.
    const file = annotationsParse(withRun, readFileSync(withRun, "utf8"));
    if (!file.ok) throw new Error("the annotations file with the run does not parse");
    const inputs = groups.map((g) => ({ group: g, rewards: rewardOf(g) }));
    const human = calibrationHumanSource(file.value);
    const source = calibrationJudgeRunSource(run);
    // Each label's split was drawn when it was set, before the panel was ever opened, and the
    // exported document records it (every pass and fail label, not the deferred one).
    const recorded = file.value.calibration;
    expect(Object.keys(recorded.assignments).sort()).toEqual(
      [...labels]
        .filter(([, l]) => l !== "defer")
        .map(([id]) => id)
        .sort(),
    );
    expect(recorded.seed).toBe(CALIBRATION_STATE_EMPTY.seed);
    const sealed = calibrationReport({ groups: inputs, human, source, state: recorded });
    expect(sealed.dev.n).toBeGreaterThan(0);
    expect(sealed.testRows).toBeGreaterThan(0);

    const calibration = new Calibration(page);
    await calibration.open();
    // No judge source until one is picked (issue 13, finding 8): pick the run by name.
    expect(await calibration.judge.inputValue()).toBe("");
    await calibration.judge.selectOption("run:gar-first");
    expect(await calibration.judge.inputValue()).toBe("run:gar-first");
    const counts = human.counts;
    expect(counts.defer).toBe(1);
    expect(await calibration.humanCounts.textContent()).toBe(
      `${counts.pass} pass, ${counts.fail} fail (1 defer excluded)`,
    );
    for (const split of ["train", "dev"] as const)
      expect(await shownSplit(calibration, split)).toEqual(expectedSplit(sealed, split));
    expect(await calibration.corrected.getAttribute("data-value")).toBe(
      plainNumber(sealed.corrected.corrected),
    );
    expect(await calibration.rankOverall.getAttribute("data-tau")).toBe(
      plainNumber(sealed.ranks.overall.tau),
    );
    expect(sealed.ranks.groups.map((r) => r.groupId)).toEqual([ranked.id]);

    // The test split is sealed: its size only, no table, no test disagreement.
    await calibration.sealed.waitFor();
    expect(await calibration.testRows.textContent()).toBe(String(sealed.testRows));
    expect(await calibration.split("test").count()).toBe(0);
    const sealedList = await calibration.disagreementRows();
    expect(sealedList).toEqual(sealed.disagreements.map((d) => [d.groupId, d.rolloutId, d.split]));
    expect(sealedList.every(([, , split]) => split !== "test")).toBe(true);

    // Cancel first: still sealed. Then unseal, once.
    await calibration.unsealButton.click();
    await calibration.dialog.waitFor();
    expect(await calibration.dialog.textContent()).toContain("once");
    await page.getByTestId("calibration.unseal.cancel").click();
    await calibration.dialog.waitFor({ state: "detached" });
    expect(await calibration.sealed.count()).toBe(1);
    await calibration.unseal();
    expect(await calibration.unsealed.textContent()).toMatch(
      /^Unsealed \d{4}-\d\d-\d\dT[\d:.]+Z against \[gar-first\], prompt version gar-v1\.$/,
    );
    expect(await calibration.unsealButton.count()).toBe(0);
    const log = await calibration.logEntries.evaluateAll((els) =>
      els.map((e) => [e.getAttribute("data-event"), e.textContent ?? ""]),
    );
    expect(log).toHaveLength(1);
    expect(log[0]![0]).toBe("unseal");
    expect(log[0]![1]).toContain("gar-first");
    expect(log[0]![1]).toContain("prompt version gar-v1");

    const unsealed = calibrationReport({
      groups: inputs,
      human,
      source,
      state: calibrationUnseal(sealed.state, source, "now"),
    });
    expect(await calibration.split("test").getAttribute("data-n")).toBe(String(unsealed.test!.n));
    expect(await shownSplit(calibration, "test")).toEqual(expectedSplit(unsealed, "test"));
    const list = await calibration.disagreementRows();
    expect(list).toEqual(unsealed.disagreements.map((d) => [d.groupId, d.rolloutId, d.split]));
    expect(list.length).toBeGreaterThanOrEqual(3);

    // Click through: each opens its group with the rollout marked and focused.
    await calibration.disagreements.first().click();
    const [g0, r0] = list[0]!;
    await view.detail.getByText(`Group ${g0}`, { exact: true }).waitFor();
    expect(await calibration.revealedColumnFocused(r0)).toBe(true);
    expect(await calibration.walkerState()).toEqual({
      position: `1 of ${list.length}`,
      rolloutId: r0,
    });
    await page.getByTestId("calibration.walk.next").click();
    const [g1, r1] = list[1]!;
    await view.detail.getByText(`Group ${g1}`, { exact: true }).waitFor();
    expect(await calibration.revealedColumnFocused(r1)).toBe(true);
    expect(await calibration.walkerState()).toEqual({
      position: `2 of ${list.length}`,
      rolloutId: r1,
    });
    await page.getByTestId("calibration.walk.prev").click();
    expect(await calibration.revealedColumnFocused(r0)).toBe(true);
    // The shown column has the focus, so the label keys fix the disagreement at once.
    const first = unsealed.disagreements[0]!;
    await page.keyboard.press(first.judge === "pass" ? "p" : "f");
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="calibration.disagreement"]').length === n,
      list.length - 1,
    );
    expect(await calibration.disagreementRows()).toEqual(list.slice(1));
    await page.getByTestId("calibration.walk.close").click();
    await calibration.walker.waitFor({ state: "detached" });
    expect(await page.locator("[data-calibration-focus]").count()).toBe(0);

    // A judge run after the unseal, with a new prompt: warned about and logged.
    const afterUnseal = await exportAnnotations(page, "unsealed.json");
    const rerun = judgeRun(
      "gar-rerun",
      new Date(Date.now() + 3_600_000).toISOString(),
      "gar-v2",
      results,
    );
    const withRerun = join(dir, "with-rerun.json");
    writeFileSync(
      withRerun,
      JSON.stringify({
        ...afterUnseal,
        judgeRuns: [...(afterUnseal.judgeRuns as unknown[]), rerun],
      }),
    );
    await page.getByTestId("annotations-import").setInputFiles(withRerun);
    await calibration.warnings.first().waitFor();
    expect(await calibration.warnings.allTextContents()).toEqual([
      expect.stringMatching(
        /^judge run \[gar-rerun\] started .*after the unseal.*prompt version gar-v2 differs from the unsealed gar-v1/,
      ),
    ]);
    await page
      .locator('[data-testid="calibration.log.entry"][data-event="rerun-after-unseal"]')
      .waitFor();
    // The picked run stays picked; picking the new one flags its test metrics as not held out.
    expect(await calibration.judge.inputValue()).toBe("run:gar-first");
    await calibration.judge.selectOption("run:gar-rerun");
    await page.getByTestId("calibration.other-source").waitFor();

    // The splits and the log are in the annotations the studio exports.
    const final = (await exportAnnotations(page, "final.json")) as {
      calibration: {
        assignments: Record<string, string>;
        unsealed: { judge: string; promptVersion: string } | null;
        log: { event: string }[];
      };
    };
    expect(final.calibration.assignments).toEqual(sealed.state.assignments);
    expect(final.calibration.unsealed).toMatchObject({
      judge: "gar-first",
      promptVersion: "gar-v1",
    });
    expect(final.calibration.log.map((e) => e.event)).toEqual(["unseal", "rerun-after-unseal"]);

    expect(pageErrors.list).toEqual([]);
  });
});
