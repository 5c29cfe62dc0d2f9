/**
 * Covers: the Verifiers panel (src/ui/features/verifiers) on the demo. A format gate and an
 * exact-match verifier (against the demo's `order_id`) are added and applied: their counts, each
 * column's new components, the rewards and the advantages equal `rollout-studio analyze
 * --verifiers` with the exported spec; the drop-a-component table lists each part; labelled
 * rollouts make the exact match a judge in the calibration view, with its TPR and TNR; a reload
 * keeps the spec applied. A "Rubric judge" verifier says "run the judge first" until the offline
 * heuristic grader has made a run in the Judge panel, then scores with its verdicts: the same
 * component values as `rollout-studio judge --heuristic` + `analyze --verifiers`, in the group's
 * columns, and as a judge in the calibration view; the Exports panel's rewards download, with the
 * spec applied, is what `rollout-studio export --verifiers` writes from the exported spec and
 * annotations (its command line names the spec). Stable test ids only.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { main } from "../src/cli/main.ts";
import { cliAnalyze, writeDemo } from "./harness/cli.ts";
import { describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";
import { Calibration } from "./pages/Calibration.ts";
import { Exports } from "./pages/Exports.ts";
import { GroupView } from "./pages/GroupView.ts";
import { Verifiers } from "./pages/Verifiers.ts";

const demoPath = writeDemo("verifiers-");
const dir = dirname(demoPath);

/** What the panel builds from the steps below, as the spec file holds it. */
const SPEC = {
  version: 1,
  text: "final-assistant",
  // The sum: the verifiers then change advantages (the default, auto, multiplies the demo's 0/1
  // reward, and these two verifiers fail only rollouts the reward fails already).
  loggedReward: "keep",
  verifiers: [
    { kind: "format", name: "format", enabled: true, weight: 1, pattern: "#W\\d{7}", flags: "" },
    {
      kind: "exact-match",
      name: "exact_match",
      enabled: true,
      weight: 1,
      field: "order_id",
      pattern: "#(W\\d{7})",
      flags: "",
      normalize: { trim: true, ignoreCase: false, collapseWhitespace: false, numeric: false },
    },
  ],
};

interface Outcome {
  value: number | null;
  pass: boolean | null;
}
interface VerifiedDoc {
  verifiers: { tally: { name: string; pass: number; fail: number }[] };
  groups: {
    id: string;
    rollouts: {
      id: string;
      reward: number;
      advantage: number;
      verifiers: Record<string, Outcome>;
    }[];
  }[];
}

async function cliVerified(specPath: string): Promise<VerifiedDoc> {
  let out = "";
  const code = await main(["analyze", demoPath, "--verifiers", specPath, "--json"], {
    stdout: (t) => (out += t),
    stderr: () => undefined,
    cwd: dir,
  });
  expect(code).toBe(0);
  return JSON.parse(out) as VerifiedDoc;
}

const close = (shown: (string | null)[], want: number[]) => {
  expect(shown).toHaveLength(want.length);
  want.forEach((w, i) => expect(Math.abs(Number(shown[i]) - w)).toBeLessThan(1e-4));
};

describe("verifiers", () => {
  test("a format gate and an exact match: components, totals and advantages as the CLI; a judge in calibration", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const specPath = join(dir, "expected-spec.json");
    writeFileSync(specPath, JSON.stringify(SPEC));
    const verified = await cliVerified(specPath);
    const plain = await cliAnalyze(demoPath);
    // A group whose advantages the verifiers change (they disagree with the logged reward there).
    const group = verified.groups.find((g) =>
      g.rollouts.some(
        (r, i) =>
          Math.abs(r.advantage - plain.find((p) => p.id === g.id)!.rollouts[i]!.advantage) > 0.05,
      ),
    )!;
    const before = plain.find((p) => p.id === group.id)!;
    const ids = group.rollouts.map((r) => r.id);

    await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(group.id)}`);
    const view = new GroupView(page);
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    expect(await view.columnIds()).toEqual(ids);
    close(
      await view.metric("metric-advantage"),
      before.rollouts.map((r) => r.advantage),
    );

    const verifiers = new Verifiers(page);
    await verifiers.open();
    await verifiers.loggedReward("keep");
    await verifiers.addFormatGate("#W\\d{7}", "");
    await verifiers.addExactMatch("order_id", "#(W\\d{7})");
    await verifiers.apply();
    expect(await verifiers.tally()).toEqual(
      verified.verifiers.tally.map((t) => ({ name: t.name, pass: t.pass, fail: t.fail })),
    );
    // The exported spec is the one the CLI just read.
    const exported = join(dir, "reward-spec.json");
    await verifiers.exportSpec(exported);
    expect(JSON.parse(readFileSync(exported, "utf8"))).toEqual(SPEC);

    // The new components in each column, and the totals and advantages they give.
    const components = await page
      .getByTestId("rollout-column")
      .evaluateAll((columns) =>
        columns.map((c) =>
          [...c.querySelectorAll('[aria-label="Reward components"] li')].map(
            (li) => li.textContent ?? "",
          ),
        ),
      );
    group.rollouts.forEach((r, i) => {
      expect(components[i]).toContain(`format ${r.verifiers.format!.value}`);
      expect(components[i]).toContain(`exact_match ${r.verifiers.exact_match!.value}`);
    });
    close(
      await view.metric("metric-reward"),
      group.rollouts.map((r) => r.reward),
    );
    close(
      await view.metric("metric-advantage"),
      group.rollouts.map((r) => r.advantage),
    );

    // What dropping each part would do, beside the advantage the columns show.
    const drop = await verifiers.dropTable();
    expect(drop.parts).toEqual(["format", "exact_match", "logged reward"]);
    expect(drop.rows.map((r) => r[0])).toEqual(ids);
    close(
      drop.rows.map((r) => r[1]),
      group.rollouts.map((r) => r.advantage),
    );

    // Label every rollout of the group by its task outcome (the logged reward).
    const annotate = new Annotate(page);
    for (const r of before.rollouts) await annotate.label(r.id, r.passed ? "pass" : "fail").click();
    expect(await annotate.labels(ids)).toEqual(
      before.rollouts.map((r) => (r.passed ? "pass" : "fail")),
    );

    // The exact match as a judge: all labelled rows in train, so its TPR and TNR are shown.
    const calibration = new Calibration(page);
    await calibration.open();
    await page.getByTestId("calibration.split.train").fill("100");
    await page.getByTestId("calibration.split.dev").fill("0");
    await page.getByTestId("calibration.split.test").fill("0");
    await page.getByTestId("calibration.split.apply").click();
    await calibration.judge.selectOption("verifier:exact_match");
    const pass = (r: (typeof group.rollouts)[number]) => r.verifiers.exact_match!.pass;
    const human = before.rollouts.map((r) => r.passed);
    const count = (h: boolean, j: boolean) =>
      group.rollouts.filter((r, i) => human[i] === h && pass(r) === j).length;
    const expected = {
      tp: count(true, true),
      tn: count(false, false),
      fp: count(false, true),
      fn: count(true, false),
    };
    expect(expected.tp + expected.fn).toBeGreaterThan(0);
    expect(expected.tn + expected.fp).toBeGreaterThan(0);
    await page
      .locator(`[data-testid="calibration.confusion.train"][data-tp="${expected.tp}"]`)
      .waitFor();
    expect(await calibration.confusion("train")).toEqual(expected);
    const tpr = await calibration.metric("train", "tpr");
    const tnr = await calibration.metric("train", "tnr");
    expect(Number(tpr.value)).toBeCloseTo(expected.tp / (expected.tp + expected.fn), 3);
    expect(Number(tnr.value)).toBeCloseTo(expected.tn / (expected.tn + expected.fp), 3);

    expect(pageErrors.list).toEqual([]);
  });

  test("a saved spec is applied again after a reload, before the panel opens; import checks a spec", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const groupId = "cancellation-001";
    await page.goto(`${baseUrl}/?demo&group=${groupId}`);
    const verifiers = new Verifiers(page);
    await verifiers.open();
    await verifiers.addExactMatch("order_id", "#(W\\d{7})");
    await verifiers.apply();
    await page.reload();
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    await page
      .locator('[data-testid="rollout-column"] [aria-label="Reward components"] li', {
        hasText: "exact_match",
      })
      .first()
      .waitFor();
    expect(await page.getByTestId("verifiers").count()).toBe(0);

    // Import: a spec with a problem is refused, naming the field; a valid one is applied.
    await verifiers.open();
    const bad = join(dir, "bad-spec.json");
    writeFileSync(
      bad,
      JSON.stringify({ version: 1, verifiers: [{ kind: "format", name: "f", pattern: "(" }] }),
    );
    await page.getByTestId("verifiers.import").setInputFiles(bad);
    const message = page.getByTestId("verifiers.message");
    await message.waitFor();
    expect(await message.textContent()).toMatch(/^bad-spec\.json: verifiers\[0\]\.pattern: /);
    const good = join(dir, "good-spec.json");
    writeFileSync(good, JSON.stringify(SPEC));
    await page.getByTestId("verifiers.import").setInputFiles(good);
    // It makes some rollouts pass differently (it keeps the logged reward): asked first.
    expect((await verifiers.flipCheck()).state).toBe("pending");
    await page.getByTestId("verifiers.flips.confirm").click();
    await page.getByTestId("verifiers.message").getByText("Applied good-spec.json.").waitFor();
    await page.locator('[data-testid="verifiers.tally.row"][data-name="format"]').waitFor();
    expect((await verifiers.tally()).map((t) => t.name)).toEqual(["format", "exact_match"]);
    expect(pageErrors.list).toEqual([]);
  });
});

describe("the rubric judge as a verifier", () => {
  test("run the judge first, then its verdicts as a component in the columns and in calibration", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    // The CLI's view: the heuristic grader's gar run, read by a judge verifier of mode gar.
    const annotationsPath = join(dir, "heuristic-annotations.json");
    const quiet = { stdout: () => undefined, stderr: () => undefined, cwd: dir };
    expect(
      await main(
        ["judge", demoPath, "--mode", "gar", "--heuristic", "--out", annotationsPath],
        quiet,
      ),
    ).toBe(0);
    const judgeSpec = {
      version: 1,
      text: "final-assistant",
      loggedReward: "auto",
      verifiers: [
        {
          kind: "judge",
          name: "judge",
          enabled: true,
          weight: 1,
          mode: "gar",
          run: null,
          passThreshold: 0.5,
          rubricPassScore: 0.5,
        },
      ],
    };
    const specPath = join(dir, "judge-spec.json");
    writeFileSync(specPath, JSON.stringify(judgeSpec));
    let out = "";
    expect(
      await main(
        ["analyze", demoPath, "--annotations", annotationsPath, "--verifiers", specPath, "--json"],
        { ...quiet, stdout: (t) => (out += t) },
      ),
    ).toBe(0);
    const verified = JSON.parse(out) as VerifiedDoc;
    // A group the judge passes some rollouts of and fails others (a hack, or a failing rollout).
    const group = verified.groups.find((g) => {
      const values = g.rollouts.map((r) => r.verifiers.judge!.pass);
      return values.includes(true) && values.includes(false);
    })!;
    expect(group).toBeDefined();
    const plain = (await cliAnalyze(demoPath)).find((g) => g.id === group.id)!;
    const ids = group.rollouts.map((r) => r.id);

    await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(group.id)}`);
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    const verifiers = new Verifiers(page);
    await verifiers.open();
    const item = await verifiers.addJudge("gar");
    // No gar run yet: the verifier says so and the spec cannot be applied.
    await item.getByTestId("verifiers.judge-missing").waitFor();
    expect(await item.getByTestId("verifiers.item-problems").innerText()).toContain(
      "run the judge first",
    );
    expect(await page.getByTestId("verifiers.apply").isDisabled()).toBe(true);

    // The offline heuristic grader in the Judge panel makes a gar run.
    await page.getByTestId("panel.toggle.judge").click();
    const judgePanel = page.getByTestId("panel.judge");
    await judgePanel.getByTestId("judge.run.heuristic").click();
    await judgePanel.getByTestId("judge.result").waitFor();
    await item.getByTestId("verifiers.judge-missing").waitFor({ state: "detached" });
    const choices = await item
      .getByTestId("verifiers.judge-run")
      .locator("option")
      .allTextContents();
    expect(choices).toHaveLength(2);
    expect(choices[0]).toMatch(/^newest gar run: heuristic grader · .* · gar-/);
    await verifiers.apply();
    const judgeTally = verified.verifiers.tally.find((t) => t.name === "judge")!;
    expect(await verifiers.tally()).toEqual([
      { name: "judge", pass: judgeTally.pass, fail: judgeTally.fail },
    ]);

    // Its component in each column: the CLI's values, and the totals they give.
    const components = await page
      .getByTestId("rollout-column")
      .evaluateAll((columns) =>
        columns.map((c) =>
          [...c.querySelectorAll('[aria-label="Reward components"] li')].map(
            (li) => li.textContent ?? "",
          ),
        ),
      );
    group.rollouts.forEach((r, i) => {
      const value = r.verifiers.judge!.value;
      if (value !== null) expect(components[i]).toContain(`judge ${value}`);
    });
    const view = new GroupView(page);
    expect(await view.columnIds()).toEqual(ids);
    close(
      await view.metric("metric-reward"),
      group.rollouts.map((r) => r.reward),
    );

    // Labels by the logged reward; the judge verifier is a calibration judge like the others.
    const annotate = new Annotate(page);
    for (const r of plain.rollouts) await annotate.label(r.id, r.passed ? "pass" : "fail").click();
    const calibration = new Calibration(page);
    await calibration.open();
    await page.getByTestId("calibration.split.train").fill("100");
    await page.getByTestId("calibration.split.dev").fill("0");
    await page.getByTestId("calibration.split.test").fill("0");
    await page.getByTestId("calibration.split.apply").click();
    await calibration.judge.selectOption("verifier:judge");
    const human = plain.rollouts.map((r) => r.passed);
    const count = (h: boolean, j: boolean) =>
      group.rollouts.filter((r, i) => human[i] === h && r.verifiers.judge!.pass === j).length;
    const expected = {
      tp: count(true, true),
      tn: count(false, false),
      fp: count(false, true),
      fn: count(true, false),
    };
    await page
      .locator(`[data-testid="calibration.confusion.train"][data-tp="${expected.tp}"]`)
      .waitFor();
    expect(await calibration.confusion("train")).toEqual(expected);

    // The Exports panel writes the augmented rollouts; the CLI, given the exported spec and
    // annotations (which hold the studio's judge run), writes the same bytes.
    const exportsPanel = new Exports(page);
    await exportsPanel.open();
    expect(await exportsPanel.command("rewards")).toContain("--verifiers reward-spec.json");
    const rewards = await exportsPanel.download("rewards", dir, "studio-rewards.jsonl");
    const annotations = await exportsPanel.download("annotations", dir, "studio-annotations.json");
    const spec = join(dir, "studio-reward-spec.json");
    await verifiers.exportSpec(spec);
    let cliOut = "";
    let cliErr = "";
    const code = await main(
      [
        "export",
        demoPath,
        "--annotations",
        annotations.path,
        "--kind",
        "rewards",
        "--out",
        "-",
        "--verifiers",
        spec,
      ],
      { stdout: (t) => (cliOut += t), stderr: (t) => (cliErr += t), cwd: dir },
    );
    expect(code, cliErr).toBe(0);
    expect(cliOut).toBe(readFileSync(rewards.path, "utf8"));
    expect(pageErrors.list).toEqual([]);
  });
});
