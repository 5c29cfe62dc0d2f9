/**
 * Covers: merging another annotator's file. The agreement figures the studio shows (mean Kendall
 * tau, Cohen's kappa on labels and on hack marks, with n and observed agreement) equal core's
 * `annotationsAgreement` over the same files and groups; every disagreement is listed and opens
 * its group; the merge adds the other file's groups and keeps the current values, and Ctrl+Z
 * undoes it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDemo } from "../scripts/generate-demo.ts";
import { loadForCli } from "../src/cli/loadForCli.ts";
import { annotationsAgreement, type Annotations } from "../src/core/index.ts";
import { annotationsParse } from "../src/io/annotations/annotationsFile.ts";
import { MergeReport } from "./pages/MergeReport.ts";
import { describe, expect, test } from "./harness/test.ts";

const dir = mkdtempSync(join(tmpdir(), "merge-"));
const demoPath = join(dir, "support-groups.jsonl");
writeFileSync(demoPath, generateDemo());

function parse(path: string): Annotations {
  const parsed = annotationsParse(path, readFileSync(path, "utf8"));
  if (!parsed.ok) throw new Error(`${path} does not parse`);
  return parsed.value;
}

const fixed = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "–");
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "–");

describe("merging two annotators' files", () => {
  test("shows core's agreement figures, lists disagreements, merges and undoes", async ({
    baseUrl,
    loaderPage,
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
    const [g1, g2, g3, g4] = groups.filter((g) => g.rollouts.length >= 4);
    const r = (g: typeof g1, i: number) => g!.rollouts[i]!.id;
    const first = {
      version: 1,
      annotator: "alice",
      groups: {
        [g1!.id]: {
          ranking: [[r(g1, 0)], [r(g1, 1)], [r(g1, 2)], [r(g1, 3)]],
          labels: { [r(g1, 0)]: "pass", [r(g1, 1)]: "fail", [r(g1, 2)]: "pass" },
          hacks: [r(g1, 3)],
        },
        [g2!.id]: {
          ranking: [[r(g2, 0), r(g2, 1)], [r(g2, 2)]],
          labels: { [r(g2, 0)]: "pass" },
          notes: "alice's note",
        },
        [g4!.id]: { reviewed: true },
      },
    };
    const second = {
      version: 1,
      annotator: "bob",
      groups: {
        [g1!.id]: {
          ranking: [[r(g1, 1)], [r(g1, 0)], [r(g1, 2)], [r(g1, 3)]],
          labels: { [r(g1, 0)]: "pass", [r(g1, 1)]: "pass", [r(g1, 2)]: "pass" },
          hacks: [r(g1, 3), r(g1, 2)],
        },
        [g2!.id]: {
          ranking: [[r(g2, 2)], [r(g2, 0)], [r(g2, 1)]],
          labels: { [r(g2, 0)]: "fail" },
          notes: "bob's note",
        },
        [g3!.id]: { hacks: [r(g3, 0)], notes: "only bob" },
      },
    };
    const firstPath = join(dir, "alice.json");
    const secondPath = join(dir, "bob.json");
    writeFileSync(firstPath, JSON.stringify(first));
    writeFileSync(secondPath, JSON.stringify(second));
    const report = annotationsAgreement(parse(firstPath), parse(secondPath), groups);
    expect(report.sharedGroups).toBe(2);
    expect(report.disagreements.length).toBeGreaterThan(0);

    await page.goto(`${baseUrl}/?demo`);
    await loaderPage.groupIds();
    await page.getByTestId("annotations-import").setInputFiles(firstPath);
    await page.getByTestId("annotations.message").getByText("Imported annotations").waitFor();
    expect(await page.getByTestId("annotations-export").innerText()).toContain("(3)");

    const merge = new MergeReport(page);
    await merge.choose(secondPath);
    expect(await merge.report.getByRole("heading").first().innerText()).toContain("bob");
    expect(await merge.figure("groups")).toContain("2 group(s) annotated in both");
    expect(await merge.figure("mean-tau")).toBe(fixed(report.meanTau));
    expect(await merge.figure("tau-n")).toBe(`${report.rankings.length} group(s)`);
    expect(await merge.figure("label-kappa")).toBe(fixed(report.labels.kappa));
    expect(await merge.figure("label-n")).toBe(String(report.labels.n));
    expect(await merge.figure("label-observed")).toBe(pct(report.labels.observed));
    expect(await merge.figure("hack-kappa")).toBe(fixed(report.hacks.kappa));
    expect(await merge.figure("hack-n")).toBe(String(report.hacks.n));
    expect(await merge.figure("hack-observed")).toBe(pct(report.hacks.observed));
    expect(await merge.disagreements.count()).toBe(report.disagreements.length);
    expect(await merge.disagreements.allInnerTexts()).toEqual(
      report.disagreements.map((d) => `${d.groupId} ${d.kind} ${d.message}`),
    );

    // A disagreement opens its group.
    const hack = merge.report.locator('[data-testid="merge.disagreement"][data-kind="hack"]');
    const hackGroup = (await hack.first().getAttribute("data-group-id"))!;
    await hack.first().getByTestId("merge.open-group").click();
    await page
      .locator(`[data-testid="group.workspace"][aria-label="Group ${hackGroup}"]`)
      .waitFor();

    // Merge: bob's third group is added; alice's values stay where they conflict.
    await merge.apply.click();
    await page.locator('[data-testid="annotations-export"]', { hasText: "(4)" }).waitFor();
    const download = page.waitForEvent("download");
    await page.getByTestId("annotations-export").click();
    const merged = JSON.parse(readFileSync(await (await download).path(), "utf8")) as {
      groups: Record<string, { notes: string; ranking: string[][]; hacks: string[] }>;
    };
    expect(merged.groups[g3!.id]!.notes).toBe("only bob");
    expect(merged.groups[g2!.id]!.notes).toBe("alice's note");
    expect(merged.groups[g1!.id]!.ranking).toEqual(first.groups[g1!.id]!.ranking);
    expect(merged.groups[g1!.id]!.hacks).toEqual([r(g1, 3)]);

    // The merge is one annotation change: Ctrl+Z takes it back.
    await page.keyboard.press("Control+z");
    await page.locator('[data-testid="annotations-export"]', { hasText: "(3)" }).waitFor();
    expect(pageErrors.list).toEqual([]);
  });
});
