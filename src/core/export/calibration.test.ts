import { describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS } from "../analysis/analyze.ts";
import { ANNOTATIONS_EMPTY, GROUP_ANNOTATION_EMPTY } from "../analysis/annotations.ts";
import { calibrationHumanSource } from "../calibration/human.ts";
import { calibrationReport } from "../calibration/report.ts";
import { calibrationRewardSource } from "../calibration/sources.ts";
import { calibrationAssign } from "../calibration/state.ts";
import {
  FIXTURE_ANNOTATIONS,
  FIXTURE_GROUPS,
  fixtureGroup,
  fixtureRun,
} from "./__fixtures__/exportFixture.ts";
import { exportCalibration } from "./calibration.ts";
import { ExportError } from "./text.ts";

const ids = (rows: readonly { rollout_id: string }[]) => rows.map((r) => r.rollout_id);

describe("calibration export", () => {
  it("compares no judge run unless one is named (null and none alike)", () => {
    const byDefault = exportCalibration(
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      null,
    );
    expect(byDefault.run).toBeNull();
    expect(byDefault.rows.every((r) => r.judge_run_id === null && r.judge_verdict === null)).toBe(
      true,
    );
    const none = exportCalibration(FIXTURE_GROUPS, FIXTURE_ANNOTATIONS, ANALYSIS_DEFAULTS, "none");
    expect(ids(none.rows)).toEqual(ids(byDefault.rows));
  });

  it("has one row per rollout with a human label or a verdict of the newest verdict run", () => {
    const { rows, run } = exportCalibration(
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      "newest",
    );
    // The newest run that gives verdicts is the rubric run.
    expect(run?.info.id).toBe("rubric-1");
    expect(ids(rows)).toEqual([
      // refund-17: every rollout has a label or a rubric verdict (failing rollouts are "fail").
      "refund-17/0",
      "refund-17/1",
      "refund-17/2",
      "refund-17/3",
      // refund-22: the labels only (the rubric run did not score it).
      "refund-22/0",
      "refund-22/2",
      "cancel-3/2",
      // address-9: verdicts only.
      "address-9/0",
      "address-9/1",
      "address-9/2",
      "address-9/3",
      "lookup-4/0",
    ]);
    const row = (id: string) => rows.find((r) => r.rollout_id === id)!;
    // s x b = 0.4 < 0.5: the judge fails it; the human passed it.
    expect(row("refund-17/0")).toMatchObject({ human_label: "pass", judge_verdict: "fail" });
    // The rubric request of refund-17/1 failed: no verdict, the human label stays.
    expect(row("refund-17/1")).toMatchObject({ human_label: "fail", judge_verdict: null });
    expect(row("refund-17/2")).toMatchObject({ human_label: null, judge_verdict: "pass" });
    expect(row("address-9/1")).toMatchObject({ human_label: null, judge_verdict: "fail" });
    expect(row("refund-22/2")).toMatchObject({ human_label: "defer", judge_verdict: null });
    for (const r of rows)
      expect(r).toMatchObject({
        judge_run_id: "rubric-1",
        judge_source: "llm",
        judge_prompt_version: "rubric-v1-0123abcd",
      });
    expect(row("refund-17/0").judge_rubric_version).toBe(2);
    expect(row("address-9/0").judge_rubric_version).toBe(1);
    expect(row("cancel-3/2").judge_rubric_version).toBeNull();
  });

  it("in the text form, gives the prompt and the completion as judges read them", () => {
    const { rows } = exportCalibration(
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      "none",
      "text",
    );
    const chat = rows.find((r) => r.rollout_id === "refund-22/0")!;
    expect(chat.prompt).toBe("system: You are a support agent.\n\nuser: Refund order 22.");
    expect(chat.completion).toBe("Refunded order 22, attempt 0.");
    const all = exportCalibration(
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      { ...ANALYSIS_DEFAULTS, completionRule: "all-assistant" },
      "none",
      "text",
    );
    expect(all.rows.find((r) => r.rollout_id === "refund-22/0")!.completion).toBe(
      "Refunded order 22, attempt 0.",
    );
    expect(rows.find((r) => r.rollout_id === "refund-17/0")).toMatchObject({
      prompt: "Task refund-17",
      completion: "answer 0 of refund-17",
    });
  });

  it("without a judge: labelled rows only, judge fields null", () => {
    const { rows, run } = exportCalibration(
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      "none",
    );
    expect(run).toBeNull();
    expect(ids(rows)).toEqual([
      "refund-17/0",
      "refund-17/1",
      "refund-17/3",
      "refund-22/0",
      "refund-22/2",
      "cancel-3/2",
      "lookup-4/0",
    ]);
    expect(
      rows.every(
        (r) => r.judge_verdict === null && r.judge_run_id === null && r.judge_source === null,
      ),
    ).toBe(true);
  });

  it("a chosen gar run gives its verdicts, labelled as the heuristic's", () => {
    const { rows } = exportCalibration(
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      "gar-1",
    );
    const row = (id: string) => rows.find((r) => r.rollout_id === id)!;
    expect(row("refund-17/1")).toMatchObject({ judge_verdict: "pass", judge_source: "heuristic" });
    // The judge's error on refund-22 gives no verdicts there.
    expect(row("refund-22/0").judge_verdict).toBeNull();
    expect(row("address-9/1").judge_verdict).toBe("fail");
    expect(() =>
      exportCalibration(FIXTURE_GROUPS, FIXTURE_ANNOTATIONS, ANALYSIS_DEFAULTS, "x"),
    ).toThrow(ExportError);
    const clusters = { ...ANNOTATIONS_EMPTY, judgeRuns: [fixtureRun("c", "cluster", {})] };
    expect(() => exportCalibration(FIXTURE_GROUPS, clusters, ANALYSIS_DEFAULTS, "c")).toThrow(
      /cluster run/,
    );
    // A newest run that gives no verdicts is passed over when none is named.
    expect(
      exportCalibration(
        FIXTURE_GROUPS,
        {
          ...FIXTURE_ANNOTATIONS,
          judgeRuns: [...FIXTURE_ANNOTATIONS.judgeRuns, fixtureRun("c", "cluster", {})],
        },
        ANALYSIS_DEFAULTS,
        "newest",
      ).run?.info.id,
    ).toBe("rubric-1");
  });
});

describe("calibration export: splits, sealing, rubric versions and the pass threshold", () => {
  it("splits the labelled rows as calibrationAssign does, keeping earlier splits, and returns the state", () => {
    const { rows, calibration } = exportCalibration(
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      "newest",
    );
    const row = (id: string) => rows.find((r) => r.rollout_id === id)!;
    // Kept: assigned before, whatever the stratification would say now (a deferred row included).
    expect(row("refund-17/0").split).toBe("test");
    expect(row("refund-22/2").split).toBe("dev");
    // The pass/fail-labelled rows, stratified by label: the same as calibrationAssign on them.
    const labelled = [
      { rolloutId: "refund-17/0", label: "pass" },
      { rolloutId: "refund-17/1", label: "fail" },
      { rolloutId: "refund-17/3", label: "fail" },
      { rolloutId: "refund-22/0", label: "pass" },
      { rolloutId: "cancel-3/2", label: "fail" },
      { rolloutId: "lookup-4/0", label: "fail" },
    ];
    const expected = calibrationAssign(FIXTURE_ANNOTATIONS.calibration, labelled);
    for (const { rolloutId } of labelled)
      expect(row(rolloutId).split).toBe(expected.splits.get(rolloutId));
    expect(calibration).toEqual(expected.state);
    // Unlabelled rows are not split.
    expect(row("address-9/0").split).toBeNull();
    // Exporting again from the returned state changes nothing.
    const again = exportCalibration(
      FIXTURE_GROUPS,
      { ...FIXTURE_ANNOTATIONS, calibration },
      ANALYSIS_DEFAULTS,
      "newest",
    );
    expect(again.rows).toEqual(rows);
    expect(again.calibration).toBe(calibration);
  });

  it("gives every labelled rollout the split the calibration view records", () => {
    const { calibration } = exportCalibration(
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      "newest",
    );
    const view = calibrationReport(
      {
        groups: FIXTURE_GROUPS.map((group) => ({
          group,
          rewards: group.rollouts.map((r) => r.reward ?? NaN),
        })),
        human: calibrationHumanSource(FIXTURE_ANNOTATIONS),
        source: calibrationRewardSource(0.5),
        state: FIXTURE_ANNOTATIONS.calibration,
      },
      { samples: 10, level: 0.95 },
    );
    expect(calibration).toEqual(view.state);
  });

  it("keeps test rows and their human labels, marked sealed until the test split is unsealed", () => {
    const { rows } = exportCalibration(
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      "newest",
    );
    const test = rows.filter((r) => r.split === "test");
    expect(test.length).toBeGreaterThan(0);
    expect(test.every((r) => r.sealed && r.human_label !== null)).toBe(true);
    expect(rows.filter((r) => r.split !== "test").every((r) => !r.sealed)).toBe(true);
    const unsealed = {
      ...FIXTURE_ANNOTATIONS,
      calibration: {
        ...FIXTURE_ANNOTATIONS.calibration,
        unsealed: { at: "2026-12-01T11:00:00.000Z", judge: "rubric-1", promptVersion: "v" },
      },
    };
    expect(
      exportCalibration(FIXTURE_GROUPS, unsealed, ANALYSIS_DEFAULTS, "newest").rows.some(
        (r) => r.sealed,
      ),
    ).toBe(false);
  });

  it("gives the rubric version of each label and the task's current version", () => {
    const { rows } = exportCalibration(
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      "newest",
    );
    const row = (id: string) => rows.find((r) => r.rollout_id === id)!;
    expect(row("refund-17/0")).toMatchObject({ rubric_version: 1, rubric_version_current: 2 });
    expect(row("refund-17/1")).toMatchObject({ rubric_version: 2, rubric_version_current: 2 });
    expect(row("refund-17/3")).toMatchObject({ rubric_version: null, rubric_version_current: 2 });
    expect(row("address-9/0")).toMatchObject({ rubric_version: null, rubric_version_current: 1 });
    expect(row("lookup-4/0")).toMatchObject({ rubric_version: null, rubric_version_current: null });
  });

  it("uses the settings' pass threshold for the judge's verdicts", () => {
    const groups = [fixtureGroup("g", [0.6, 0.2])];
    const annotations = {
      ...ANNOTATIONS_EMPTY,
      groups: { g: { ...GROUP_ANNOTATION_EMPTY, labels: { "g/0": "pass" as const } } },
      judgeRuns: [fixtureRun("r", "gar", { g: { tiers: [["g/0"]] } })],
    };
    expect(
      exportCalibration(groups, annotations, ANALYSIS_DEFAULTS, "newest").rows.map(
        (r) => r.judge_verdict,
      ),
    ).toEqual(["pass", "fail"]);
    // At 0.7 g/0 fails: the gar verdict of a failing rollout is "fail".
    expect(
      exportCalibration(
        groups,
        annotations,
        { ...ANALYSIS_DEFAULTS, passThreshold: 0.7 },
        "newest",
      ).rows.map((r) => r.judge_verdict),
    ).toEqual(["fail", "fail"]);
  });
});
