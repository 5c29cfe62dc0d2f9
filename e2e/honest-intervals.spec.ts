/**
 * Covers issue 13, finding 6 (honest intervals). Reproduction: calibration on a handful of labels
 * showed "1.000 [1.000, 1.000]" for accuracy, a Rogan-Gladen interval of zero width, and dropped
 * resamples only in a tooltip. On the demo, the rollouts of two mixed groups are labelled by their
 * reward, and the reward is picked as the judge source: every split under the minimum n says so
 * ("n = 3: too few labels for an interval (at least 10 recommended)"); TPR, TNR and accuracy use
 * Wilson score intervals there (never of zero width at 1.000); kappa's undefined resamples are
 * counted in the cell ("k of 1000 resamples undefined, dropped"), and so are the corrected rate's;
 * the corrected rate's interval is not of zero width. Zero page errors.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDemo } from "../scripts/generate-demo.ts";
import { loadForCli } from "../src/cli/loadForCli.ts";
import {
  ANNOTATIONS_EMPTY,
  CALIBRATION_STATE_EMPTY,
  calibrationAssignLabels,
  calibrationHumanSource,
  calibrationReport,
  calibrationRewardSource,
  GROUP_ANNOTATION_EMPTY,
  rolloutReward,
} from "../src/core/index.ts";
import { describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";
import { Calibration } from "./pages/Calibration.ts";
import { GroupView } from "./pages/GroupView.ts";

const dir = mkdtempSync(join(tmpdir(), "honest-intervals-"));
const demoPath = join(dir, "support-groups.jsonl");
writeFileSync(demoPath, generateDemo());

describe("honest intervals", () => {
  test("a few labels: Wilson intervals, a small-n warning and the dropped resamples counted", async ({
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
    const chosen = groups
      .filter((g) => {
        const passes = rewardOf(g).filter((r) => r >= 0.5).length;
        return g.rollouts.length >= 6 && passes >= 2 && passes <= g.rollouts.length - 2;
      })
      .slice(0, 2);
    expect(chosen).toHaveLength(2);
    // The person agrees with the reward everywhere: the judge (the reward) is perfect on them.
    const labels = new Map<string, "pass" | "fail">();
    for (const g of chosen)
      g.rollouts.forEach((r, i) => labels.set(r.id, rewardOf(g)[i]! >= 0.5 ? "pass" : "fail"));

    // What core computes for the same labels (to know the dropped counts to expect).
    const human = calibrationHumanSource({
      ...ANNOTATIONS_EMPTY,
      groups: Object.fromEntries(
        chosen.map((g) => [
          g.id,
          {
            ...GROUP_ANNOTATION_EMPTY,
            labels: Object.fromEntries(g.rollouts.map((r) => [r.id, labels.get(r.id)!])),
          },
        ]),
      ),
    });
    // The splits as the studio draws them: each label's when it is set, in the order clicked below.
    let state = CALIBRATION_STATE_EMPTY;
    const so: Record<string, { labels: Record<string, "pass" | "fail"> }> = {};
    for (const g of chosen)
      for (const r of g.rollouts) {
        so[g.id] = { labels: { ...(so[g.id]?.labels ?? {}), [r.id]: labels.get(r.id)! } };
        state = calibrationAssignLabels(state, so);
      }
    const report = calibrationReport({
      groups: groups.map((g) => ({ group: g, rewards: rewardOf(g) })),
      human,
      source: calibrationRewardSource(0.5),
      state,
    });
    const splits = [report.train, report.dev].filter((s) => s.n > 0);
    expect(splits.length).toBeGreaterThan(0);
    // The reproduction's conditions: a split below 10 rows, a perfect accuracy, and resamples
    // where kappa is undefined.
    expect(splits.every((s) => s.n < 10)).toBe(true);
    expect(splits.some((s) => s.metrics.kappa.undefinedDraws > 0)).toBe(true);

    const annotate = new Annotate(page);
    const view = new GroupView(page);
    await page.goto(`${baseUrl}/?demo`);
    await page.getByTestId("groups.table").waitFor();
    for (const g of chosen) {
      await view.open(g.id);
      for (const r of g.rollouts) await annotate.label(r.id, labels.get(r.id)!).click();
    }
    await page.locator('[data-testid="annotations.saved"][data-pending="0"]').waitFor();

    const calibration = new Calibration(page);
    await calibration.open();
    await calibration.judge.selectOption("reward");

    for (const s of splits) {
      const table = calibration.split(s.split);
      await table.waitFor();
      expect(await table.getAttribute("data-n")).toBe(String(s.n));
      expect(await page.getByTestId(`calibration.small-n.${s.split}`).innerText()).toBe(
        `n = ${s.n}: too few labels for an interval (at least 10 recommended)`,
      );
      for (const name of ["tpr", "tnr", "accuracy"] as const) {
        const cell = page.getByTestId(`calibration.metric.${s.split}.${name}`);
        if (!Number.isFinite(s.metrics[name].value)) continue;
        expect(await cell.getAttribute("data-method")).toBe("wilson");
        const value = Number(await cell.getAttribute("data-value"));
        const lower = Number(await cell.getAttribute("data-lower"));
        const upper = Number(await cell.getAttribute("data-upper"));
        expect(value).toBe(1);
        // A perfect score on a few rows is not certain: the interval has width.
        expect(lower).toBeLessThan(upper);
        expect(lower).toBeGreaterThan(0);
        expect(upper).toBe(1);
        expect(await cell.innerText()).not.toContain("[1.000, 1.000]");
      }
      const dropped = s.metrics.kappa.undefinedDraws;
      const kappa = page.getByTestId(`calibration.metric.${s.split}.kappa`);
      if (dropped > 0)
        expect(await kappa.innerText()).toContain(
          `${dropped} of 1000 resamples undefined, dropped`,
        );
      else expect(await kappa.innerText()).not.toContain("resamples undefined");
    }

    // The corrected rate: its interval has width, and its dropped resamples are counted.
    const c = report.corrected;
    expect(c.devRows).toBeGreaterThan(0);
    const lower = Number(await calibration.corrected.getAttribute("data-lower"));
    const upper = Number(await calibration.corrected.getAttribute("data-upper"));
    expect(lower).toBeLessThan(upper);
    const section = page.getByRole("region", { name: "Corrected pass rate" });
    if (c.discarded > 0)
      expect(await section.innerText()).toContain(
        `${c.discarded} of 1000 resamples undefined, dropped`,
      );
    expect(await section.innerText()).toContain(
      `n = ${c.devRows}: too few labels for an interval (at least 10 recommended)`,
    );

    expect(pageErrors.list).toEqual([]);
  });
});
