/**
 * Covers: issue 18's acceptance, end to end with the built CLI, a real PostgreSQL server (a
 * throwaway cluster) and three browser contexts, each opened with its own person's token:
 * - the lead makes a queue in the team panel (mixed groups, 50% overlap, blind) whose preview and
 *   posted assignment are core's `teamQueue` + `teamAssign` on the run's groups;
 * - both annotators open their queue in blind mode (the blind note shows, the reward is hidden),
 *   label every rollout pass/fail, rank with "Rank all" (bob reorders one ranking), and submit; on
 *   the overlap they disagree (ann fails a rollout bob passes; their rankings differ);
 * - the lead's progress and agreement follow without a reload, and the agreement's kappa (labels,
 *   hack marks) and tau (rankings), per pair and pooled, over every group and over the queue's
 *   overlap, equal core's `teamAgreement` on the annotations read back through the API;
 * - the lead opens the label disagreement (the group opens in the workspace, both annotations side
 *   by side), takes bob's side, adds a note and saves it as gold; the group shows as resolved;
 * - `rollout-studio export RUN --db URL --annotator gold --kind annotations --out F` holds it;
 * - the lead's Calibration panel takes the gold, or an annotator's labels, as its human side;
 * - zero page errors in all three contexts.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { rawGet, viewStart, type ViewProcess } from "../scripts/viewProcess.ts";
import { BIN, teamCli } from "./harness/teamCli.ts";
import {
  teamAgreement,
  teamAssign,
  teamCandidates,
  teamGroupFacts,
  teamQueue,
  type Annotations,
  type TeamAgreement,
  type TeamWork,
} from "../src/core/index.ts";
import { annotationsParse } from "../src/io/annotations/annotationsFile.ts";
import { startPostgres, type TestPostgres } from "../src/test/postgres.ts";
import { collectPageErrors, type PageErrors } from "./harness/pageErrors.ts";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";

const QUEUE = "first pass";

/** Six groups of five rollouts: four mixed (task-1, 2, 4, 5), two with one reward (3, 6). */
const REWARDS: Record<string, number[]> = {
  "task-1": [1, 1, 0, 1, 0],
  "task-2": [1, 0, 1, 1, 1],
  "task-3": [1, 1, 1, 1, 1],
  "task-4": [0, 1, 1, 0, 1],
  "task-5": [1, 1, 0, 1, 1],
  "task-6": [0, 0, 0, 0, 0],
};
const GROUPS = Object.keys(REWARDS);
const rolloutIds = (g: string): string[] => REWARDS[g]!.map((_, i) => `${g}/${i}`);
const ROLLOUTS = new Map(GROUPS.map((g) => [g, rolloutIds(g)]));

const base = mkdtempSync(join(tmpdir(), "team-e2e-"));
const run = join(base, "team-run");
mkdirSync(run, { recursive: true });
writeFileSync(
  join(run, "steps.jsonl"),
  GROUPS.flatMap((g, gi) =>
    REWARDS[g]!.map((reward, i) =>
      JSON.stringify({
        group_id: g,
        id: `${g}/${i}`,
        prompt: `What is ${gi + 2} times ${i + 3}?`,
        completion:
          reward === 1 ? `It is ${(gi + 2) * (i + 3)}.` : `It is ${(gi + 2) * (i + 3) + 1}.`,
        reward,
      }),
    ),
  ).join("\n") + "\n",
);

let pg: TestPostgres;
let view: ViewProcess;
let tokens: Record<string, string> = {};

const team = teamCli(() => pg.url);
const cli = team.run;

beforeAll(async () => {
  pg = await startPostgres();
  tokens = await team.addUsers([
    ["lee", "lead"],
    ["ann", "annotator"],
    ["bob", "annotator"],
  ]);
  view = await viewStart(process.execPath, [BIN, "view", run, "--port", "0", "--db", pg.url]);
});

/** One person's browser context and page, with its page errors. */
interface Person {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly errors: PageErrors;
}
const people: Record<string, Person> = {};

afterAll(async () => {
  for (const p of Object.values(people)) await p.context.close();
  if (view !== undefined && view.child.exitCode === null) await view.stop("SIGTERM");
  if (pg !== undefined) {
    for (const text of [...team.outputs, view?.stdout() ?? "", view?.stderr() ?? ""])
      expect(text).not.toContain(pg.password);
    await pg.stop();
  }
});

/** GET an /api/team route with a person's token, as JSON. */
async function api<T>(name: string, path: string): Promise<T> {
  const reply = await rawGet(view.origin, path, { authorization: `Bearer ${tokens[name]!}` });
  expect(reply.status, path).toBe(200);
  return JSON.parse(reply.body) as T;
}

const SHOTS = `${ARTIFACTS_DIR}team/`;

/** Screenshots of a person's page at 1440x900 and 1280x720 (e2e/.artifacts/team/), to look at. */
async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const size of [
    { width: 1280, height: 720 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${SHOTS}${name}-${size.width}x${size.height}.png` });
  }
}

/** Open the studio as a person, with their token, and their team panel. */
async function openAs(browser: Browser, name: string): Promise<Person> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${view.origin}/?token=${tokens[name]!}`);
  await page.locator('[data-testid="dataset-summary"][data-groups="6"]').waitFor();
  await page.getByTestId("panel.toggle.team").click();
  await page.locator(`[data-testid="team.whoami"][data-user="${name}"]`).waitFor();
  const person = { context, page, errors };
  people[name] = person;
  return person;
}

/** Wait until a locator's attribute has the value (the page follows the team by events). */
async function waitForAttribute(
  page: Page,
  selector: string,
  attribute: string,
  value: string,
): Promise<void> {
  await page.waitForFunction(
    ([s, a, v]) => [...document.querySelectorAll(s)].some((el) => el.getAttribute(a) === v),
    [selector, attribute, value] as const,
  );
}

interface QueueItem {
  readonly groupId: string;
  readonly position: number;
  readonly assignees: string[];
}

/** The queue core builds for the form's choices on the run's groups (what Create must post). */
function coreQueue(): { groups: string[]; byGroup: Record<string, readonly string[]> } {
  const facts = GROUPS.map((g) => teamGroupFacts(g, null, REWARDS[g]!, 0.5));
  const groups = teamQueue(
    teamCandidates(facts, { mixedOnly: true, zeroStdOnly: false, steps: null }),
    { kind: "all" },
  );
  const assignment = teamAssign(groups, { annotators: ["ann", "bob"], overlap: 0.5, seed: 0 });
  return { groups, byGroup: assignment.byGroup };
}

async function leadMakesQueue(lead: Page): Promise<QueueItem[]> {
  const form = lead.getByTestId("team.queue-form");
  await form.waitFor();
  await form.getByTestId("team.queue-name").fill(QUEUE);
  await form.getByTestId("team.queue-mixed").check();
  await form.getByTestId("team.queue-overlap").fill("50");
  await form.getByTestId("team.queue-blind").check();
  for (const user of ["ann", "bob"])
    await form.locator(`[data-testid="team.queue-annotator"][data-user="${user}"]`).check();
  // The lead is not offered as an annotator.
  expect(await form.locator('[data-testid="team.queue-annotator"][data-user="lee"]').count()).toBe(
    0,
  );
  const preview = form.getByTestId("team.queue-preview");
  await preview.getByText("4 groups; 2 to two people; ann 3, bob 3").waitFor();
  await shoot(lead, "lead-queue-form");
  await form.getByTestId("team.queue-create").click();
  await lead.locator(`[data-testid="team.lead-queue"][data-queue="${QUEUE}"]`).waitFor();
  for (const user of ["ann", "bob"])
    await lead
      .locator(
        `[data-testid="team.progress-row"][data-queue="${QUEUE}"][data-user="${user}"][data-assigned="3"][data-submitted="0"]`,
      )
      .waitFor();
  const view = await api<{ queue: { blind: boolean; overlap: number }; items: QueueItem[] }>(
    "lee",
    `/api/team/queues/${encodeURIComponent(QUEUE)}`,
  );
  expect([view.queue.blind, view.queue.overlap]).toEqual([true, 0.5]);
  const expected = coreQueue();
  const items = [...view.items].sort((a, b) => a.position - b.position);
  expect(items.map((i) => i.groupId)).toEqual(expected.groups);
  for (const item of items) expect(item.assignees).toEqual(expected.byGroup[item.groupId]);
  return items;
}

/**
 * One annotator's pass over their groups, blind: every rollout labelled by its reward (which the
 * page hides) except where `flip` says otherwise, every pass ranked with "Rank all", the first
 * ranked item moved down in the groups of `reorder`, and each group submitted.
 */
async function annotateQueue(
  person: Person,
  name: string,
  groups: readonly string[],
  flip: ReadonlySet<string>,
  reorder: ReadonlySet<string>,
): Promise<void> {
  const { page } = person;
  const annotate = new Annotate(page);
  const queue = page.locator(`[data-testid="team.queue"][data-queue="${QUEUE}"]`);
  await queue.waitFor();
  expect(await queue.getAttribute("data-blind")).toBe("1");
  await queue.getByTestId("team.queue-progress").getByText("0 of 3").waitFor();
  await queue.getByTestId("team.queue-open").click();
  for (const groupId of groups) {
    await page.locator(`[data-testid="team.queue-item"][data-group-id="${groupId}"]`).click();
    await page.locator(`[data-testid="group.workspace"][aria-label="Group ${groupId}"]`).waitFor();
    await page.getByTestId("team.blind-note").waitFor();
    if (groupId === groups[0]) await shoot(page, `annotator-blind-${name}`);
    // Blind: no reward shows in the group's columns before it is submitted.
    await page.getByTestId("column.rewards-hidden").first().waitFor();
    expect(await page.getByTestId("column.rewards-hidden").count(), `${name} ${groupId}`).toBe(5);
    expect(await page.getByTestId("metric-reward").count(), `${name} ${groupId}`).toBe(0);
    for (const [i, reward] of REWARDS[groupId]!.entries()) {
      const id = `${groupId}/${i}`;
      const pass = (reward === 1) !== flip.has(id);
      await annotate.label(id, pass ? "pass" : "fail").click();
      await annotate
        .column(id)
        .locator(`[data-testid="annotate.label.${pass ? "pass" : "fail"}"][aria-pressed="true"]`)
        .waitFor();
    }
    await page.getByTestId("ranking.add-all").click();
    if (reorder.has(groupId)) {
      const first = annotate.tiers.first().locator('[data-testid="ranking.item"]').first();
      await first.focus();
      await page.keyboard.press("Alt+ArrowDown");
    }
    await page.getByTestId("team.submit").click();
    await page
      .locator(
        `[data-testid="team.queue-item"][data-group-id="${groupId}"][data-status="submitted"]`,
      )
      .waitFor();
    // Submitted: the rewards show.
    await page.getByTestId("metric-reward").first().waitFor();
  }
  await queue.getByTestId("team.queue-progress").getByText("3 of 3").waitFor();
}

/** Everyone's annotations as the lead reads them, as core's work. */
async function everyonesWork(): Promise<TeamWork[]> {
  const reply = await api<{
    people: { user: string; annotations: unknown; submitted: Record<string, string> }[];
  }>("lee", "/api/team/everyone");
  return reply.people.flatMap((p) => {
    const parsed = annotationsParse(p.user, JSON.stringify(p.annotations));
    if (!parsed.ok) throw new Error(`${p.user}'s annotations do not validate`);
    return Object.entries(parsed.value.groups).map(([groupId, annotation]) => ({
      user: p.user,
      groupId,
      annotation,
      submitted: Object.hasOwn(p.submitted, groupId),
    }));
  });
}

/** A row's figures, whole, as the page put them in its data attributes. */
async function rowFigures(page: Page, selector: string): Promise<Record<string, number>> {
  const row = page.locator(selector);
  await row.waitFor();
  const figures: Record<string, number> = {};
  for (const key of [
    "groups",
    "labels-kappa",
    "labels-n",
    "hacks-kappa",
    "hacks-n",
    "ranking-tau",
    "ranking-groups",
  ])
    figures[key] = Number(await row.getAttribute(`data-${key}`));
  return figures;
}

/** core's figures of one pair or the pooled overall, in the rows' terms. */
function coreFigures(
  x: Pick<TeamAgreement["overall"], "labels" | "hacks" | "tau">,
  groups: number,
): Record<string, number> {
  return {
    groups,
    "labels-kappa": x.labels.kappa,
    "labels-n": x.labels.n,
    "hacks-kappa": x.hacks.kappa,
    "hacks-n": x.hacks.n,
    "ranking-tau": x.tau.tau,
    "ranking-groups": x.tau.groups,
  };
}

async function expectAgreementIsCores(lead: Page, core: TeamAgreement): Promise<void> {
  expect(await rowFigures(lead, '[data-testid="team.agreement-overall"]')).toEqual(
    coreFigures(core.overall, core.overall.groups),
  );
  expect(await lead.getByTestId("team.agreement-pair").count()).toBe(core.pairs.length);
  for (const pair of core.pairs)
    expect(
      await rowFigures(
        lead,
        `[data-testid="team.agreement-pair"][data-a="${pair.first}"][data-b="${pair.second}"]`,
      ),
    ).toEqual(coreFigures(pair, pair.groups.length));
}

describe("team mode: a lead, two annotators, blind queues, live agreement, gold", () => {
  let items: QueueItem[] = [];
  let overlap: string[] = [];
  /** The overlap group where ann fails a rollout bob passes, and that rollout. */
  let labelGroup = "";
  let flipped = "";

  test("the lead makes a blind queue with overlap; its assignment is core's", async ({
    browser,
  }) => {
    const lead = await openAs(browser, "lee");
    await lead.page.getByTestId("team.lead").waitFor();
    items = await leadMakesQueue(lead.page);
    overlap = items.filter((i) => i.assignees.length === 2).map((i) => i.groupId);
    expect(overlap).toHaveLength(2);
    labelGroup = overlap[0]!;
    flipped = `${labelGroup}/${REWARDS[labelGroup]!.indexOf(1)}`;
  }, 120_000);

  test("both annotators label, rank and submit their groups in blind mode", async ({ browser }) => {
    const ann = await openAs(browser, "ann");
    const bob = await openAs(browser, "bob");
    const theirs = (user: string) =>
      items.filter((i) => i.assignees.includes(user)).map((i) => i.groupId);
    // ann fails one rollout that passed; bob reorders his ranking of the other overlap group.
    await annotateQueue(ann, "ann", theirs("ann"), new Set([flipped]), new Set());
    await annotateQueue(bob, "bob", theirs("bob"), new Set(), new Set([overlap[1]!]));
    const work = await everyonesWork();
    const annLabel = work.find((w) => w.user === "ann" && w.groupId === labelGroup)!;
    expect(annLabel.annotation.labels[flipped]).toBe("fail");
    expect(work.filter((w) => w.submitted)).toHaveLength(6);
  }, 240_000);

  test("the lead's agreement follows and equals core's teamAgreement on the same labels", async () => {
    const lead = people.lee!.page;
    for (const user of ["ann", "bob"])
      await waitForAttribute(
        lead,
        `[data-testid="team.progress-row"][data-user="${user}"]`,
        "data-submitted",
        "3",
      );
    await waitForAttribute(lead, '[data-testid="team.agreement-overall"]', "data-groups", "2");
    const work = await everyonesWork();
    const all = teamAgreement(work, { rollouts: ROLLOUTS });
    await expectAgreementIsCores(lead, all);
    expect(all.overall.labels.kappa).toBeLessThan(1);
    expect(all.overall.tau.tau).toBeLessThan(1);
    // Over the queue's overlap: its annotators in queue order, its overlap groups.
    await lead.getByTestId("team.agreement-scope").selectOption(QUEUE);
    const queued = teamAgreement(work, {
      annotators: ["ann", "bob"],
      groups: overlap,
      rollouts: ROLLOUTS,
    });
    await expectAgreementIsCores(lead, queued);
    await shoot(lead, "lead-agreement");
    const kinds = await lead
      .getByTestId("team.disagreement")
      .evaluateAll((els) =>
        els.map((e) => `${e.getAttribute("data-group-id")} ${e.getAttribute("data-kind")}`),
      );
    expect(kinds).toEqual(queued.disagreements.map((d) => `${d.groupId} ${d.kind}`));
    expect(kinds).toContain(`${labelGroup} label`);
  }, 120_000);

  test("the lead resolves the label disagreement; export --annotator gold holds it", async () => {
    const lead = people.lee!.page;
    await lead
      .locator(
        `[data-testid="team.disagreement"][data-kind="label"][data-group-id="${labelGroup}"]`,
      )
      .click();
    await lead
      .locator(`[data-testid="group.workspace"][aria-label="Group ${labelGroup}"]`)
      .waitFor();
    const resolve = lead.locator(`[data-testid="team.resolve"][data-group-id="${labelGroup}"]`);
    await resolve.waitFor();
    const cell = (user: string) =>
      resolve.locator(
        `[data-testid="team.resolve-cell"][data-user="${user}"][data-rollout-id="${flipped}"]`,
      );
    expect([
      await cell("ann").getAttribute("data-label"),
      await cell("bob").getAttribute("data-label"),
    ]).toEqual(["fail", "pass"]);
    await resolve.locator('[data-testid="team.resolve-side"][data-user="bob"]').waitFor();
    await resolve.locator('[data-testid="team.resolve-take"][data-user="bob"]').click();
    const note = `Lead: ${flipped} is right; ann's fail was a slip.`;
    await resolve.getByTestId("team.resolve-notes").fill(note);
    await shoot(lead, "lead-resolve");
    await resolve.getByTestId("team.resolve-save").click();
    await resolve
      .getByTestId("team.resolve-message")
      .getByText(`Saved as the gold of ${labelGroup}.`)
      .waitFor();
    await lead
      .locator(`[data-testid="team.resolved"][data-group-id="${labelGroup}"]`)
      .first()
      .waitFor();

    const work = await everyonesWork();
    const bobs = work.find((w) => w.user === "bob" && w.groupId === labelGroup)!.annotation;
    const out = join(base, "gold.json");
    const exported = await cli(
      "export",
      run,
      "--db",
      pg.url,
      "--annotator",
      "gold",
      "--kind",
      "annotations",
      "--out",
      out,
    );
    expect(exported.code, exported.stderr).toBe(0);
    const parsed = annotationsParse(out, readFileSync(out, "utf8"));
    if (!parsed.ok) throw new Error("the exported gold does not validate");
    const gold: Annotations = parsed.value;
    expect(gold.groups[labelGroup]).toMatchObject({
      labels: bobs.labels,
      ranking: bobs.ranking,
      notes: note,
    });
    expect(Object.keys(gold.groups)).toEqual([labelGroup]);
  }, 120_000);

  test("the lead's calibration takes the gold, or an annotator, as its human side", async () => {
    const lead = people.lee!.page;
    await lead.getByTestId("panel.toggle.calibration").click();
    const human = lead.getByTestId("calibration.human");
    await human.locator('option[value="team:gold"]').waitFor({ state: "attached" });
    const count = (labels: Record<string, string>, label: string) =>
      Object.values(labels).filter((l) => l === label).length;
    const work = await everyonesWork();
    const golds = work.find((w) => w.user === "bob" && w.groupId === labelGroup)!.annotation;
    await human.selectOption("team:gold");
    await lead
      .getByTestId("calibration.human.counts")
      .getByText(
        `${count(golds.labels, "pass")} pass, ${count(golds.labels, "fail")} fail (0 defer excluded)`,
      )
      .waitFor();
    const anns = Object.assign(
      {},
      ...work.filter((w) => w.user === "ann").map((w) => w.annotation.labels),
    ) as Record<string, string>;
    await human.selectOption("team:ann");
    await lead
      .getByTestId("calibration.human.counts")
      .getByText(`${count(anns, "pass")} pass, ${count(anns, "fail")} fail (0 defer excluded)`)
      .waitFor();
  }, 60_000);

  test("no page errors in any of the three contexts", () => {
    for (const [name, p] of Object.entries(people)) expect(p.errors.list, name).toEqual([]);
    expect(Object.keys(people).sort()).toEqual(["ann", "bob", "lee"]);
  });
});
