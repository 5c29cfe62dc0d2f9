/**
 * Covers: the Metrics tab of a mixed demo group (table, recharts charts, the win-rate and
 * similarity heatmaps on canvas, the clusters view listing every rollout once), a setting change
 * that recomputes the table at once, the dataset overview's charts, and saving charts as PNG and
 * SVG (real downloads: PNG magic bytes, an SVG document that parses).
 */
import { mkdir } from "node:fs/promises";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { generateDemo } from "../scripts/generate-demo.ts";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";
import { cliAnalyze as cliGroups } from "./harness/cli.ts";
import { ChartsPage, type SavedFile } from "./pages/Charts.ts";
import { Settings } from "./pages/Settings.ts";

const demoPath = join(mkdtempSync(join(tmpdir(), "charts-")), "support-groups.jsonl");
writeFileSync(demoPath, generateDemo());

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function expectPng(file: SavedFile, name: string): void {
  expect(file.name).toBe(name);
  expect([...file.bytes.subarray(0, 8)]).toEqual(PNG_MAGIC);
  // IHDR: width and height, big-endian, at bytes 16..23; a 2x export is never tiny.
  expect(file.bytes.readUInt32BE(16)).toBeGreaterThan(200);
  expect(file.bytes.readUInt32BE(20)).toBeGreaterThan(100);
}

describe("charts", () => {
  test("metrics of a mixed group: table, charts, heatmaps, clusters; a setting recomputes", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const groups = await cliGroups(demoPath);
    const mixed = groups.find((g) => g.mixed && g.rollouts.length >= 5)!;
    const charts = new ChartsPage(page);
    await page.goto(`${baseUrl}/?demo`);
    await loaderPage.groupIds();
    await charts.openMetrics(mixed.id);

    const rows = await charts.metricsTable
      .getByTestId("metrics.row")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-rollout-id")));
    expect(rows).toEqual(mixed.rollouts.map((r) => r.id));
    const before = (await charts.column("advantage")).map(Number);
    mixed.rollouts.forEach((r, i) => expect(before[i]).toBeCloseTo(r.advantage, 3));

    expect(await charts.marks("advantages")).toBe(mixed.rollouts.length);
    expect(await charts.marks("rewards")).toBeGreaterThanOrEqual(mixed.rollouts.length);
    // The demo has no annotations: GAR and its factors say what they need.
    expect(await page.getByTestId("metrics.gar-note").innerText()).toContain("needs a ranking");
    expect(await page.getByTestId("metrics.factor-note").isVisible()).toBe(true);
    expect(await charts.paintedPixels("win-rate.canvas")).toBeGreaterThan(1000);
    expect(await charts.chart("win-rate").getByTestId("chart.how").innerText()).toContain(
      "a tie 0",
    );

    // Hovering a cell names the pair and its value: with short labels ("0", "1", ...) the grid
    // starts 19 px in and cells are 40 px, so (80, 40) is row 0, column 1.
    await page.getByTestId("win-rate.canvas").hover({ position: { x: 80, y: 40 } });
    await page
      .getByTestId("win-rate.hover")
      .filter({ hasText: /^0 vs 1: / })
      .waitFor();

    // The tie-credit setting redraws the matrix and its explanation at once.
    await new Settings(page).open();
    await page.getByTestId("settings-tie").selectOption("0.5");
    expect(await charts.chart("win-rate").getByTestId("chart.how").innerText()).toContain(
      "a tie 0.5",
    );

    await charts.clusters.waitFor({ state: "visible" });
    expect(await charts.paintedPixels("similarity.canvas")).toBeGreaterThan(1000);
    const members = await page
      .getByTestId("metrics.cluster-member")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-rollout-id")));
    expect([...members].sort()).toEqual(mixed.rollouts.map((r) => r.id).sort());
    expect(new Set(members).size).toBe(members.length);

    const heatmapPng = await charts.save("win-rate", "png");
    expectPng(heatmapPng, `win-rate-${mixed.id}.png`);

    await page.getByTestId("settings-scale").selectOption("none");
    const mean = mixed.rollouts.reduce((s, r) => s + r.reward, 0) / mixed.rollouts.length;
    const after = (await charts.column("advantage")).map(Number);
    expect(after).not.toEqual(before);
    mixed.rollouts.forEach((r, i) => expect(after[i]).toBeCloseTo(r.reward - mean, 3));
    expect(await charts.metricsTable.locator('th[title*="scale none"]').count()).toBeGreaterThan(0);

    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS_DIR}charts-metrics.png`, fullPage: true });
    expect(pageErrors.list).toEqual([]);
  });

  test("dataset overview: every chart renders; save PNG and SVG", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const charts = new ChartsPage(page);
    await page.goto(`${baseUrl}/?demo`);
    await loaderPage.groupIds();
    await charts.overviewToggle.click();
    await charts.overview.waitFor({ state: "visible" });

    for (const name of [
      "reward-histogram",
      "pass-k",
      "group-kinds",
      "group-sizes",
      "length-reward",
    ])
      expect(await charts.marks(name), name).toBeGreaterThan(0);
    expect(await page.getByTestId("overview.factor-note").innerText()).toMatch(/rank the passes/);
    expect(await page.getByTestId("overview.pass-rate").innerText()).toMatch(/^\d+\.\d%$/);

    // The pass threshold recomputes the pass rate at once.
    const rate = await page.getByTestId("overview.pass-rate").innerText();
    // The demo's rewards are 0 or 1: above 1 nothing passes.
    expect(rate).not.toBe("0.0%");
    await new Settings(page).open();
    await page.getByTestId("settings-pass-threshold").fill("1.5");
    await page
      .getByTestId("overview.pass-rate")
      .filter({ hasText: /^0\.0%$/ })
      .waitFor();

    const png = await charts.save("reward-histogram", "png");
    expectPng(png, "reward-histogram-support-groups.png");

    const svg = await charts.save("pass-k", "svg");
    expect(svg.name).toBe("pass-k-support-groups.svg");
    const text = svg.bytes.toString("utf8");
    expect(text).toContain("<svg");
    const parsed = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, "image/svg+xml");
      return {
        error: doc.querySelector("parsererror")?.textContent ?? null,
        root: doc.documentElement.localName,
        ns: doc.documentElement.namespaceURI,
        title: [...doc.querySelectorAll("text")].some((t) => t.textContent === "pass^k by k"),
        curves: doc.querySelectorAll("path").length,
      };
    }, text);
    expect(parsed).toMatchObject({
      error: null,
      root: "svg",
      ns: "http://www.w3.org/2000/svg",
      title: true,
    });
    expect(parsed.curves).toBeGreaterThan(0);

    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await charts.overview.screenshot({ path: `${ARTIFACTS_DIR}charts-overview.png` });
    expect(pageErrors.list).toEqual([]);
  });
});
