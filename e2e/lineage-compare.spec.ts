/**
 * Covers (issue 19, items 4 and 5): a generated run (scripts/healthRun.ts) opened as a folder in
 * the studio. Its Lineage tab lists the open group's prompt at every step with the numbers core
 * computes from the same files (each file parsed by io, tallied with its step); a row opens its
 * step's group; two ticked steps open side by side, each with its columns. Run against run: the
 * clean run against the run with a spreading hack, opened in the Run vs run panel from a second
 * folder, shows core's `compareRuns` (shared prompts, mean difference, bootstrap interval, sign
 * test, regressions and improvements), and a regression or an improvement opens the prompt's two
 * groups side by side. `rollout-studio view RUN_A RUN_B --compare` opens the same comparison from
 * the server. No page errors. Screenshots at 1440x900 and 1280x720 go to e2e/.artifacts/.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  compareRuns,
  promptLineage,
  type GroupHealth,
  type RunComparison,
} from "../src/core/index.ts";
import { healthRunCoreGroups } from "../src/test/healthRunLoads.ts";
import { healthRun, type HealthRun } from "../scripts/healthRun.ts";
import { viewStart, type ViewProcess } from "../scripts/viewProcess.ts";
import { axeViolations } from "./harness/axe.ts";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";

const BIN = fileURLToPath(new URL("../bin/rollout-studio.mjs", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "rs-lineage-"));

function writeRun(name: string, run: HealthRun): string {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const f of run.files) writeFileSync(join(dir, f.name), f.text);
  return dir;
}

const cleanRun = healthRun();
const hackedRun = healthRun({ hack: { start: 12, share0: 0.03, max: 0.6 } });
const clean = writeRun("clean", cleanRun);
const hacked = writeRun("hacked", hackedRun);

let coreClean: readonly GroupHealth[];
let coreComparison: RunComparison;
let view: ViewProcess;

beforeAll(async () => {
  coreClean = await healthRunCoreGroups(cleanRun, ANALYSIS_DEFAULTS);
  coreComparison = compareRuns(coreClean, await healthRunCoreGroups(hackedRun, ANALYSIS_DEFAULTS));
  view = await viewStart(process.execPath, [
    BIN,
    "view",
    clean,
    hacked,
    "--compare",
    "--port",
    "0",
    "--no-open",
    "--state",
    join(root, "state"),
  ]);
});

afterAll(async () => {
  expect(await view.stop("SIGTERM")).toBe(0);
});

const attrs = (row: Locator, names: readonly string[]): Promise<(string | null)[]> =>
  row.evaluate((el, keys) => keys.map((k) => el.getAttribute(`data-${k}`)), names);

/**
 * axe's serious and critical findings, less one the column view has everywhere: a transcript
 * scroller with no focusable content inside (Column.tsx: Chromium makes scrollers keyboard-
 * focusable itself; axe does not know it). Every other finding, and this one anywhere else, counts.
 */
async function accessibility(page: Page): Promise<unknown[]> {
  return (await axeViolations(page)).flatMap((v) => {
    if (v.id !== "scrollable-region-focusable") return [v];
    const nodes = v.nodes.filter((n) => !n.includes('[aria-label="Transcript of '));
    return nodes.length === 0 ? [] : [{ ...v, nodes }];
  });
}

async function screenshots(page: Page, name: string): Promise<void> {
  for (const [width, height] of [
    [1440, 900],
    [1280, 720],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${ARTIFACTS_DIR}${name}-${width}x${height}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Open a run's folder in the studio with group `groupId` open. */
async function openFolder(page: Page, url: string, dir: string, groupId: string) {
  await page.goto(`${url}${url.endsWith("&") ? "" : "/?"}group=${encodeURIComponent(groupId)}`);
  await page.getByTestId("folder-input").setInputFiles(dir);
  await page.getByTestId("dataset-summary").waitFor();
  await page.locator(`[data-testid="group.workspace"][aria-label="Group ${groupId}"]`).waitFor();
}

/** The summary's and the lists' numbers equal core's comparison of the same files. */
async function expectCoreComparison(page: Page): Promise<void> {
  const summary = page.getByTestId("compare-summary");
  await summary.waitFor();
  const s = coreComparison.passRate;
  expect(
    await attrs(summary, ["metric", "shared", "mean-diff", "lower", "upper", "sign-p"]),
  ).toEqual([
    "passRate",
    String(coreComparison.shared.length),
    String(s.meanDiff),
    String(s.lower),
    String(s.upper),
    String(s.signP),
  ]);
  const prompts = (id: string) =>
    page.getByTestId(id).evaluateAll((els) => els.map((e) => e.getAttribute("data-prompt")));
  for (const [kind, list] of [
    ["regression", coreComparison.regressions],
    ["improvement", coreComparison.improvements],
  ] as const) {
    const shown = await prompts(`compare-${kind}`);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).toEqual(list.slice(0, shown.length).map((c) => c.prompt));
  }
}

/** The Lineage tab of group 5/p3: every row parsed, with core's numbers of the same files. */
async function expectCoreLineage(rows: Locator): Promise<void> {
  // Every row parsed and its clusters counted (the compute worker's, arriving after).
  await expect
    .poll(() =>
      rows.evaluateAll(
        (els) =>
          els.length === 20 &&
          els.every((e) => e.getAttribute("data-clusters") !== "" && e.dataset.state === "parsed"),
      ),
    )
    .toBe(true);
  const expected = promptLineage(coreClean, coreClean.find((g) => g.prompt === "p3")!.id);
  const names = ["step", "group-id", "n", "passes", "pass-rate", "std", "clusters"] as const;
  const shown = await rows.evaluateAll(
    (els, keys) =>
      els.map((e) => [
        ...keys.map((k) => e.getAttribute(`data-${k}`)),
        e.getAttribute("data-mean-chars"),
        e.getAttribute("data-spread"),
        e.getAttribute("data-current"),
      ]),
    names,
  );
  expect(shown).toEqual(
    expected.map((p) => [
      String(p.step),
      `${p.step}/p3`,
      String(p.n),
      String(p.passes),
      String(p.passRate),
      String(p.std),
      String(p.clusters),
      String(p.meanChars),
      p.spread,
      String(p.step === 5),
    ]),
  );
}

describe("prompt lineage", () => {
  test("the Lineage tab lists the prompt at every step with core's numbers", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    await openFolder(page, baseUrl, clean, "5/p3");
    await page.getByTestId("workspace.tab.lineage").click();
    const tab = page.getByTestId("lineage-tab");
    await tab.waitFor();
    expect(await attrs(tab, ["prompt", "steps", "members", "indexed"])).toEqual([
      "p3",
      "20",
      "20",
      "false",
    ]);
    const rows = page.getByTestId("lineage-row");
    await expectCoreLineage(rows);
    expect(await page.getByTestId("lineage-sparkline").count()).toBe(3);
    expect(await accessibility(page), "the Lineage tab").toEqual([]);
    await screenshots(page, "lineage-tab");

    // A row opens its step's group.
    await rows.nth(6).click();
    await page.locator('[data-testid="group.workspace"][aria-label="Group 7/p3"]').waitFor();
    expect(await page.getByTestId("workspace.tab.rollouts").getAttribute("aria-selected")).toBe(
      "true",
    );

    // Two ticked steps open side by side, the earlier step on the left, each with its columns.
    await page.getByTestId("workspace.tab.lineage").click();
    await page.getByTestId("lineage-pick").nth(13).check();
    await page.getByTestId("lineage-pick").nth(1).check();
    await page.getByTestId("lineage-open-pair").click();
    const pair = page.getByTestId("lineage-compare");
    await pair.waitFor();
    expect(await attrs(pair, ["left", "right", "left-run", "right-run"])).toEqual([
      "2/p3",
      "14/p3",
      "a",
      "a",
    ]);
    for (const [place, id] of [
      ["left", "2/p3"],
      ["right", "14/p3"],
    ] as const) {
      const pane = page.getByTestId(`lineage-compare.${place}`);
      await expect.poll(() => pane.getByTestId("rollout-column").count()).toBe(8);
      expect(await pane.getByTestId("rollout-column").first().getAttribute("data-rollout-id")).toBe(
        `${id}/0`,
      );
    }
    await screenshots(page, "lineage-pair");
    await page.getByText("← Back to the lineage").click();
    await page.getByTestId("lineage-tab").waitFor();
    expect(pageErrors.list).toEqual([]);
  });

  test("an indexed run's lineage groups are parsed on demand, with the same numbers", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    await openFolder(page, `${baseUrl}/?index-threshold=0&`, clean, "5/p3");
    await page.getByTestId("workspace.tab.lineage").click();
    expect(await page.getByTestId("lineage-tab").getAttribute("data-indexed")).toBe("true");
    await expectCoreLineage(page.getByTestId("lineage-row"));
    expect(await page.getByTestId("lineage-coverage").count()).toBe(0);
    expect(pageErrors.list).toEqual([]);
  });
});

describe("run against run", () => {
  test("a second folder in the Run vs run panel: core's comparison, and a pair side by side", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    await openFolder(page, baseUrl, clean, "1/p0");
    await page.getByTestId("panel.toggle.run-compare").click();
    await page.getByTestId("compare-folder-input").setInputFiles(hacked);
    await expectCoreComparison(page);
    expect(await page.getByTestId("compare-run-b").textContent()).toContain("hacked");
    expect(await accessibility(page), "the Run vs run panel").toEqual([]);
    await screenshots(page, "run-vs-run");

    for (const kind of ["regression", "improvement"] as const) {
      const row = page.getByTestId(`compare-${kind}`).first();
      const prompt = await row.getAttribute("data-prompt");
      await row.click();
      const pair = page.getByTestId("lineage-compare");
      await pair.waitFor();
      // The prompt's group at the last step of each run, run A on the left.
      expect(await attrs(pair, ["left", "right", "left-run", "right-run"])).toEqual([
        `20/${prompt}`,
        `20/${prompt}`,
        "a",
        "b",
      ]);
      for (const place of ["left", "right"])
        await expect
          .poll(() =>
            page.getByTestId(`lineage-compare.${place}`).getByTestId("rollout-column").count(),
          )
          .toBe(8);
      if (kind === "improvement") {
        expect(await accessibility(page), "two runs' groups side by side").toEqual([]);
        await screenshots(page, "run-vs-run-pair");
      }
      await page.getByText("← Back to the group").click();
      await page.locator('[data-testid="group.workspace"][aria-label="Group 1/p0"]').waitFor();
    }
    expect(pageErrors.list).toEqual([]);
  });

  test("rollout-studio view RUN_A RUN_B --compare opens the same comparison", async ({
    page,
    pageErrors,
  }) => {
    expect(view.stdout()).toMatch(/Compare: run B .*hacked against run A .*clean/);
    await page.goto(`${view.origin}/?token=${view.token}`);
    await expectCoreComparison(page);
    expect(await page.getByTestId("compare-run-b").textContent()).toContain("hacked");
    expect(pageErrors.list).toEqual([]);
  });
});
