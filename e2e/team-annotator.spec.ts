/**
 * Covers: issue 18's annotator side in the studio, blind mode, with the built CLI on a real port
 * and a real PostgreSQL server (a throwaway cluster, src/test/postgres.ts). A lead makes a blind
 * queue of three groups for an annotator (`POST /api/team/queues`, HTTP). The annotator's page
 * (`?token=<their token>`): the Team panel says who they are and their queue, "0 of 3"; a group of
 * the queue opens with its queue bar and the blind note, and no reward anywhere (no reward metric,
 * no pass or fail chip, the group browser's row blanked, the dataset-wide panels replaced by a
 * note); Submit is disabled until the group is labelled and ranked; once submitted, the group's
 * rewards show, the progress says "1 of 3" (and the server agrees), the other blind groups stay
 * hidden. No page error.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { viewStart, type ViewProcess } from "../scripts/viewProcess.ts";
import { startPostgres, type TestPostgres } from "../src/test/postgres.ts";
import { writeDemo } from "./harness/cli.ts";
import { collectPageErrors } from "./harness/pageErrors.ts";
import { BIN, teamCli } from "./harness/teamCli.ts";
import { describe, expect, test } from "./harness/test.ts";

const QUEUE = "blind-week-1";

const demo = writeDemo("team-annotator-");
/** The demo's first three groups, in file order: the queue. */
const GROUPS = [
  ...new Set(
    readFileSync(demo, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => (JSON.parse(line) as { group_id: string }).group_id),
  ),
].slice(0, 3);

let pg: TestPostgres;
let view: ViewProcess;
let tokens: Record<string, string> = {};

const team = teamCli(() => pg.url);

const as = (name: string): Record<string, string> => ({
  authorization: `Bearer ${tokens[name]!}`,
  "content-type": "application/json",
});

beforeAll(async () => {
  expect(GROUPS).toHaveLength(3);
  pg = await startPostgres();
  tokens = await team.addUsers([
    ["lee", "lead"],
    ["ann", "annotator"],
  ]);
  view = await viewStart(process.execPath, [
    BIN,
    "view",
    demo,
    "--port",
    "0",
    "--db",
    pg.url,
    "--no-open",
  ]);
  // The lead makes the blind queue, every group for ann (the page's lead side is another test).
  const made = await fetch(`${view.origin}/api/team/queues`, {
    method: "POST",
    headers: as("lee"),
    body: JSON.stringify({
      name: QUEUE,
      blind: true,
      overlap: 0,
      seed: 7,
      filter: { kind: "first three groups" },
      groups: GROUPS,
      assignments: GROUPS.map((groupId) => ({ groupId, user: "ann" })),
    }),
  });
  expect(made.status).toBe(201);
});

afterAll(async () => {
  if (view !== undefined && view.child.exitCode === null) await view.stop("SIGKILL");
  await pg?.stop();
});

const testId = (page: Page, id: string) => page.getByTestId(id);

/** ann's page, the run read, the Team panel open on the queue. */
async function openQueue(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${view.origin}/?token=${tokens.ann!}`);
  await page.locator('[data-testid="dataset-summary"][data-groups="40"]').waitFor();
  await testId(page, "panel.toggle.team").click();
  await testId(page, "panel.team").waitFor();
  const queue = page.locator(`[data-testid="team.queue"][data-queue="${QUEUE}"]`);
  await queue.waitFor();
  await queue.getByTestId("team.queue-open").click();
  await page.locator('[data-testid="team.queue-item"]').nth(2).waitFor();
}

/** How many elements carry a test id. */
const count = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`).count();

describe("an annotator in a blind queue", () => {
  test("sees no reward until they submit the group, then its rewards and 1 of 3", async ({
    page,
    pageErrors,
  }) => {
    await openQueue(page);
    expect(await testId(page, "team.whoami").innerText()).toBe(
      `You are ann (annotator) on dataset ${basename(demo)}`,
    );
    const queue = page.locator(`[data-testid="team.queue"][data-queue="${QUEUE}"]`);
    expect(await queue.getAttribute("data-blind")).toBe("1");
    expect(await queue.getByTestId("team.queue-progress").innerText()).toBe("0 of 3");
    const items = page.locator('[data-testid="team.queue-item"]');
    expect(
      await items.evaluateAll((els) =>
        els.map((e) => [e.getAttribute("data-group-id"), e.getAttribute("data-status")]),
      ),
    ).toEqual(GROUPS.map((g) => [g, "todo"]));

    // The first group: its queue bar and the blind note, and no reward anywhere on the page.
    const [first, second] = GROUPS as [string, string, string];
    await items.first().click();
    await page.locator(`[data-testid="group.workspace"][aria-label="Group ${first}"]`).waitFor();
    await page.locator('[data-testid="rollout-column"]').first().waitFor();
    await testId(page, "team.queue-bar").waitFor();
    expect(await testId(page, "team.queue-bar-progress").innerText()).toBe("0 of 3");
    expect(await testId(page, "team.blind-note").innerText()).toBe(
      "Blind: rewards and judge verdicts are hidden until you submit this group.",
    );
    for (const id of ["metric-reward", "metric-advantage", "metric-gar-advantage", "column.pass"])
      expect(await count(page, id), id).toBe(0);
    expect(await count(page, "column.rewards-hidden")).toBeGreaterThan(0);
    const row = (g: string) => page.locator(`[data-testid="group-row"][data-group-id="${g}"]`);
    expect(await row(first).getByTestId("groups.row.blind").count()).toBe(1);
    expect(await testId(page, "team.prev").isDisabled()).toBe(true);
    expect(await testId(page, "team.next").isDisabled()).toBe(false);
    // The dataset-wide views are a note while a blind group is not submitted.
    await testId(page, "panel.toggle.overview").click();
    await page
      .getByTestId("panel.overview")
      .getByTestId("team.dataset-hidden")
      .getByText("3 groups of a blind queue are not submitted by you yet")
      .waitFor();
    await testId(page, "panel.toggle.overview").click();

    // Nothing annotated: Submit is disabled and says why.
    const submit = page.locator(`[data-testid="team.submit"][data-group-id="${first}"]`);
    expect(await submit.isDisabled()).toBe(true);
    expect(await submit.getAttribute("title")).toContain("Nothing to submit yet");

    // Label the first rollout and rank every rollout (blind: "Rank all" offers them all).
    await page
      .locator('[data-testid="rollout-column"]')
      .first()
      .getByTestId("annotate.label.pass")
      .click();
    await testId(page, "ranking.add-all").click();
    await page.locator('[data-testid="ranking.status"][data-status="blind"]').waitFor();
    await page.locator(`[data-testid="team.queue-item"][data-status="draft"]`).waitFor();
    expect(await submit.isDisabled()).toBe(false);
    await submit.click();

    // Submitted: the rewards show, the progress moves, the other groups stay blind.
    await testId(page, "team.submitted").waitFor();
    await page.locator('[data-testid="metric-reward"]').first().waitFor();
    expect(await count(page, "team.blind-note")).toBe(0);
    expect(await count(page, "column.rewards-hidden")).toBe(0);
    expect(await count(page, "column.pass")).toBeGreaterThan(0);
    await page.getByTestId("team.queue-bar-progress").getByText("1 of 3").waitFor();
    await queue.getByTestId("team.queue-progress").getByText("1 of 3").waitFor();
    await page
      .locator(`[data-testid="team.queue-item"][data-group-id="${first}"][data-status="submitted"]`)
      .waitFor();
    expect(await row(first).getByTestId("groups.row.blind").count()).toBe(0);
    expect(await row(second).getByTestId("groups.row.blind").count()).toBe(1);

    // Next: the second group, still blind.
    await testId(page, "team.next").click();
    await page.locator(`[data-testid="group.workspace"][aria-label="Group ${second}"]`).waitFor();
    await testId(page, "team.blind-note").waitFor();
    expect(await count(page, "metric-reward")).toBe(0);

    // The server agrees: ann submitted one group of three.
    const progress = await fetch(`${view.origin}/api/team/queues/${QUEUE}/progress`, {
      headers: as("lee"),
    });
    expect(((await progress.json()) as { progress: unknown[] }).progress).toEqual([
      { user: "ann", assigned: 3, annotated: 1, submitted: 1 },
    ]);
    expect(pageErrors.list).toEqual([]);
  });

  test("two tabs label one group at once: the stale write is merged, both labels kept", async ({
    page,
    pageErrors,
  }) => {
    const second = await page.context().newPage();
    const secondErrors = collectPageErrors(second);
    const third = GROUPS[2]!;
    for (const tab of [page, second]) {
      await openQueue(tab);
      await tab.locator(`[data-testid="team.queue-item"][data-group-id="${third}"]`).click();
      await tab.locator(`[data-testid="group.workspace"][aria-label="Group ${third}"]`).waitFor();
      await tab.locator('[data-testid="rollout-column"]').nth(1).waitFor();
    }
    // Both tabs label a different rollout of the group before either save lands (the saves are
    // debounced 200 ms): both PUT the document at the same version, and one is refused (409).
    const column = (tab: Page, i: number) => tab.locator('[data-testid="rollout-column"]').nth(i);
    await column(page, 0).getByTestId("annotate.label.pass").click();
    await column(second, 1).getByTestId("annotate.label.fail").click();
    const saved =
      '[data-testid="annotations.saved"][data-target="server"][data-status="saved"][data-pending="0"]';
    for (const tab of [page, second]) await tab.locator(saved).waitFor();

    // The server holds both labels: the refused write was merged rollout by rollout and sent
    // again, and the acknowledged one was not overwritten.
    const reply = await fetch(`${view.origin}/api/team/annotations/ann`, { headers: as("ann") });
    const doc = (await reply.json()) as {
      annotations: { groups: Record<string, { labels: Record<string, string> }> };
    };
    expect(Object.values(doc.annotations.groups[third]!.labels).sort()).toEqual(["fail", "pass"]);
    // Each tab shows the other's label too (the annotations event, then a merge).
    for (const tab of [page, second]) {
      await column(tab, 0)
        .locator('[data-testid="annotate.label.pass"][aria-pressed="true"]')
        .waitFor();
      await column(tab, 1)
        .locator('[data-testid="annotate.label.fail"][aria-pressed="true"]')
        .waitFor();
    }
    expect(pageErrors.list).toEqual([]);
    expect(secondErrors.list).toEqual([]);
  });
});
