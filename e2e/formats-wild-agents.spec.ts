/**
 * Covers (issue 15): agent trajectories in the studio. The real SWE-agent trajectory and the real
 * OpenHands output (../shared/data), the ATIF fixtures, a SWE-agent folder run with a SWE-bench
 * report (the fixtures' trajectories, copied into two runs), and a Harbor jobs folder opened as one
 * run: `dataset-summary`'s counts, tool calls and tool results rendered in a rollout's column, a
 * rollout no report scored saying "unscored" (never "fail"), rewards from the reports, and no page
 * errors; and an Inspect log without samples (a cancelled run) saying so. Screenshots of a
 * SWE-agent and an OpenHands group at 1440x900 and 1280x720 go to e2e/.artifacts/.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import type { Locator, Page } from "playwright-core";
import type { Rollout } from "../src/core/index.ts";
import { loadBytes } from "../src/io/index.ts";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";
import { GroupView } from "./pages/GroupView.ts";
import type { LoaderPage } from "./pages/LoaderPage.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DATA = join(ROOT, "../shared/data");
const FIXTURES = join(ROOT, "src/io/__fixtures__");
const SWE = join(DATA, "swe-agent/function_calling_simple.traj");
const OPENHANDS = join(DATA, "openhands/multi_swe_bench_output.jsonl");

const CALC = "example__calc-7";
const MARSHMALLOW = "marshmallow-code__marshmallow-1867";

/**
 * A SWE-agent output folder of two runs, as `sweagent run-batch` lays them out
 * (`<run>/<instance>/<instance>.traj`): runA with SWE-bench's run report beside its trajectories
 * (calc-7 resolved, marshmallow not), runB with a second trajectory of calc-7 and no report.
 */
function sweAgentRuns(): string {
  const root = join(mkdtempSync(join(tmpdir(), "rs-swe-runs-")), "swe-runs");
  for (const [run, instances] of [
    ["runA", [CALC, MARSHMALLOW]],
    ["runB", [CALC]],
  ] as const)
    for (const instance of instances) {
      mkdirSync(join(root, run, instance), { recursive: true });
      copyFileSync(
        join(FIXTURES, "swe-agent", `${instance}.traj`),
        join(root, run, instance, `${instance}.traj`),
      );
    }
  writeFileSync(
    join(root, "runA", "report.json"),
    JSON.stringify({
      total_instances: 2,
      submitted_instances: 2,
      completed_instances: 2,
      resolved_instances: 1,
      resolved_ids: [CALC],
      unresolved_ids: [MARSHMALLOW],
      error_ids: [],
    }),
  );
  return root;
}

/** The counts `dataset-summary` carries. */
async function summary(page: Page): Promise<{ groups: string | null; rollouts: string | null }> {
  const s = page.getByTestId("dataset-summary");
  await s.waitFor();
  return {
    groups: await s.getAttribute("data-groups"),
    rollouts: await s.getAttribute("data-rollouts"),
  };
}

/** Tool calls and tool results in a column, counted when the column is rendered. */
async function toolCounts(column: Locator): Promise<{ calls: number; results: number }> {
  await column.getByTestId("transcript-message").first().waitFor();
  return {
    calls: await column.getByTestId("transcript.tool-call").count(),
    results: await column.getByTestId("transcript.tool-result").count(),
  };
}

/** A rollout's tool calls and tool results, as the loader read them. */
function toolsOf(rollout: Rollout): { calls: number; results: number } {
  return {
    calls: rollout.messages.reduce((n, m) => n + m.toolCalls.length, 0),
    results: rollout.messages.filter((m) => m.role === "tool").length,
  };
}

/** A column shows tool calls and the tool results answering them. */
async function expectToolTurns(column: Locator): Promise<void> {
  const shown = await toolCounts(column);
  expect(shown.calls).toBeGreaterThan(0);
  expect(shown.results).toBeGreaterThan(0);
}

/** Opens a folder through "Choose folder" and returns the dataset's counts and group ids. */
async function openFolder(
  page: Page,
  loaderPage: LoaderPage,
  baseUrl: string,
  dir: string,
): Promise<{ counts: Awaited<ReturnType<typeof summary>>; groups: string[] }> {
  await loaderPage.open(baseUrl);
  await page.getByTestId("folder-input").setInputFiles(dir);
  const counts = await summary(page);
  return { counts, groups: (await loaderPage.groupIds()).sort() };
}

/** Each column's pass verdict, in group order. */
async function verdicts(page: Page): Promise<(string | null)[]> {
  const view = new GroupView(page);
  await view.columns.first().waitFor();
  return view.columns.evaluateAll((cols) =>
    cols.map(
      (c) => c.querySelector('[data-testid="column.pass"]')?.getAttribute("data-verdict") ?? null,
    ),
  );
}

/**
 * Screenshots of the open group at both sizes: its columns' top, then the first column with its
 * first tool result (a long observation) open and its body scrolled to the end (the patch).
 */
async function screenshots(page: Page, name: string): Promise<void> {
  const body = new GroupView(page).columns.first().getByTestId("rollout-column.body");
  for (const [width, height] of [
    [1440, 900],
    [1280, 720],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.getByTestId("group.columns").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS_DIR}formats-wild-${name}-${width}x${height}.png` });
  }
  await body.getByTestId("tool-result-toggle").first().click();
  await body.getByTestId("tool-result-toggle").first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${ARTIFACTS_DIR}formats-wild-${name}-observation-1280x720.png` });
  await body.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await page.screenshot({ path: `${ARTIFACTS_DIR}formats-wild-${name}-end-1280x720.png` });
}

describe("an Inspect log without samples says so in the studio", () => {
  test("a cancelled .eval: no samples, its status and error, not 'every one rejected'", async ({
    baseUrl,
    loaderPage,
    pageErrors,
  }) => {
    const members = unzipSync(readFileSync(join(DATA, "inspect/log_streaming.eval")));
    const header = JSON.parse(strFromU8(members["header.json"]!)) as Record<string, unknown>;
    const kept = Object.fromEntries(
      Object.entries(members).filter(([name]) => !name.startsWith("samples/")),
    );
    kept["header.json"] = strToU8(
      JSON.stringify({ ...header, status: "cancelled", error: { message: "KeyboardInterrupt" } }),
    );
    await loaderPage.open(baseUrl);
    await loaderPage.choose({
      name: "cancelled.eval",
      mimeType: "application/zip",
      buffer: Buffer.from(zipSync(kept)),
    });
    await loaderPage.loadError.waitFor();
    const shown = await loaderPage.loadError.innerText();
    expect(shown).toContain(
      'cancelled.eval: no samples in this log: the run was cancelled (status "cancelled")',
    );
    expect(shown).toContain("KeyboardInterrupt");
    expect(shown).not.toContain("rejected");
    expect(pageErrors.list).toEqual([]);
  });
});

describe("agent trajectories in the studio", () => {
  test("the real SWE-agent trajectory: its tool calls and results in the column, unscored", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const loaded = await loadBytes("function_calling_simple.traj", readFileSync(SWE));
    const rollout = loaded.groups[0]!.rollouts[0]!;
    const { calls, results } = toolsOf(rollout);
    expect(calls).toBeGreaterThan(0);

    await loaderPage.open(baseUrl);
    await loaderPage.choose(SWE);
    expect(await summary(page)).toEqual({ groups: "1", rollouts: "1" });
    expect(await loaderPage.readAs.inputValue()).toBe("swe-agent");
    const view = new GroupView(page);
    await view.open("function_calling_simple");
    expect(await toolCounts(view.columns.first())).toEqual({ calls, results });
    expect(await verdicts(page)).toEqual(["unscored"]);
    // The submission (the patch) is the final text, shown after the transcript.
    expect(await view.columns.first().innerText()).toContain("diff --git");
    await screenshots(page, "swe-agent");
    expect(pageErrors.list).toEqual([]);
  });

  test("the real OpenHands output: three instances, tool calls and results, unscored", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const loaded = await loadBytes("output.jsonl", readFileSync(OPENHANDS));
    const group = loaded.groups[0]!;
    const rollout = group.rollouts[0]!;
    const { calls } = toolsOf(rollout);
    expect(calls).toBeGreaterThan(0);

    await loaderPage.open(baseUrl);
    await loaderPage.choose(OPENHANDS);
    expect(await summary(page)).toEqual({ groups: "3", rollouts: "3" });
    expect(await loaderPage.readAs.inputValue()).toBe("openhands");
    expect((await loaderPage.groupIds()).sort()).toEqual(
      ["ponylang__ponyc-4588", "ponylang__ponyc-4593", "ponylang__ponyc-4595"].sort(),
    );
    const view = new GroupView(page);
    await view.open(group.id);
    const column = view.columns.first();
    // Long transcripts render a page of messages at a time: count what is rendered, and expect
    // at least one call and one result among them.
    await expectToolTurns(column);
    expect((await toolCounts(column)).calls).toBeLessThanOrEqual(calls);
    expect(await verdicts(page)).toEqual(["unscored"]);
    await screenshots(page, "openhands");
    expect(pageErrors.list).toEqual([]);
  });

  test("the ATIF fixtures: one trajectory each, tool calls and results, unscored", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    for (const name of ["trajectory.json", "compact.json"]) {
      const path = join(FIXTURES, "atif", name);
      const loaded = await loadBytes(name, readFileSync(path));
      const group = loaded.groups[0]!;
      await loaderPage.open(baseUrl);
      await loaderPage.choose(path);
      expect(await summary(page)).toEqual({ groups: "1", rollouts: "1" });
      expect(await loaderPage.readAs.inputValue()).toBe("atif");
      const view = new GroupView(page);
      await view.open(group.id);
      expect(await toolCounts(view.columns.first())).toEqual(toolsOf(group.rollouts[0]!));
      expect(await verdicts(page)).toEqual(["unscored"]);
    }
    expect(pageErrors.list).toEqual([]);
  });

  test("a SWE-agent folder of two runs with a SWE-bench report: rewards from it, the rest unscored", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    expect(await openFolder(page, loaderPage, baseUrl, sweAgentRuns())).toEqual({
      counts: { groups: "2", rollouts: "3" },
      groups: [CALC, MARSHMALLOW].sort(),
    });
    const view = new GroupView(page);
    await view.open(CALC);
    // runA's calc-7 is resolved (the report); runB's has no report: unscored, not a failure.
    expect(await view.columnIds()).toHaveLength(2);
    const byRun = await view.columns.evaluateAll((cols) =>
      cols.map((c) => [
        c.getAttribute("data-rollout-id") ?? "",
        c.querySelector('[data-testid="column.pass"]')?.getAttribute("data-verdict") ?? null,
      ]),
    );
    expect(byRun.map(([id, v]) => [/runA\//.test(id!) ? "runA" : "runB", v]).sort()).toEqual([
      ["runA", "pass"],
      ["runB", "unscored"],
    ]);
    await expectToolTurns(view.columns.first());
    await view.open(MARSHMALLOW);
    expect(await verdicts(page)).toEqual(["fail"]);
    expect(pageErrors.list).toEqual([]);
  });

  test("a Harbor jobs folder opens as one run: trials grouped by task, rewards from their results", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    expect(await openFolder(page, loaderPage, baseUrl, join(FIXTURES, "atif/jobs"))).toEqual({
      counts: { groups: "2", rollouts: "3" },
      groups: ["fix-bug", "hello-world"],
    });
    const view = new GroupView(page);
    await view.open("hello-world");
    expect(await verdicts(page)).toEqual(["pass", "fail"]);
    await expectToolTurns(view.columns.first());
    // The trial whose verifier did not run has no reward: unscored.
    await view.open("fix-bug");
    expect(await verdicts(page)).toEqual(["unscored"]);
    expect(pageErrors.list).toEqual([]);
  });
});
