/**
 * Covers issue 13, finding 1: the README's verifier example (exact match on the demo's
 * `meta.order_id`, pattern `#(W\d{7})`) must not turn failures into passes.
 *
 * - With the default logged-reward rule (`auto`, which multiplies a 0/1 reward), the example keeps
 *   the pass rule: no rollout changes pass/fail, refund-004 keeps its 4 passes and
 *   order_status-002 its 1, a finished human ranking keeps its GAR values, and the panel says so.
 * - With `keep` (the old default, the logged reward plus the component), the panel lists who would
 *   pass differently before anything is applied (refund-004 4 -> 6, order_status-002 1 -> 5, a
 *   labelled fail that would pass, the ranking left incomplete), and applies only on "Apply anyway".
 * - On a native file, an exact match on the format's own `answer` field finds the ground truth.
 *
 * Stable test ids and the Verifiers page object only.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, test } from "./harness/test.ts";
import { GroupView } from "./pages/GroupView.ts";
import { Verifiers } from "./pages/Verifiers.ts";

const dir = mkdtempSync(join(tmpdir(), "verifier-pass-rule-"));

/** refund-004's passes (rewards 0 1 1 0 1 1 in the demo), ranked best first: a finished ranking. */
const ANNOTATIONS = {
  version: 1,
  groups: {
    "refund-004": {
      ranking: [["refund-004/2"], ["refund-004/1"], ["refund-004/5"], ["refund-004/4"]],
      hacks: [],
      labels: { "refund-004/0": "fail" },
      notes: "",
    },
  },
};

async function openWithRanking(page: Page, baseUrl: string): Promise<GroupView> {
  await page.goto(`${baseUrl}/?demo&group=refund-004`);
  const view = new GroupView(page);
  await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
  const path = join(dir, "annotations.json");
  writeFileSync(path, JSON.stringify(ANNOTATIONS));
  await page.getByTestId("annotations-import").setInputFiles(path);
  await page.getByTestId("annotations.message").getByText("Imported annotations").waitFor();
  return view;
}

const numbers = (shown: (string | null)[]) => shown.map((x) => Number(x));

describe("verifiers keep the pass rule", () => {
  test("the README example with the default rule: no fail becomes a pass, the ranking keeps its GAR values", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const view = await openWithRanking(page, baseUrl);
    expect(numbers(await view.metric("metric-reward"))).toEqual([0, 1, 1, 0, 1, 1]);
    const garBefore = await view.metric("metric-gar-advantage");
    // The ranking is finished: every rollout of the group has its GAR advantage.
    expect(garBefore.every((x) => x !== "")).toBe(true);

    const verifiers = new Verifiers(page);
    await verifiers.open();
    await verifiers.addExactMatch("order_id", "#(W\\d{7})");
    await verifiers.apply();
    // The component is there (22 fails: 5 decoy orders, 17 no order), and every one is a fail already.
    await page
      .locator('[data-testid="rollout-column"] [aria-label="Reward components"] li', {
        hasText: "exact_match",
      })
      .first()
      .waitFor();
    expect(await verifiers.tally()).toEqual([{ name: "exact_match", pass: 204, fail: 22 }]);
    expect(numbers(await view.metric("metric-reward"))).toEqual([0, 1, 1, 0, 1, 1]);
    expect(await view.metric("metric-gar-advantage")).toEqual(garBefore);
    expect(await page.getByTestId("ranking.status").innerText()).not.toMatch(/still to rank/);

    const check = await verifiers.flipCheck();
    expect(check.count).toBe(0);
    expect(check.summary).toBe("No rollout changes pass/fail: 133 of 226 pass before and after.");
    expect(check.rule).toMatch(
      /^auto: every logged reward is 0 or 1, so the total is the logged reward times/,
    );
    expect(await page.getByTestId("verifiers.rule").innerText()).toBe(check.rule);

    // order_status-002 keeps its single pass.
    await page.goto(`${baseUrl}/?demo&group=order_status-002`);
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    await page
      .locator('[data-testid="rollout-column"] [aria-label="Reward components"] li', {
        hasText: "exact_match",
      })
      .first()
      .waitFor();
    expect(numbers(await view.metric("metric-reward"))).toEqual([0, 0, 0, 0, 1]);
    expect(pageErrors.list).toEqual([]);
  });

  test("with keep, the flips are listed before anything is applied, and applied only on confirmation", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const view = await openWithRanking(page, baseUrl);
    const verifiers = new Verifiers(page);
    await verifiers.open();
    await verifiers.loggedReward("keep");
    await verifiers.addExactMatch("order_id", "#(W\\d{7})");
    const check = await verifiers.requestApply();

    // Nothing is applied yet: the rewards are the file's.
    expect(check.state).toBe("pending");
    expect(await verifiers.status.getAttribute("data-status")).toBe("off");
    expect(numbers(await view.metric("metric-reward"))).toEqual([0, 1, 1, 0, 1, 1]);

    expect(check.count).toBe(71);
    expect(check.summary).toBe(
      "This spec changes who passes: 71 rollouts (71 fail → pass, 0 pass → fail) in 30 groups; passes 133 → 204 of 226.",
    );
    expect(check.rule).toBe("the total is the logged reward plus the verifiers' components.");
    const groups = new Map(check.groups.map(([id, passes, ranking]) => [id, { passes, ranking }]));
    expect(groups.get("refund-004")).toEqual({
      passes: "4 → 6 of 6",
      ranking: "your ranking leaves out 2 new passes: no GAR values until they are ranked",
    });
    expect(groups.get("order_status-002")?.passes).toBe("1 → 5 of 5");
    // The labelled fail would pass: marked against the label, and counted.
    expect(check.rows).toContainEqual(["refund-004/0", "to-pass", true]);
    expect(check.rows.filter((r) => r[2])).toHaveLength(1);
    expect(await page.getByTestId("verifiers.flips.labels").innerText()).toBe(
      "1 of them go against your pass/fail label.",
    );
    const why = await page
      .locator('[data-testid="verifiers.flips.row"][data-rollout-id="refund-004/0"]')
      .textContent();
    expect(why).toContain(
      "fail → pass: the total goes from 0 to 1 (exact_match 1 added) and the pass threshold is 0.5",
    );

    // Back to editing: still nothing applied.
    await page.getByTestId("verifiers.flips.cancel").click();
    await page.getByTestId("verifiers.flips").waitFor({ state: "detached" });
    expect(await verifiers.status.getAttribute("data-status")).toBe("off");

    // Apply anyway: the user confirmed, and the totals are the sum.
    await verifiers.requestApply();
    await page.getByTestId("verifiers.flips.confirm").click();
    await page.locator('[data-testid="verifiers.status"][data-status="done"]').waitFor();
    await page.locator('[data-testid="verifiers.flips"][data-state="applied"]').waitFor();
    await page
      .locator('[data-testid="rollout-column"] [aria-label="Reward components"] li', {
        hasText: "exact_match",
      })
      .first()
      .waitFor();
    expect(numbers(await view.metric("metric-reward"))).toEqual([1, 2, 2, 1, 2, 2]);
    expect(pageErrors.list).toEqual([]);
  });

  test("an exact match on a native file's own answer field finds its ground truth", async ({
    loaderPage,
    page,
    baseUrl,
    pageErrors,
  }) => {
    const rows = [
      {
        group_id: "g1",
        id: "a",
        prompt: "7*6?",
        completion: "<answer>42</answer>",
        reward: 1,
        answer: "42",
      },
      {
        group_id: "g1",
        id: "b",
        prompt: "7*6?",
        completion: "<answer>41</answer>",
        reward: 1,
        answer: "42",
      },
      { group_id: "g1", id: "c", prompt: "7*6?", completion: "no idea", reward: 0, answer: "42" },
    ];
    const path = join(dir, "native-answer.jsonl");
    writeFileSync(path, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    await loaderPage.open(baseUrl);
    await loaderPage.choose(path);
    expect(await loaderPage.groupIds()).toEqual(["g1"]);
    const view = new GroupView(page);
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    expect(await view.columnIds()).toEqual(["a", "b", "c"]);

    const verifiers = new Verifiers(page);
    await verifiers.open();
    await verifiers.addExactMatch("answer", "<answer>(.*?)</answer>");
    const check = await verifiers.requestApply();
    // The wrong answer "41" had reward 1: multiplied by the exact match's 0 it fails, and says so.
    expect(check.state).toBe("pending");
    expect(check.rows).toEqual([["b", "to-fail", false]]);
    await page.getByTestId("verifiers.flips.confirm").click();
    await page.locator('[data-testid="verifiers.status"][data-status="done"]').waitFor();
    const tally = page.locator('[data-testid="verifiers.tally.row"][data-name="exact_match"]');
    await tally.waitFor();
    expect(await verifiers.tally()).toEqual([{ name: "exact_match", pass: 1, fail: 2 }]);
    expect(await tally.innerText()).not.toContain("no ground truth");
    expect(numbers(await view.metric("metric-reward"))).toEqual([1, 0, 0]);
    expect(pageErrors.list).toEqual([]);
  });
});
