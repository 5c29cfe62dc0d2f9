/**
 * Covers: imported annotations (the version 1 file the CLI reads) rank a group's passes and mark a
 * hack; the GAR advantages the studio shows equal what `rollout-studio analyze --annotations`
 * prints, and follow the hack-zeroing setting and a new reviewed mark at once. Stable ids only.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDemo } from "../scripts/generate-demo.ts";
import { describe, expect, test } from "./harness/test.ts";
import { cliAnalyze as cli } from "./harness/cli.ts";
import { Settings } from "./pages/Settings.ts";

const dir = mkdtempSync(join(tmpdir(), "gar-annotations-"));
const demoPath = join(dir, "support-groups.jsonl");
writeFileSync(demoPath, generateDemo());

describe("GAR from imported annotations", () => {
  test("the studio's GAR advantages equal the CLI's, and follow the settings", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const plain = await cli(demoPath);
    const group = plain.find((g) => g.mixed && g.passes >= 3)!;
    const passes = group.rollouts.filter((r) => r.passed).map((r) => r.id);
    // Worst pass first becomes best: a ranking that disagrees with file order; ties in the middle.
    const ranking = [[passes[passes.length - 1]!], passes.slice(1, -1), [passes[0]!]];
    const annotationsPath = join(dir, "annotations.json");
    writeFileSync(
      annotationsPath,
      JSON.stringify({
        version: 1,
        groups: {
          [group.id]: {
            ranking,
            hacks: [passes[1]!],
            labels: { [passes[0]!]: "pass" },
            notes: "",
          },
        },
      }),
    );
    const withGar = (await cli(demoPath, "--annotations", annotationsPath)).find(
      (g) => g.id === group.id,
    )!;
    expect(withGar.gar).not.toBe("none");

    await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(group.id)}`);
    await loaderPage.groupIds();
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    const read = async (metric: string) =>
      page.evaluate(
        (m) =>
          [...document.querySelectorAll('[data-testid="rollout-column"]')].map(
            (c) => c.querySelector(`[data-testid="${m}"]`)?.textContent ?? null,
          ),
        metric,
      );
    // Without annotations there is no GAR value to show.
    expect(await read("metric-gar-advantage")).toEqual(group.rollouts.map(() => ""));

    await page.getByTestId("annotations-import").setInputFiles(annotationsPath);
    await page.getByTestId("annotations.message").getByText("Imported annotations").waitFor();
    const close = (shown: (string | null)[], want: number[]) => {
      expect(shown).toHaveLength(want.length);
      want.forEach((w, i) => expect(Math.abs(Number(shown[i]) - w)).toBeLessThan(1e-4));
    };
    close(
      await read("metric-gar-advantage"),
      withGar.rollouts.map((r) => r.garAdvantage!),
    );
    close(
      await read("metric-advantage"),
      withGar.rollouts.map((r) => r.advantage),
    );

    await new Settings(page).open();
    await page.getByTestId("settings-hack-zero").uncheck();
    const kept = (await cli(demoPath, "--annotations", annotationsPath, "--no-hack-zero")).find(
      (g) => g.id === group.id,
    )!;
    close(
      await read("metric-gar-advantage"),
      kept.rollouts.map((r) => r.garAdvantage!),
    );
    expect(kept.rollouts.map((r) => r.garAdvantage)).not.toEqual(
      withGar.rollouts.map((r) => r.garAdvantage),
    );
    await page.getByTestId("settings-hack-zero").check();

    // The reviewed mark is an annotation too: it shows up in the export.
    await page.getByTestId("group.reviewed").check();
    const download = page.waitForEvent("download");
    await page.getByTestId("annotations-export").click();
    const saved = await download;
    const exported = JSON.parse(readFileSync(await saved.path(), "utf8")) as {
      groups: Record<string, { reviewed: boolean; ranking: string[][] }>;
    };
    expect(exported.groups[group.id]).toMatchObject({ reviewed: true, ranking });
    expect(pageErrors.list).toEqual([]);
  });
});
