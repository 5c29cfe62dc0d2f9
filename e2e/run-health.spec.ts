/**
 * Covers (issue 19, items 2 and 3): the Run health view of a run `rollout-studio view` serves. A
 * generated run (scripts/healthRun.ts: 20 steps, a length drift planted from step 8 and a hack
 * strategy spreading from step 12) with a person's hack marks in its state folder opens in the
 * studio; the view's table holds, step by step, the numbers core's runHealth gives over the same
 * run loaded as the CLI loads it (the keys of `health --json`); the length-drift detector fired
 * where core's did and its alert names step 8; the hack-spread detector fires where core's does
 * with the marks; the table's rows are the built CLI's `health --json` on the same folder, number
 * for number; a click on a step (the table's, then a chart's) filters the group browser to
 * that step's groups; no page errors. Screenshots at 1440x900 and 1280x720 go to e2e/.artifacts/.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { healthRun, healthRunAnnotations } from "../scripts/healthRun.ts";
import { viewStart, type ViewProcess } from "../scripts/viewProcess.ts";
import { cliGroupSteps, loadRunForCli } from "../src/cli/loadForCli.ts";
import {
  ANALYSIS_DEFAULTS,
  HEALTH_DEFAULTS,
  hackExemplarsOf,
  healthDetectors,
  markedHackIds,
  runHealth,
  type DetectorResult,
  type RunHealth,
} from "../src/core/index.ts";
import { annotationsParse } from "../src/io/annotations/annotationsFile.ts";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";

const BIN = fileURLToPath(new URL("../bin/rollout-studio.mjs", import.meta.url));
const run = healthRun({
  drift: { start: 8, rate: 0.15 },
  hack: { start: 12, share0: 0.03, max: 0.6 },
});
const root = mkdtempSync(join(tmpdir(), "rs-run-health-"));
const folder = join(root, "run");
mkdirSync(folder);
for (const file of run.files) writeFileSync(join(folder, file.name), file.text);
const state = join(root, "state");
mkdirSync(state);
const annotationsText = JSON.stringify(healthRunAnnotations(run));
writeFileSync(join(state, "annotations.json"), annotationsText);

let view: ViewProcess;
/** Core's health of the run and its detectors, as the CLI would compute them. */
let expected: RunHealth;
let detectors: DetectorResult[];

beforeAll(async () => {
  view = await viewStart(process.execPath, [
    BIN,
    "view",
    folder,
    "--port",
    "0",
    "--no-open",
    "--state",
    state,
  ]);
  const loaded = await loadRunForCli(root, [folder], undefined, undefined, Infinity);
  const steps = cliGroupSteps(loaded);
  const parsed = annotationsParse("annotations.json", annotationsText);
  if (!parsed.ok) throw new Error("the generated annotations do not parse");
  const annotations = parsed.value;
  const exemplars = hackExemplarsOf(loaded.groups, markedHackIds(annotations), ANALYSIS_DEFAULTS);
  expected = runHealth(
    loaded.groups.map((group) => ({ group, step: steps.get(group.id) ?? null })),
    ANALYSIS_DEFAULTS,
    HEALTH_DEFAULTS,
    { annotations, exemplars },
  );
  detectors = healthDetectors(expected, HEALTH_DEFAULTS);
});

afterAll(async () => {
  expect(await view.stop("SIGTERM")).toBe(0);
});

/** The table's attribute of a number: String(x), "" when undefined. */
const raw = (x: number): string => (Number.isFinite(x) ? String(x) : "");

const ROW_KEYS = {
  "data-step": (s: RunHealth["steps"][number]) => (s.step === null ? "" : String(s.step)),
  "data-groups": (s: RunHealth["steps"][number]) => String(s.groups),
  "data-rollouts": (s: RunHealth["steps"][number]) => String(s.rollouts),
  "data-pass-rate": (s: RunHealth["steps"][number]) => raw(s.passRate),
  "data-mean-reward": (s: RunHealth["steps"][number]) => raw(s.meanReward),
  "data-zero-std-share": (s: RunHealth["steps"][number]) => raw(s.zeroStdShare),
  "data-mixed-share": (s: RunHealth["steps"][number]) => raw(s.mixedShare),
  "data-mean-chars": (s: RunHealth["steps"][number]) => raw(s.meanChars),
  "data-mean-tool-calls": (s: RunHealth["steps"][number]) => raw(s.meanToolCalls),
  "data-clusters-per-group": (s: RunHealth["steps"][number]) => raw(s.clustersPerGroup),
} as const;

/** Every row of the run view's table, as its data attributes. */
async function tableRows(page: Page): Promise<Record<string, string>[]> {
  return page
    .getByTestId("health-row")
    .evaluateAll(
      (rows, keys) =>
        rows.map((r) => Object.fromEntries(keys.map((k) => [k, r.getAttribute(k) ?? "(none)"]))),
      Object.keys(ROW_KEYS),
    );
}

/** Wait until a detector's fired steps are these (the marks arrive from the server). */
async function detectorFires(page: Page, rule: string, fired: string): Promise<void> {
  await page.waitForFunction(
    ([r, f]) =>
      document
        .querySelector(`[data-testid="health-detector"][data-rule="${r}"]`)
        ?.getAttribute("data-fired") === f,
    [rule, fired],
    { timeout: 30_000 },
  );
}

/** The group browser's steps on screen, and its count line. */
async function browserSteps(page: Page): Promise<string[]> {
  return page.getByTestId("groups.row.step").allTextContents();
}

describe("the run health view", () => {
  test("shows core's numbers per step, the detectors' alerts, and filters to a step", async ({
    page,
    pageErrors,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${view.origin}/?token=${view.token!}`);
    await page.getByTestId("dataset-summary").waitFor();
    await page.getByTestId("panel.toggle.health").click();
    await page.getByTestId("health-summary").waitFor({ timeout: 30_000 });

    // The detectors, as core decides them over the same run with the same marks.
    const byRule = new Map(detectors.map((d) => [d.rule, d]));
    const drift = byRule.get("length-drift")!;
    const hack = byRule.get("hack-spread")!;
    expect(drift.alerts.map((a) => a.step)).toEqual([8]);
    expect(hack.alerts.length).toBeGreaterThan(0);
    await detectorFires(page, "length-drift", drift.fired.join(","));
    await detectorFires(page, "hack-spread", hack.fired.join(","));
    for (const d of detectors)
      expect(
        await page
          .locator(`[data-testid="health-detector"][data-rule="${d.rule}"]`)
          .getAttribute("data-fired"),
      ).toBe(d.fired.join(","));
    const driftAlerts = page.locator('[data-testid="health-alert"][data-rule="length-drift"]');
    expect(
      await driftAlerts.evaluateAll((els) => els.map((e) => e.getAttribute("data-step"))),
    ).toEqual(["8"]);
    expect(await driftAlerts.first().textContent()).toContain("from step 8");
    const hackAlerts = page.locator('[data-testid="health-alert"][data-rule="hack-spread"]');
    expect(
      await hackAlerts.evaluateAll((els) => els.map((e) => e.getAttribute("data-step"))),
    ).toEqual(hack.alerts.map((a) => String(a.step)));
    await page.screenshot({ path: `${ARTIFACTS_DIR}run-health-1440x900.png` });

    // The table: one row per step, each number core's.
    await page.getByTestId("health-tab-table").click();
    const rows = await tableRows(page);
    expect(rows).toEqual(
      expected.steps.map((s) =>
        Object.fromEntries(Object.entries(ROW_KEYS).map(([k, f]) => [k, f(s)])),
      ),
    );
    expect(rows).toHaveLength(20);

    // The same rows are the built CLI's `health --json` on the same folder and marks.
    const cli = spawnSync(
      process.execPath,
      [BIN, "health", folder, "--json", "--annotations", join(state, "annotations.json")],
      { encoding: "utf8" },
    );
    expect(cli.status).toBe(0);
    const json = JSON.parse(cli.stdout) as {
      steps: Record<string, number | null>[];
      alerts: { rule: string; step: number }[];
    };
    const attribute: Readonly<Record<string, string>> = {
      step: "data-step",
      groups: "data-groups",
      rollouts: "data-rollouts",
      passRate: "data-pass-rate",
      meanReward: "data-mean-reward",
      zeroStdShare: "data-zero-std-share",
      mixedShare: "data-mixed-share",
      meanChars: "data-mean-chars",
      meanToolCalls: "data-mean-tool-calls",
      clustersPerGroup: "data-clusters-per-group",
    };
    expect(
      json.steps.map((step): Record<string, string> =>
        Object.fromEntries(
          Object.entries(step).map(([k, v]): [string, string] => [
            attribute[k] ?? k,
            v === null ? "" : String(v),
          ]),
        ),
      ),
    ).toEqual(rows);
    expect(json.alerts.filter((a) => a.rule === "length-drift").map((a) => a.step)).toEqual([8]);

    // A click on a step of the table filters the group browser to that step's groups.
    await page.getByTestId("health-row-step").nth(7).click();
    await page.waitForURL(/[?&]step=8(&|$)/);
    await page.getByTestId("filter-count").getByText("24 of 480 groups").waitFor();
    const eight = await browserSteps(page);
    expect(eight.length).toBeGreaterThan(0);
    expect(new Set(eight)).toEqual(new Set(["8"]));

    // A click on a chart at a step's tick does the same.
    await page.getByTestId("health-tab-charts").click();
    const chart = page.locator('[data-chart="health-shares"]');
    // The x axis's tick labels (the y axis's are percentages).
    const tick = chart.locator("text.recharts-cartesian-axis-tick-value", { hasText: /^11$/ });
    const grid = chart.locator(".recharts-cartesian-grid");
    await chart.scrollIntoViewIfNeeded();
    const at = (await tick.boundingBox())!;
    const area = (await grid.boundingBox())!;
    await page.mouse.move(at.x + at.width / 2, area.y + area.height / 2);
    await page.mouse.click(at.x + at.width / 2, area.y + area.height / 2);
    await page.waitForURL(/[?&]step=11(&|$)/);
    await page.getByTestId("filter-count").getByText("24 of 480 groups").waitFor();
    expect(new Set(await browserSteps(page))).toEqual(new Set(["11"]));

    // The brush picks a range of steps: the charts narrow to it, and it applies as a filter.
    const range = page.getByTestId("health-range");
    await range.scrollIntoViewIfNeeded();
    const handle = (await range.locator(".recharts-brush-traveller").first().boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + 150, handle.y + handle.height / 2, { steps: 10 });
    await page.mouse.up();
    const label = (await page.getByTestId("health-range-label").textContent()) ?? "";
    const from = Number(/^Steps (\d+)–20$/.exec(label)?.[1]);
    expect(from).toBeGreaterThan(1);
    const firstTick = chart.locator("text.recharts-cartesian-axis-tick-value").first();
    expect(Number(await firstTick.textContent())).toBeGreaterThanOrEqual(from);
    await page.getByTestId("health-range-filter").click();
    await page.waitForURL(new RegExp(`[?&]steps=${from}-20(&|$)`));
    await page
      .getByTestId("filter-count")
      .getByText(`${(21 - from) * 24} of 480 groups`)
      .waitFor();

    await page.screenshot({ path: `${ARTIFACTS_DIR}run-health-charts-1440x900.png` });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: `${ARTIFACTS_DIR}run-health-1280x720.png` });
    expect(pageErrors.list).toEqual([]);
  });
});
