import { describe, expect, it } from "vitest";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
  type GroupAnnotation,
  type HumanLabel,
} from "../analysis/annotations.ts";
import { judgeAccountingEmpty } from "../judge/accounting.ts";
import type { JudgeRun } from "../judge/runs.ts";
import {
  annotationsWithCalibration,
  calibrationAssignLabels,
  calibrationLabelRows,
} from "./records.ts";
import { calibrationUnseal } from "./seal.ts";
import { calibrationAssign, CALIBRATION_STATE_EMPTY } from "./state.ts";

function labelled(labels: Record<string, HumanLabel>): GroupAnnotation {
  return { ...GROUP_ANNOTATION_EMPTY, labels };
}

const NOW = "2026-03-01T00:00:00.000Z";

describe("calibration records", () => {
  it("takes every pass and fail label as a row, never a deferred one", () => {
    const rows = calibrationLabelRows({
      g1: labelled({ a: "pass", b: "defer" }),
      g2: labelled({ c: "fail" }),
    });
    expect(rows).toEqual([
      { rolloutId: "a", label: "pass" },
      { rolloutId: "c", label: "fail" },
    ]);
  });

  it("gives each new label a split at once and never moves one already drawn", () => {
    const groups: Record<string, GroupAnnotation> = {};
    let state = CALIBRATION_STATE_EMPTY;
    for (let i = 0; i < 40; i++) {
      groups[`g${i % 5}`] = labelled({
        ...(groups[`g${i % 5}`]?.labels ?? {}),
        [`r${i}`]: i % 3 === 0 ? "fail" : "pass",
      });
      const before = state.assignments;
      state = calibrationAssignLabels(state, groups);
      expect(Object.keys(state.assignments)).toHaveLength(i + 1);
      for (const [id, split] of Object.entries(before)) expect(state.assignments[id]).toBe(split);
    }
    // Labelled one at a time, as calibrationAssign places them one at a time.
    let direct = CALIBRATION_STATE_EMPTY;
    for (let i = 0; i < 40; i++)
      direct = calibrationAssign(direct, [
        ...Object.keys(direct.assignments).map((rolloutId) => ({
          rolloutId,
          label: Number(rolloutId.slice(1)) % 3 === 0 ? "fail" : "pass",
        })),
        { rolloutId: `r${i}`, label: i % 3 === 0 ? "fail" : "pass" },
      ]).state;
    expect(state.assignments).toEqual(direct.assignments);
    expect(calibrationAssignLabels(state, groups)).toBe(state);
  });

  it("logs a judge run started after the unseal once, and leaves a document with nothing new alone", () => {
    const unsealed = calibrationUnseal(
      CALIBRATION_STATE_EMPTY,
      { id: "j", label: "j", promptVersion: "v1" },
      "2026-02-01T00:00:00.000Z",
    );
    const run: JudgeRun = {
      info: {
        id: "late",
        mode: "gar",
        source: "llm",
        model: "m",
        baseUrl: "",
        promptVersion: "v1",
        startedAt: "2026-02-02T00:00:00.000Z",
        finishedAt: "2026-02-02T00:00:00.000Z",
        accounting: judgeAccountingEmpty(),
        costUsd: null,
        cancelled: false,
      },
      groups: {},
    };
    const doc: Annotations = { ...ANNOTATIONS_EMPTY, calibration: unsealed, judgeRuns: [run] };
    const once = annotationsWithCalibration(doc, NOW);
    const reruns = once.calibration.log.filter((e) => e.event === "rerun-after-unseal");
    expect(reruns).toHaveLength(1);
    expect(reruns[0]!.at).toBe(NOW);
    expect(annotationsWithCalibration(once, "2026-04-01T00:00:00.000Z")).toBe(once);
    expect(annotationsWithCalibration(ANNOTATIONS_EMPTY, NOW)).toBe(ANNOTATIONS_EMPTY);
  });
});
