import { describe, expect, it } from "vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { GROUP_ANNOTATION_EMPTY } from "../analysis/annotations.ts";
import { judgeAccountingEmpty } from "../judge/accounting.ts";
import { JUDGE_GROUP_RESULT_EMPTY, type JudgeRun } from "../judge/runs.ts";
import type { RolloutGroup } from "../types.ts";
import { calibrationCorrectedRate } from "./agreement.ts";
import { calibrationStreamSeed } from "./bootstrap.ts";
import { calibrationHumanSource } from "./human.ts";
import { calibrationAssignRows, calibrationReport, type CalibrationGroupInput } from "./report.ts";
import { calibrationUnseal } from "./seal.ts";
import { calibrationJudgeRunSource, calibrationRewardSource } from "./sources.ts";
import { CALIBRATION_STATE_EMPTY, type CalibrationState } from "./state.ts";

function group(id: string, ids: readonly string[]): RolloutGroup {
  return { id, rollouts: ids.map((r, index) => testRollout({ id: r, groupId: id, index })) };
}

const groups: CalibrationGroupInput[] = [
  { group: group("g1", ["a", "b", "c", "d", "e", "f"]), rewards: [1, 1, 1, 0, 0, 1] },
  { group: group("g2", ["p", "q", "r", "s"]), rewards: [1, 0, 1, 0] },
];

// The judge ranks b over a, calls c a hack and leaves f unranked (no verdict); it failed on g2.
const run: JudgeRun = {
  info: {
    id: "gar-1",
    mode: "gar",
    source: "llm",
    model: "m",
    baseUrl: "",
    promptVersion: "v1",
    startedAt: "2026-01-01T00:00:00.000Z",
    finishedAt: "2026-01-01T00:01:00.000Z",
    accounting: judgeAccountingEmpty(),
    costUsd: null,
    cancelled: false,
  },
  groups: {
    g1: { ...JUDGE_GROUP_RESULT_EMPTY, tiers: [["b"], ["a"]], hacks: ["c"] },
    g2: {
      ...JUDGE_GROUP_RESULT_EMPTY,
      error: { kind: "malformed_reply", message: "not JSON", status: null },
    },
  },
};
const judge = calibrationJudgeRunSource(run);

const human = calibrationHumanSource({
  annotator: "ana",
  groups: {
    g1: {
      ...GROUP_ANNOTATION_EMPTY,
      labels: { a: "pass", b: "fail", c: "pass", d: "pass", e: "defer", f: "pass" },
      ranking: [["a"], ["b"]],
    },
    g2: { ...GROUP_ANNOTATION_EMPTY, labels: { p: "pass" } },
    gone: { ...GROUP_ANNOTATION_EMPTY, labels: { x: "pass" } },
  },
});

/** Every labelled rollout already placed, so the splits are known. */
const placed: CalibrationState = {
  ...CALIBRATION_STATE_EMPTY,
  seed: 3,
  assignments: { a: "dev", b: "dev", c: "test", d: "train", f: "dev", p: "test" },
};

const fast = { samples: 200, level: 0.9 };

describe("calibration report", () => {
  const sealed = calibrationReport({ groups, human, source: judge, state: placed }, fast);

  it("counts rows, unjudged, deferred and not-loaded labels", () => {
    // Labelled in loaded groups: a b c d f p (e deferred, x not loaded); no verdict on f and p.
    expect(sealed.counts).toEqual({ labelled: 6, rows: 4, unjudged: 2, deferred: 1, notLoaded: 1 });
    expect(sealed.state).toBe(placed);
  });

  it("metrics per split (verdicts a pass, b pass, c fail, d fail)", () => {
    // dev: a (TP), b (FP). train: d (FN).
    expect(sealed.dev.confusion).toEqual({ tp: 1, tn: 0, fp: 1, fn: 0, skipped: 0 });
    expect(sealed.dev.n).toBe(2);
    expect(sealed.dev.metrics.tpr.value).toBe(1);
    expect(sealed.dev.metrics.tnr.value).toBe(0);
    expect(sealed.dev.metrics.accuracy.value).toBe(0.5);
    // po = .5, judge passes 1, human passes .5: pe = .5, kappa = 0.
    expect(sealed.dev.metrics.kappa.value).toBe(0);
    expect(sealed.train.confusion).toEqual({ tp: 0, tn: 0, fp: 0, fn: 1, skipped: 0 });
    expect(sealed.train.metrics.tnr.value).toBeNaN();
  });

  it("keeps the test split sealed: no metrics, no disagreement, only its size", () => {
    expect(sealed.sealed).toBe(true);
    expect(sealed.test).toBeNull();
    expect(sealed.testRows).toBe(1);
    expect(sealed.disagreements).toEqual([
      { groupId: "g1", rolloutId: "b", human: "fail", judge: "pass", split: "dev" },
      { groupId: "g1", rolloutId: "d", human: "pass", judge: "fail", split: "train" },
    ]);
  });

  it("after the unseal, test has metrics and its disagreements join the list", () => {
    const state = calibrationUnseal(placed, judge, "2026-01-02T00:00:00.000Z");
    const open = calibrationReport({ groups, human, source: judge, state }, fast);
    expect(open.sealed).toBe(false);
    expect(open.test?.confusion).toEqual({ tp: 0, tn: 0, fp: 0, fn: 1, skipped: 0 });
    expect(open.disagreements.map((d) => [d.rolloutId, d.split])).toEqual([
      ["b", "dev"],
      ["c", "test"],
      ["d", "train"],
    ]);
    // Unsealing changes nothing on train and dev.
    expect(open.dev).toEqual(sealed.dev);
    expect(open.train).toEqual(sealed.train);
  });

  it("rank agreement on the rollouts both rank", () => {
    expect(sealed.ranks.groups).toEqual([{ groupId: "g1", n: 2, pairs: 1, tau: -1, rho: -1 }]);
    expect(sealed.ranks.overall).toMatchObject({ tau: -1, rho: -1, groups: 1, pairs: 1 });
  });

  it("corrects the judge's observed pass rate with dev's TPR and TNR", () => {
    // Judged: a, b pass; c, d, e fail (f unranked, g2 failed): 2 of 5.
    expect(sealed.corrected.observed).toBeCloseTo(0.4, 12);
    expect(sealed.corrected.judged).toBe(5);
    expect(sealed.corrected.devRows).toBe(2);
    const expected = calibrationCorrectedRate(
      [
        { predicted: true, truth: true },
        { predicted: true, truth: false },
      ],
      [true, true, false, false, false],
      { seed: calibrationStreamSeed(3, "corrected"), samples: 200, level: 0.9 },
    );
    expect(sealed.corrected).toEqual({ ...expected, judged: 5, devRows: 2 });
    // TPR + TNR = 1 on dev: the correction is undefined, never a made-up number.
    expect(sealed.corrected.corrected).toBeNaN();
  });

  it("places every labelled rollout of the loaded groups, once", () => {
    const fresh = calibrationReport(
      { groups, human, source: judge, state: CALIBRATION_STATE_EMPTY },
      fast,
    );
    expect(Object.keys(fresh.state.assignments).sort()).toEqual(["a", "b", "c", "d", "f", "p"]);
    const again = calibrationReport({ groups, human, source: judge, state: fresh.state }, fast);
    expect(again.state).toBe(fresh.state);
    expect(calibrationAssignRows(groups, human).map((r) => [r.rolloutId, r.label])).toEqual([
      ["a", "pass"],
      ["b", "fail"],
      ["c", "pass"],
      ["d", "pass"],
      ["f", "pass"],
      ["p", "pass"],
    ]);
  });

  it("the split does not depend on the source compared", () => {
    const byJudge = calibrationReport(
      { groups, human, source: judge, state: CALIBRATION_STATE_EMPTY },
      fast,
    );
    const byReward = calibrationReport(
      { groups, human, source: calibrationRewardSource(0.5), state: CALIBRATION_STATE_EMPTY },
      fast,
    );
    expect(byReward.state.assignments).toEqual(byJudge.state.assignments);
    // The reward gives every labelled rollout a verdict.
    expect(byReward.counts.unjudged).toBe(0);
  });

  it("is deterministic", () => {
    expect(calibrationReport({ groups, human, source: judge, state: placed }, fast)).toEqual(
      sealed,
    );
  });
});
