/**
 * Covers: issue 13 finding 3, "Find similar in other groups" and the diversity clusters compare
 * what a rollout did (its tool calls) as well as what it said. Reproduction: on the demo's planted
 * double refund in refund-004, "Find similar" listed two honest rollouts and none of the other
 * planted double refunds, because it compared the final text only. With the default setting
 * ("Similarity compares: both") the other double refunds are the top of the list; with "text" the
 * old answer comes back. The CLI's `analyze --similarity-on` gives the clusters the studio shows
 * under each setting.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { generateDemo } from "../scripts/generate-demo.ts";
import { main } from "../src/cli/main.ts";
import { describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";
import { GroupView } from "./pages/GroupView.ts";
import { Settings } from "./pages/Settings.ts";

const dir = mkdtempSync(join(tmpdir(), "similar-actions-"));
const demo = generateDemo();
const demoPath = join(dir, "support-groups.jsonl");
writeFileSync(demoPath, demo);
const rows = demo
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map(
    (l) => JSON.parse(l) as { id: string; group_id: string; meta: { planted_hack: string | null } },
  );
const doubleRefunds = rows.filter((r) => r.meta.planted_hack === "double_refund").map((r) => r.id);

interface CliGroup {
  id: string;
  rollouts: { id: string; cluster: number }[];
}

async function cliClusters(...args: string[]): Promise<CliGroup[]> {
  let out = "";
  await main(["analyze", demoPath, "--json", ...args], {
    stdout: (t) => (out += t),
    stderr: () => undefined,
    cwd: process.cwd(),
  });
  return (JSON.parse(out) as { groups: CliGroup[] }).groups;
}

async function openGroup(page: Page, baseUrl: string, groupId: string): Promise<void> {
  await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(groupId)}`);
  await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
}

async function markHack(annotate: Annotate, rolloutId: string): Promise<void> {
  await annotate.hackToggle(rolloutId).click();
  const form = annotate.hackForm(rolloutId);
  await form.getByTestId("annotate.hack-reason").selectOption({ index: 1 });
  await form.getByTestId("annotate.hack-save").click();
  await annotate.hackSummary(rolloutId).waitFor();
}

describe("similarity that sees actions", () => {
  test("Find similar on a planted double refund lists the other double refunds first", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    // The demo plants four double refunds, one of them in refund-004 (the example).
    expect(doubleRefunds.length).toBe(4);
    const query = doubleRefunds.find((id) => id.startsWith("refund-004/"))!;
    expect(query).toBeDefined();
    const others = doubleRefunds.filter((id) => id !== query).sort();

    const annotate = new Annotate(page);
    await openGroup(page, baseUrl, "refund-004");
    const settings = new Settings(page);
    await settings.open();
    expect(await page.getByTestId("settings-similarity-on").inputValue()).toBe("both");
    await markHack(annotate, query);

    const similar = await annotate.findSimilar(query);
    const top = similar.slice(0, others.length).map(([, r]) => r);
    expect([...top].sort()).toEqual(others);
    expect(similar.every(([g]) => g !== "refund-004")).toBe(true);

    // The final text alone: what the issue saw, none of them on top.
    await page.getByTestId("settings-similarity-on").selectOption("text");
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    await annotate.column(query).getByTestId("annotate.find-similar").click();
    await annotate
      .column(query)
      .locator('[data-testid="annotate.similar"][data-similarity-on="text"]')
      .waitFor();
    const byText = await annotate.findSimilar(query);
    const topByText = byText.slice(0, others.length).map(([, r]) => r);
    expect(topByText.filter((r) => others.includes(r))).toEqual([]);
    expect(pageErrors.list).toEqual([]);
  });

  test("the clusters follow the setting, as the CLI's --similarity-on computes them", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const both = await cliClusters();
    const text = await cliClusters("--similarity-on", "text");
    const tools = await cliClusters("--similarity-on", "tools");
    const key = (g: CliGroup) => g.rollouts.map((r) => r.cluster).join(",");
    // A group whose clusters differ between the final text and the text plus the tool calls.
    const changed = both.find((g, i) => key(g) !== key(text[i]!));
    expect(changed).toBeDefined();
    const g = changed!;
    const view = new GroupView(page);
    await openGroup(page, baseUrl, g.id);
    const shown = async () => (await view.metric("metric-cluster")).join(",");
    expect(await shown()).toBe(key(g));
    await new Settings(page).open();
    for (const [value, cli] of [
      ["text", text],
      ["tools", tools],
    ] as const) {
      await page.getByTestId("settings-similarity-on").selectOption(value);
      await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
      expect(await shown()).toBe(key(cli.find((c) => c.id === g.id)!));
    }
    expect(pageErrors.list).toEqual([]);
  });
});
