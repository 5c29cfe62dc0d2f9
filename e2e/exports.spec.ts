/**
 * Covers: the Exports panel (src/ui/features/exports) on the demo. Judge runs, rubrics and
 * calibration assignments arrive in an imported annotations file; a group is then ranked (with a
 * tie), a hack marked and rollouts labelled through the UI. Every kind is downloaded through the
 * panel (the judge-run, source, mode and floor options included), each file's rows match the
 * panel's count, and `rollout-studio export` of the same kind, run in-process on the downloaded
 * annotations, writes the same bytes. Stable test ids only.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDemo } from "../scripts/generate-demo.ts";
import { demoAnnotations } from "../src/core/export/__fixtures__/demoAnnotations.ts";
import { main } from "../src/cli/main.ts";
import { annotationsToJson, loadText } from "../src/io/index.ts";
import { describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";
import { Exports, type ExportKind } from "./pages/Exports.ts";

const dir = mkdtempSync(join(tmpdir(), "exports-"));
const demo = generateDemo();
const demoPath = join(dir, "support-groups.jsonl");
writeFileSync(demoPath, demo);

/** `rollout-studio export` in-process, writing to stdout; fails the test on a non-zero exit. */
async function cliExport(kind: ExportKind, annotations: string, ...flags: string[]) {
  let out = "";
  let err = "";
  const code = await main(
    ["export", demoPath, "--annotations", annotations, "--kind", kind, "--out", "-", ...flags],
    { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: dir },
  );
  expect(code, err).toBe(0);
  return out;
}

/** No set-up before a download. */
const nothing = (): Promise<void> => Promise.resolve();

const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");

describe("exports", () => {
  test("every kind downloads from the panel and equals the CLI's export byte for byte", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const groups = (await loadText("support-groups.jsonl", demo)).groups;
    // Judge runs, rubrics and calibration state only: the human judgements come from the UI.
    const extrasPath = join(dir, "extras.json");
    writeFileSync(extrasPath, annotationsToJson({ ...demoAnnotations(groups), groups: {} }));
    const isPass = (r: number | null) => r !== null && r >= 0.5;
    const group = groups.find(
      (g) =>
        g.rollouts.filter((r) => isPass(r.reward)).length >= 4 &&
        g.rollouts.some((r) => !isPass(r.reward)),
    )!;
    const passes = group.rollouts.filter((r) => isPass(r.reward)).map((r) => r.id);
    const fail = group.rollouts.find((r) => !isPass(r.reward))!.id;
    const hack = passes[passes.length - 1]!;

    await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(group.id)}`);
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    await page.getByTestId("annotations-import").setInputFiles(extrasPath);
    await page.getByTestId("annotations.message").getByText("Imported annotations").waitFor();

    // Rank every pass by keyboard, then tie the second with the first.
    const annotate = new Annotate(page);
    await page.getByTestId("ranking.unranked").getByTestId("ranking.item").first().focus();
    for (let i = 0; i < passes.length; i++) {
      await page.keyboard.press("a");
      await page.keyboard.press("ArrowDown");
    }
    await annotate.item(passes[1]!).focus();
    await page.keyboard.press("t");
    const ranking = [[passes[0]!, passes[1]!], ...passes.slice(2).map((p) => [p])];
    expect(await annotate.ranking()).toEqual(ranking);
    // Mark the last pass as a hack; label three rollouts.
    await annotate.hackToggle(hack).click();
    await annotate.hackForm(hack).getByTestId("annotate.hack-save").click();
    await annotate.hackSummary(hack).waitFor();
    await annotate.label(passes[0]!, "pass").click();
    await annotate.label(fail, "fail").click();
    await annotate.label(passes[2]!, "defer").click();
    expect(await annotate.labels([passes[0]!, fail, passes[2]!])).toEqual([
      "pass",
      "fail",
      "defer",
    ]);

    const exportsPanel = new Exports(page);
    await exportsPanel.open();
    expect(await exportsPanel.rows("rewards")).toBe(
      groups.reduce((n, g) => n + g.rollouts.length, 0),
    );
    expect(await exportsPanel.rows("rubrics")).toBe(2);
    expect(await exportsPanel.rows("annotations")).toBe(1);

    // Each download: [kind, saved name, CLI flags, how to set the panel up first].
    const cases: [ExportKind, string, string[], () => Promise<void>][] = [
      ["calibration", "calibration.jsonl", [], nothing],
      [
        "calibration",
        "calibration-gar.jsonl",
        ["--judge-run", "gar-heuristic-1"],
        () => exportsPanel.chooseRun("calibration", "gar-heuristic-1"),
      ],
      ["rubrics", "rubrics.json", [], nothing],
      ["rewards", "rewards-human.jsonl", [], nothing],
      ["dpo", "dpo.jsonl", [], nothing],
      [
        "rewards",
        "rewards-judge.jsonl",
        ["--source", "judge"],
        () => exportsPanel.chooseSource("judge"),
      ],
      [
        "rewards",
        "rewards-grs.jsonl",
        ["--source", "judge", "--mode", "reward", "--floor", "0.2"],
        async () => {
          await exportsPanel.chooseMode("reward");
          await exportsPanel.setFloor("0.2");
        },
      ],
      // Last, so it holds the calibration splits the first download assigned.
      ["annotations", "annotations.json", [], nothing],
    ];
    const saved: { kind: ExportKind; path: string; flags: string[] }[] = [];
    for (const [kind, name, flags, setUp] of cases) {
      await setUp();
      const rows = await exportsPanel.rows(kind);
      expect(await exportsPanel.error(kind)).toBeNull();
      // The command the panel shows carries the same options.
      expect(await exportsPanel.command(kind)).toContain(
        [
          "--kind",
          kind,
          "--out",
          `support-groups.${kind}.json${kind === "rubrics" || kind === "annotations" ? "" : "l"}`,
          ...flags,
        ].join(" "),
      );
      const { path, suggested } = await exportsPanel.download(kind, dir, name);
      expect(suggested).toBe(
        `support-groups.${kind}.${kind === "rubrics" || kind === "annotations" ? "json" : "jsonl"}`,
      );
      const text = readFileSync(path, "utf8");
      if (kind === "rubrics") expect(Object.keys(JSON.parse(text) as object)).toHaveLength(rows!);
      else if (kind === "annotations")
        expect(Object.keys((JSON.parse(text) as { groups: object }).groups)).toHaveLength(rows!);
      else expect(lines(text)).toHaveLength(rows!);
      saved.push({ kind, path, flags });
    }
    await exportsPanel.message.getByText("Saved support-groups.annotations.json").waitFor();

    // The CLI, from the downloaded annotations, writes every file byte for byte.
    const annotationsPath = saved[saved.length - 1]!.path;
    for (const { kind, path, flags } of saved)
      expect(await cliExport(kind, annotationsPath, ...flags), `${kind} ${flags.join(" ")}`).toBe(
        readFileSync(path, "utf8"),
      );

    // What the UI annotated is in the files.
    const calibration = lines(readFileSync(saved[0]!.path, "utf8")).map(
      (l) =>
        JSON.parse(l) as { rollout_id: string; human_label: string | null; split: string | null },
    );
    expect(calibration.find((r) => r.rollout_id === passes[0])).toMatchObject({
      human_label: "pass",
    });
    expect(calibration.find((r) => r.rollout_id === fail)?.split).not.toBeNull();
    const rewards = lines(readFileSync(saved[3]!.path, "utf8")).map(
      (l) =>
        JSON.parse(l) as {
          group_id: string;
          rollout_id: string;
          status: string;
          hack_zeroed: boolean;
        },
    );
    const mine = rewards.filter((r) => r.group_id === group.id);
    expect(mine.every((r) => r.status === "redistributed")).toBe(true);
    expect(mine.find((r) => r.rollout_id === hack)?.hack_zeroed).toBe(true);
    const dpo = lines(readFileSync(saved[4]!.path, "utf8")).map(
      (l) => JSON.parse(l) as { chosen_id: string; rejected_id: string; rule: string },
    );
    expect(dpo.filter((p) => p.rule === "hack").map((p) => p.rejected_id)).toEqual(
      passes.slice(0, -1).map(() => hack),
    );
    expect(dpo.some((p) => p.chosen_id === passes[0] && p.rejected_id === passes[1])).toBe(false);
    const file = JSON.parse(readFileSync(annotationsPath, "utf8")) as {
      groups: Record<string, { ranking: string[][]; hacks: string[] }>;
      calibration: { assignments: Record<string, string> };
    };
    expect(file.groups[group.id]).toMatchObject({ ranking, hacks: [hack] });
    expect(Object.keys(file.calibration.assignments)).toContain(fail);
    expect(pageErrors.list).toEqual([]);
  });
});
