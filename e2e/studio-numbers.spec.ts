/**
 * Covers: the numbers beside each rollout equal what `rollout-studio analyze` prints for the same
 * file and settings; changing the scale setting recomputes them at once (none gives R - mean); a
 * link with ?group= opens that group. Reads the stable test ids (group-row, rollout-column,
 * metric-*, settings-scale, load-issues).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDemo } from "../scripts/generate-demo.ts";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";
import { cliAnalyze as cli } from "./harness/cli.ts";
import { Settings } from "./pages/Settings.ts";

const demoPath = join(mkdtempSync(join(tmpdir(), "studio-numbers-")), "support-groups.jsonl");
writeFileSync(demoPath, generateDemo());

describe("studio numbers match the CLI", () => {
  test("a mixed group's metrics, then scale none, then a deep link", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const groups = await cli(demoPath);
    const mixed = groups.find((g) => g.mixed && g.rollouts.length >= 5)!;
    await page.goto(`${baseUrl}/?demo`);
    await loaderPage.groupIds();
    expect(await page.getByTestId("load-issues").textContent()).toBe("0");
    await page
      .locator(`[data-testid="group-row"][data-group-id="${mixed.id}"]`)
      .getByTestId("groups.row.id")
      .click();
    await page.getByTestId("group.detail").getByText(`Group ${mixed.id}`).waitFor();
    // Clusters come from the compute worker: wait for them before reading.
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();

    const read = async (metric: string) =>
      page.evaluate(
        (m) =>
          [...document.querySelectorAll('[data-testid="rollout-column"]')].map(
            (c) => c.querySelector(`[data-testid="${m}"]`)?.textContent ?? null,
          ),
        metric,
      );
    const columns = await page
      .getByTestId("rollout-column")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-rollout-id")));
    expect(columns).toEqual(mixed.rollouts.map((r) => r.id));
    const close = (shown: (string | null)[], want: number[]) =>
      want.forEach((w, i) => expect(Math.abs(Number(shown[i]) - w)).toBeLessThan(1e-4));
    close(
      await read("metric-advantage"),
      mixed.rollouts.map((r) => r.advantage),
    );
    close(
      await read("metric-reward"),
      mixed.rollouts.map((r) => r.reward),
    );
    close(
      await read("metric-rank"),
      mixed.rollouts.map((r) => r.rank),
    );
    // The place, best = 1, is the CLI's `place`.
    close(
      await read("metric-place"),
      mixed.rollouts.map((r) => r.place),
    );
    expect(await read("metric-cluster")).toEqual(mixed.rollouts.map((r) => String(r.cluster)));

    const settings = new Settings(page);
    await settings.open();
    await page.getByTestId("settings-scale").selectOption("none");
    const none = (await cli(demoPath, "--scale", "none")).find((g) => g.id === mixed.id)!;
    const mean = mixed.rollouts.reduce((s, r) => s + r.reward, 0) / mixed.rollouts.length;
    close(
      await read("metric-advantage"),
      none.rollouts.map((r) => r.advantage),
    );
    close(
      await read("metric-advantage"),
      mixed.rollouts.map((r) => r.reward - mean),
    );

    await page.getByTestId("filter-zero-std").check();
    const zeroStd = groups
      .filter((g) => new Set(g.rollouts.map((r) => r.reward)).size === 1)
      .map((g) => g.id);
    expect(zeroStd.length).toBeGreaterThan(0);
    // The list filters in a deferred render: wait until it shows the filtered count.
    await page
      .getByTestId("filter-count")
      .getByText(`${zeroStd.length} of ${groups.length} groups`)
      .waitFor();
    const listed = await page
      .getByTestId("group-row")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-group-id")));
    expect(listed).toEqual(zeroStd);
    expect(page.url()).toContain("filter=zero-std");
    await page.reload();
    await loaderPage.groupIds();
    await page
      .getByTestId("filter-count")
      .getByText(`${zeroStd.length} of ${groups.length} groups`)
      .waitFor();
    expect(await page.getByTestId("group-row").count()).toBe(zeroStd.length);
    await page.getByTestId("filter-zero-std").uncheck();

    const other = groups[groups.length - 1]!;
    await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(other.id)}`);
    await page.getByTestId("group.detail").getByText(`Group ${other.id}`).waitFor();
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    await page.screenshot({ path: `${ARTIFACTS_DIR}studio-deep-link.png` });
    // The scale setting persisted across the reload: the dataset bar says so, and so does its input.
    expect(await settings.summary()).toEqual(["scale none"]);
    await settings.open();
    expect(await page.getByTestId("settings-scale").inputValue()).toBe("none");
    expect(pageErrors.list).toEqual([]);
  });
});
