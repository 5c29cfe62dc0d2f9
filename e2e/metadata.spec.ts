/**
 * Covers: metadata as a first-class view (issue 13, finding 5). A rollout's metadata in a collapsed
 * panel in its column, above the transcript (the demo's `meta`); the task-level metadata once per
 * group in a "Task" disclosure (tau-bench's `info.task` with its expected actions); a metadata
 * field as a group-browser column and a `field = value` filter, both in the URL; and the dataset
 * overview's "slice by" a metadata field: pass rate and mean reward with rollouts and groups per
 * slice, as a table and a chart. The expected numbers are counted here from the generated demo and
 * the tau-bench file, not read from the studio.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateDemoRows } from "../scripts/generate-demo.ts";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";
import { GroupView } from "./pages/GroupView.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TAU = `${ROOT}../shared/data/tau-bench/gpt-4o-airline.json`;

const GROUP = "refund-004";

interface TauRecord {
  readonly task_id: number;
  readonly trial: number;
  readonly reward: number;
  readonly info: { readonly task: { readonly actions: readonly { readonly name: string }[] } };
}

/** Per value of a demo meta field: rollouts, groups, passes and the reward sum. */
function demoSlices(field: "scenario" | "strategy") {
  const slices = new Map<
    string,
    { rollouts: number; groups: Set<string>; passes: number; sum: number }
  >();
  for (const row of generateDemoRows()) {
    const value = row.meta[field];
    const s = slices.get(value) ?? { rollouts: 0, groups: new Set(), passes: 0, sum: 0 };
    s.rollouts++;
    s.groups.add(row.group_id);
    s.passes += row.reward >= 0.5 ? 1 : 0;
    s.sum += row.reward;
    slices.set(value, s);
  }
  return slices;
}

describe("metadata", () => {
  test("the demo: a rollout's meta beside its transcript, the task's once per group", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const rows = generateDemoRows().filter((r) => r.group_id === GROUP);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseUrl}/?demo&group=${GROUP}`);
    const view = new GroupView(page);
    await view.columns.first().waitFor();

    // Collapsed by default to one summary line: the transcript is still there, no tree rendered.
    const first = rows[0]!;
    const column = view.column(first.id);
    const toggle = column.getByTestId("rollout-meta.toggle");
    await toggle.waitFor();
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await column.getByTestId("metadata.tree").count()).toBe(0);
    expect(await column.getByTestId("rollout-meta.summary").textContent()).toContain(
      first.meta.strategy,
    );
    expect(await view.body(first.id).isVisible()).toBe(true);

    // Expanded: the rollout's own fields (those that differ within the group), each as text.
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    const panel = column.getByTestId("rollout-meta");
    const entry = (path: string) =>
      panel.locator(`[data-testid="metadata.entry"][data-path="${path}"]`);
    expect(await entry("strategy").innerText()).toContain(first.meta.strategy);
    expect(await entry("verifier_note").innerText()).toContain(String(first.meta.verifier_note));
    // The group's shared fields are not repeated per rollout: they are the task's.
    expect(await entry("order_id").count()).toBe(0);

    const task = page.getByTestId("group.task-meta");
    const taskToggle = page.getByTestId("group.task-meta.toggle");
    expect(await taskToggle.getAttribute("aria-expanded")).toBe("false");
    expect(await taskToggle.innerText()).toContain("Task");
    expect(await task.count()).toBe(0);
    await taskToggle.click();
    const taskEntry = (path: string) =>
      task.locator(`[data-testid="metadata.entry"][data-path="${path}"]`);
    expect(await taskEntry("order_id").innerText()).toContain(first.meta.order_id);
    expect(await taskEntry("scenario").innerText()).toContain(first.meta.scenario);
    expect(await taskEntry("strategy").count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS_DIR}metadata-demo.png` });
    expect(pageErrors.list).toEqual([]);
  });

  test("tau-bench: the task and its expected actions, the trial per rollout", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const records = JSON.parse(readFileSync(TAU, "utf8")) as TauRecord[];
    const task0 = records.filter((r) => r.task_id === 0);
    const actions = task0[0]!.info.task.actions.map((a) => a.name);
    expect(actions.length).toBeGreaterThan(0);
    await loaderPage.open(baseUrl);
    await loaderPage.choose(TAU);
    await loaderPage.groupIds();
    await new GroupView(page).open("0");

    const task = page.getByTestId("group.task-meta");
    await page.getByTestId("group.task-meta.toggle").click();
    const actionsEntry = task.locator(
      '[data-testid="metadata.entry"][data-path="info.task.actions"]',
    );
    const text = await actionsEntry.innerText();
    for (const name of actions) expect(text).toContain(name);
    expect(
      await task
        .locator('[data-testid="metadata.entry"][data-path="info.task.instruction"]')
        .count(),
    ).toBe(1);

    const column = page.getByTestId("rollout-column").first();
    await column.getByTestId("rollout-meta.toggle").click();
    expect(
      await column
        .locator('[data-testid="metadata.entry"][data-path="trial"]')
        .getByTestId("metadata.value")
        .innerText(),
    ).toBe(String(task0[0]!.trial));
    expect(pageErrors.list).toEqual([]);
  });

  test("group browser: a metadata column and a field = value filter, in the URL", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const rows = generateDemoRows();
    const strategy = "verify_account_first";
    const withStrategy = [
      ...new Set(rows.filter((r) => r.meta.strategy === strategy).map((r) => r.group_id)),
    ];
    const scenarioOf = new Map(rows.map((r) => [r.group_id, r.meta.scenario]));
    const strategiesOf = (g: string) =>
      new Set(rows.filter((r) => r.group_id === g).map((r) => r.meta.strategy)).size;
    await page.goto(`${baseUrl}/?demo`);
    const groups = loaderPage.groups;
    await groups.ready();

    await page.getByTestId("groups.meta-columns").click();
    await page
      .getByTestId("groups.meta-picker")
      .locator('[data-testid="groups.meta-column"][data-path="scenario"]')
      .check();
    await page
      .getByTestId("groups.meta-picker")
      .locator('[data-testid="groups.meta-column"][data-path="strategy"]')
      .check();
    await groups.ready();
    const row = await groups.row(GROUP);
    expect(await row.locator('[data-meta-path="scenario"]').innerText()).toBe(
      scenarioOf.get(GROUP),
    );
    expect(await row.locator('[data-meta-path="strategy"]').innerText()).toBe(
      `mixed (${strategiesOf(GROUP)} values)`,
    );
    expect(new URL(page.url()).searchParams.getAll("col")).toEqual(["scenario", "strategy"]);

    await page.getByTestId("filter-meta-field").selectOption("strategy");
    await page.getByTestId("filter-meta-value").selectOption(strategy);
    await page.getByTestId("groups.meta-columns").click();
    expect(await page.getByTestId("filter-meta-active").innerText()).toContain(
      `strategy = ${strategy}`,
    );
    expect(await groups.listedCount()).toBe(withStrategy.length);
    expect(await groups.allIds()).toEqual(withStrategy);
    expect(new URL(page.url()).searchParams.get("meta")).toBe(`strategy=${strategy}`);

    // A link opens the same view.
    await page.goto(page.url());
    await groups.ready();
    expect(await groups.listedCount()).toBe(withStrategy.length);
    await page.getByTestId("groups.meta-columns").click();
    expect(await page.getByTestId("filter-meta-field").inputValue()).toBe("strategy");
    expect(await page.locator('th [data-meta-header="scenario"]').count()).toBe(1);
    expect(pageErrors.list).toEqual([]);
  });

  test("overview: pass rate and mean reward sliced by a demo meta field, with counts", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    await page.goto(`${baseUrl}/?demo`);
    await page.getByTestId("panel.toggle.overview").click();
    const overview = page.getByTestId("overview");
    await overview.waitFor();
    const field = overview.getByTestId("overview.slice-field");
    await field.selectOption("scenario");
    const expected = demoSlices("scenario");
    const table = overview.getByTestId("overview.slices");
    await table.waitFor();
    const got = await table
      .getByTestId("overview.slice")
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll("th, td")].map((c) => c.textContent ?? "")),
      );
    expect(got.length).toBe(expected.size);
    for (const [value, s] of expected) {
      const cells = got.find((c) => c[0] === value);
      expect(cells).toEqual([
        value,
        String(s.rollouts),
        String(s.groups.size),
        String(s.passes),
        `${((100 * s.passes) / s.rollouts).toFixed(1)}%`,
        (s.sum / s.rollouts).toFixed(3),
      ]);
    }
    await overview
      .locator('[data-testid="chart"][data-chart="metadata-slices"]')
      .waitFor({ state: "visible" });

    // Every strategy is a slice, and the rollouts add up to the dataset's.
    await field.selectOption("strategy");
    const strategies = demoSlices("strategy");
    await table
      .getByTestId("overview.slice")
      .nth(strategies.size - 1)
      .waitFor();
    expect(await table.getByTestId("overview.slice").count()).toBe(strategies.size);
    const counts = await table
      .getByTestId("overview.slice")
      .evaluateAll((trs) => trs.map((tr) => Number(tr.children[1]?.textContent)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(generateDemoRows().length);
    await page.screenshot({ path: `${ARTIFACTS_DIR}metadata-overview.png`, fullPage: true });
    expect(pageErrors.list).toEqual([]);
  });

  test("hostile metadata is text: markup in a field renders as its characters", async ({
    loaderPage,
    baseUrl,
    page,
    pageErrors,
  }) => {
    const payload = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    const rows = [0, 1].map((i) =>
      JSON.stringify({
        group_id: "g",
        completion: `answer ${i}`,
        reward: i,
        meta: { task: { note: payload }, mine: `${payload} ${i}` },
      }),
    );
    await loaderPage.open(baseUrl);
    await loaderPage.choose({
      name: "hostile-meta.jsonl",
      mimeType: "application/jsonl",
      buffer: Buffer.from(`${rows.join("\n")}\n`),
    });
    await loaderPage.groupIds();
    const task = page.getByTestId("group.task-meta");
    await page.getByTestId("group.task-meta.toggle").click();
    expect(
      await task
        .locator('[data-testid="metadata.entry"][data-path="task.note"]')
        .getByTestId("metadata.value")
        .innerText(),
    ).toBe(payload);
    const column = page.getByTestId("rollout-column").first();
    await column.getByTestId("rollout-meta.toggle").click();
    expect(
      await column
        .locator('[data-testid="metadata.entry"][data-path="mine"]')
        .getByTestId("metadata.value")
        .innerText(),
    ).toBe(`${payload} 0`);
    expect(
      await page
        .locator('[data-testid="metadata.tree"] img, [data-testid="metadata.tree"] script')
        .count(),
    ).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(pageErrors.list).toEqual([]);
  });
});
