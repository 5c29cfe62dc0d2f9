import { describe, expect, it } from "vitest";
import {
  CALIBRATION_STATE_EMPTY,
  calibrationFormulas,
  calibrationHumanSource,
  calibrationSourceFromRollouts,
  calibrationReport,
  calibrationUnseal,
  GROUP_ANNOTATION_EMPTY,
  type CalibrationRankRow,
  type JudgeMode,
  type JudgeRun,
  type RolloutGroup,
} from "../../../core/index.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import {
  droppedText,
  intervalText,
  smallSampleText,
  nextRankSort,
  parseSplitForm,
  NO_SOURCE,
  pickSource,
  prepareCorrected,
  prepareDisagreements,
  prepareGroupInputs,
  prepareRankRows,
  prepareSeal,
  prepareSources,
  prepareSplitTables,
  splitFormFrom,
} from "./prepareCalibration.ts";
import { testJudgeRun } from "../../../test/judgeRunFixtures.ts";

function run(id: string, mode: JudgeMode, startedAt = "2026-01-01T00:00:00.000Z"): JudgeRun {
  return testJudgeRun(
    { id, mode, promptVersion: "heuristic-v1", startedAt, finishedAt: startedAt },
    { g: { tiers: [["g/0"]], hacks: ["g/1"] } },
  );
}

const group: RolloutGroup = {
  id: "g",
  rollouts: [0, 1, 2, 3].map((i) =>
    testRollout({ id: `g/${i}`, groupId: "g", index: i, reward: i < 2 ? 1 : 0 }),
  ),
};

describe("sources", () => {
  const runs = [run("gar-a", "gar"), run("cluster-b", "cluster")];

  it("lists the runs newest first, then the reward", () => {
    const choices = prepareSources(runs, 0.5);
    expect(choices.map((c) => [c.value, c.hasVerdicts])).toEqual([
      ["run:cluster-b", false],
      ["run:gar-a", true],
      ["reward", true],
    ]);
    expect(choices[1]!.source.label).toMatch(/^gar · heuristic grader · prompt heuristic-v1/);
  });

  it("picks nothing by default (no run, not even the reward); keeps a valid choice", () => {
    const choices = prepareSources(runs, 0.5);
    expect(pickSource(choices, null)).toBeNull();
    expect(pickSource(choices, "run:gone")).toBeNull();
    expect(pickSource(choices, "run:cluster-b")!.value).toBe("run:cluster-b");
    expect(pickSource(prepareSources([], 0.5), null)).toBeNull();
    expect(pickSource(prepareSources([], 0.5), "reward")!.value).toBe("reward");
    // While none is chosen the report compares nothing.
    expect(NO_SOURCE.verdicts(group, [1, 1, 0, 0]).size).toBe(0);
  });

  it("lists the applied verifiers after the reward; nothing is the default", () => {
    const verifier = calibrationSourceFromRollouts({
      id: "verifier:format",
      label: "verifier format",
      kind: "verifier",
      promptVersion: "v1",
      verdict: () => "pass",
    });
    const choices = prepareSources(runs, 0.5, [verifier]);
    expect(choices.map((c) => c.value)).toEqual([
      "run:cluster-b",
      "run:gar-a",
      "reward",
      "verifier:format",
    ]);
    expect(pickSource(prepareSources([], 0.5, [verifier]), null)).toBeNull();
    expect(pickSource(choices, "verifier:format")!.source).toBe(verifier);
  });

  it("the pass threshold in force reaches the judge's verdicts", () => {
    const strict = pickSource(prepareSources(runs, 2), "run:gar-a")!.source;
    // Every reward is below 2: every rollout is a fail whatever the judge ranked.
    expect([...strict.verdicts(group, [1, 1, 0, 0]).values()]).toEqual([
      "fail",
      "fail",
      "fail",
      "fail",
    ]);
  });
});

describe("group inputs", () => {
  it("follows the dataset's order, counts unparsed groups, weights the rewards", () => {
    const other: RolloutGroup = {
      id: "h",
      rollouts: [testRollout({ id: "h/0", groupId: "h", reward: null, rewards: { a: 1, b: 2 } })],
    };
    const parsed = new Map([
      ["h", other],
      ["g", group],
    ]);
    const { inputs, unparsed } = prepareGroupInputs(
      [{ id: "g" }, { id: "x" }, { id: "h" }],
      parsed,
      { a: 2 },
    );
    expect(inputs.map((i) => i.group.id)).toEqual(["g", "h"]);
    expect(unparsed).toBe(1);
    expect(inputs[1]!.rewards).toEqual([2 * 1 + 2]);
  });
});

describe("tables", () => {
  const human = calibrationHumanSource({
    annotator: "",
    groups: {
      g: {
        ...GROUP_ANNOTATION_EMPTY,
        labels: { "g/0": "pass", "g/1": "pass", "g/2": "fail", "g/3": "pass" },
      },
    },
  });
  const state = {
    ...CALIBRATION_STATE_EMPTY,
    assignments: { "g/0": "dev", "g/1": "dev", "g/2": "test", "g/3": "train" } as const,
  };
  const source = pickSource(prepareSources([run("gar-a", "gar")], 0.5), "run:gar-a")!.source;
  const input = { groups: [{ group, rewards: [1, 1, 0, 0] }], human, source, state };
  const options = { samples: 100, level: 0.95 };
  const report = calibrationReport(input, options);
  const formulas = calibrationFormulas(state, options);

  it("train and dev while sealed, with reasons for undefined metrics", () => {
    const tables = prepareSplitTables(report, formulas);
    expect(tables.map((t) => t.split)).toEqual(["train", "dev"]);
    const dev = tables[1]!;
    // g/0 judged pass (ranked), g/1 a hack (fail); both human pass.
    expect([dev.tp, dev.fn, dev.fp, dev.tn]).toEqual([1, 1, 0, 0]);
    const tnr = dev.cells.find((c) => c.name === "tnr")!;
    expect(tnr.text).toBe("– (undefined: no human fail)");
    expect(tnr.value).toBe("");
    const tpr = dev.cells.find((c) => c.name === "tpr")!;
    expect(tpr.value).toBe("0.5");
    expect(tpr.text).toMatch(/^0\.500 \[/);
    expect(tpr.title).toContain("TPR = TP / (TP + FN)");
    // Two rows: the Wilson interval, named in the text and the tooltip, and the small-n warning.
    expect(tpr.method).toBe("wilson");
    expect(tpr.text).toMatch(/ Wilson$/);
    expect(tpr.title).toContain("Wilson score interval");
    expect(tpr.title).toContain("(here 2 rows)");
    expect(dev.smallN).toBe("n = 2: too few labels for an interval (at least 10 recommended)");
    const kappa = dev.cells.find((c) => c.name === "kappa")!;
    expect(kappa.method).not.toBe("wilson");
    expect(kappa.title).toContain("100 resamples");
  });

  it("test once unsealed; the seal view tells which source it was unsealed against", () => {
    const open = calibrationUnseal(state, source, "2026-02-01T00:00:00.000Z");
    const unsealed = calibrationReport({ ...input, state: open }, options);
    expect(prepareSplitTables(unsealed, formulas).map((t) => t.split)).toEqual([
      "train",
      "dev",
      "test",
    ]);
    const view = prepareSeal(open, unsealed, source, []);
    expect(view.sealed).toBe(false);
    expect(view.unsealed).toBe(
      "Unsealed 2026-02-01T00:00:00.000Z against [gar-a], prompt version heuristic-v1.",
    );
    expect(view.otherSource).toBeNull();
    expect(view.log).toHaveLength(1);
    const reward = pickSource(prepareSources([], 0.5), "reward")!.source;
    expect(prepareSeal(open, unsealed, reward, []).otherSource).toMatch(
      /not \[gar-a\] that the split was unsealed against/,
    );
    expect(prepareSeal(state, report, source, []).sealed).toBe(true);
    expect(prepareSeal(state, report, source, []).testRows).toBe(1);
  });

  it("the corrected rate says why it is missing", () => {
    // dev has no human fail: TNR is undefined, so is the correction.
    expect(prepareCorrected(report).note).toMatch(/^Undefined/);
    expect(prepareCorrected(report).corrected).toBe("–");
    expect(prepareCorrected(report).observed).toBe("0.250 (4 judged)");
  });

  it("disagreements: none open, clamped when the list shrinks", () => {
    const d = prepareDisagreements(report, null);
    expect(d.items.map((i) => [i.rolloutId, i.human, i.judge, i.split])).toEqual([
      ["g/1", "pass", "fail", "dev"],
      ["g/3", "pass", "fail", "train"],
    ]);
    expect(d.current).toBeNull();
    expect(prepareDisagreements(report, 5).current).toBe(1);
    expect(prepareDisagreements(report, -2).current).toBe(0);
  });
});

describe("rank rows", () => {
  const rows: CalibrationRankRow[] = [
    { groupId: "a", n: 2, pairs: 1, tau: 1, rho: 1 },
    { groupId: "b", n: 4, pairs: 6, tau: NaN, rho: NaN },
    { groupId: "c", n: 3, pairs: 3, tau: -0.5, rho: -0.4 },
    { groupId: "d", n: 3, pairs: 3, tau: 1, rho: 0.9 },
  ];
  const order = (key: "group" | "n" | "tau" | "rho", descending: boolean) =>
    prepareRankRows(rows, { key, descending }).map((r) => r.groupId);

  it("sorts by each column, undefined last either way, ties in group order", () => {
    expect(order("group", false)).toEqual(["a", "b", "c", "d"]);
    expect(order("group", true)).toEqual(["d", "c", "b", "a"]);
    expect(order("tau", true)).toEqual(["a", "d", "c", "b"]);
    expect(order("tau", false)).toEqual(["c", "a", "d", "b"]);
    expect(order("n", true)).toEqual(["b", "c", "d", "a"]);
    expect(prepareRankRows(rows, { key: "group", descending: false })[1]!.tau).toBe("–");
  });

  it("a new column starts descending, the same one flips", () => {
    expect(nextRankSort({ key: "group", descending: false }, "tau")).toEqual({
      key: "tau",
      descending: true,
    });
    expect(nextRankSort({ key: "tau", descending: true }, "tau")).toEqual({
      key: "tau",
      descending: false,
    });
    expect(nextRankSort({ key: "tau", descending: true }, "group").descending).toBe(false);
  });
});

describe("split form", () => {
  it("shows the defaults as 15/42.5/42.5 and reads them back to fractions summing to 1", () => {
    const form = splitFormFrom(CALIBRATION_STATE_EMPTY);
    expect(form).toEqual({ seed: "0", train: "15", dev: "42.5", test: "42.5" });
    const parsed = parseSplitForm(form);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.fractions.train).toBeCloseTo(0.15, 12);
      expect(parsed.fractions.train + parsed.fractions.dev + parsed.fractions.test).toBeCloseTo(
        1,
        12,
      );
    }
  });

  it("names what is wrong", () => {
    const ok = splitFormFrom(CALIBRATION_STATE_EMPTY);
    expect(parseSplitForm({ ...ok, seed: "1.5" })).toMatchObject({ ok: false });
    expect(parseSplitForm({ ...ok, dev: "-1", test: "86" })).toEqual({
      ok: false,
      error: 'The dev share must be a percentage of at least 0, got "-1".',
    });
    expect(parseSplitForm({ ...ok, test: "40" })).toEqual({
      ok: false,
      error: "The shares must add up to 100%, they add up to 97.5%.",
    });
  });
});

describe("interval text", () => {
  it("estimate and interval, the estimate alone, or a dash", () => {
    const b = "bootstrap" as const;
    expect(intervalText({ value: 0.5, lower: 0.25, upper: 0.75, method: b })).toBe(
      "0.500 [0.250, 0.750]",
    );
    expect(intervalText({ value: 0.5, lower: NaN, upper: NaN, method: b })).toBe("0.500");
    expect(intervalText({ value: NaN, lower: NaN, upper: NaN, method: b })).toBe("–");
  });
  it("names a Wilson interval, and says when the bootstrap gave none", () => {
    expect(intervalText({ value: 1, lower: 0.3424, upper: 1, method: "wilson" })).toBe(
      "1.000 [0.342, 1.000] Wilson",
    );
    expect(intervalText({ value: 1, lower: NaN, upper: NaN, method: "none" })).toBe(
      "1.000 (no interval: every resample agrees)",
    );
  });
  it("warns below the minimum n and counts dropped resamples", () => {
    expect(smallSampleText(2)).toBe(
      "n = 2: too few labels for an interval (at least 10 recommended)",
    );
    expect(smallSampleText(0)).toBe("");
    expect(smallSampleText(10)).toBe("");
    expect(droppedText(516, 1000)).toBe("516 of 1000 resamples undefined, dropped");
    expect(droppedText(0, 1000)).toBe("");
  });
});
