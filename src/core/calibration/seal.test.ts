import { describe, expect, it } from "vitest";
import { judgeAccountingEmpty } from "../judge/accounting.ts";
import type { JudgeRun } from "../judge/runs.ts";
import {
  calibrationCanUnseal,
  calibrationFractionsText,
  calibrationLogReruns,
  calibrationRerunWarnings,
  calibrationResplit,
  calibrationUnseal,
} from "./seal.ts";
import { CALIBRATION_STATE_EMPTY, type CalibrationState } from "./state.ts";

const judge = { id: "gar-1", label: "gar · m · prompt v1 · t", promptVersion: "v1" };

function run(id: string, startedAt: string, promptVersion: string): JudgeRun {
  return {
    info: {
      id,
      mode: "gar",
      source: "llm",
      model: "m",
      baseUrl: "",
      promptVersion,
      startedAt,
      finishedAt: startedAt,
      accounting: judgeAccountingEmpty(),
      costUsd: null,
      cancelled: false,
    },
    groups: {},
  };
}

describe("unsealing the test split", () => {
  it("records the time, the judge and its prompt version, and logs it", () => {
    const state = calibrationUnseal(CALIBRATION_STATE_EMPTY, judge, "2026-02-01T10:00:00.000Z");
    expect(state.unsealed).toEqual({
      at: "2026-02-01T10:00:00.000Z",
      judge: "gar-1",
      promptVersion: "v1",
    });
    expect(state.log).toEqual([
      {
        at: "2026-02-01T10:00:00.000Z",
        event: "unseal",
        message: "test split unsealed against gar · m · prompt v1 · t [gar-1], prompt version v1",
      },
    ]);
    expect(CALIBRATION_STATE_EMPTY.unsealed).toBeNull();
  });

  it("happens only once", () => {
    const state = calibrationUnseal(CALIBRATION_STATE_EMPTY, judge, "2026-02-01T10:00:00.000Z");
    expect(() => calibrationUnseal(state, judge, "2026-02-02T10:00:00.000Z")).toThrow(
      /already unsealed at 2026-02-01T10:00:00.000Z/,
    );
  });

  it("a source without a prompt version (the reward) logs 'none'", () => {
    const state = calibrationUnseal(
      CALIBRATION_STATE_EMPTY,
      { id: "reward", label: "reward (pass threshold 0.5)", promptVersion: "" },
      "t",
    );
    expect(state.log[0]!.message).toMatch(/prompt version none$/);
  });

  it("is offered only when the source gives verdicts on rows of the test split", () => {
    expect(calibrationCanUnseal(true, 3)).toBe(true);
    expect(calibrationCanUnseal(true, 0)).toBe(false);
    expect(calibrationCanUnseal(false, 3)).toBe(false);
  });
});

describe("re-runs after the unseal", () => {
  const unsealed = calibrationUnseal(CALIBRATION_STATE_EMPTY, judge, "2026-02-01T10:00:00.000Z");
  const before = run("gar-1", "2026-02-01T09:00:00.000Z", "v1");
  const later = run("gar-2", "2026-02-01T11:00:00.000Z", "v1");
  const otherPrompt = run("gar-0", "2026-01-01T09:00:00.000Z", "v0");
  const both = run("gar-3", "2026-02-03T00:00:00Z", "v2");

  it("nothing while sealed", () => {
    expect(calibrationRerunWarnings(CALIBRATION_STATE_EMPTY, [later, both])).toEqual([]);
  });

  it("warns on a run started after the unseal or with another prompt version", () => {
    const warnings = calibrationRerunWarnings(unsealed, [before, later, otherPrompt, both]);
    expect(warnings.map((w) => [w.runId, w.reasons])).toEqual([
      ["gar-2", ["after-unseal"]],
      ["gar-0", ["prompt-version"]],
      ["gar-3", ["after-unseal", "prompt-version"]],
    ]);
    expect(warnings[0]!.message).toBe(
      "judge run [gar-2] started 2026-02-01T11:00:00.000Z, after the unseal at 2026-02-01T10:00:00.000Z: its test metrics are not a held-out result",
    );
    expect(warnings[1]!.message).toMatch(/prompt version v0 differs from the unsealed v1/);
  });

  it("a start time that does not parse is judged by the prompt version alone", () => {
    expect(calibrationRerunWarnings(unsealed, [run("x", "whenever", "v1")])).toEqual([]);
  });

  it("logs each warned run once, at the time given", () => {
    const warnings = calibrationRerunWarnings(unsealed, [later, both]);
    const logged = calibrationLogReruns(unsealed, warnings, "2026-02-04T00:00:00.000Z");
    expect(logged.log.map((e) => [e.event, e.at])).toEqual([
      ["unseal", "2026-02-01T10:00:00.000Z"],
      ["rerun-after-unseal", "2026-02-04T00:00:00.000Z"],
      ["rerun-after-unseal", "2026-02-04T00:00:00.000Z"],
    ]);
    expect(calibrationLogReruns(logged, warnings, "2026-02-05T00:00:00.000Z")).toBe(logged);
    expect(calibrationLogReruns(unsealed, [], "t")).toBe(unsealed);
  });
});

describe("re-splitting", () => {
  const assigned: CalibrationState = {
    ...CALIBRATION_STATE_EMPTY,
    assignments: { a: "train", b: "dev", c: "test" },
  };

  it("clears the assignments and logs the change", () => {
    const next = calibrationResplit(
      assigned,
      { seed: 7, fractions: { train: 0.2, dev: 0.4, test: 0.4 } },
      "2026-03-01T00:00:00.000Z",
    );
    expect(next.seed).toBe(7);
    expect(next.assignments).toEqual({});
    expect(next.log).toEqual([
      {
        at: "2026-03-01T00:00:00.000Z",
        event: "resplit",
        message:
          "re-split with seed 7 and train/dev/test 20/40/40% (was seed 0, 15/42.5/42.5%; 3 assignment(s) cleared)",
      },
    ]);
  });

  it("changes nothing when nothing changes", () => {
    expect(
      calibrationResplit(assigned, { seed: 0, fractions: { ...assigned.fractions } }, "t"),
    ).toBe(assigned);
  });

  it("refuses once unsealed, bad shares and a fractional seed", () => {
    const open = calibrationUnseal(assigned, judge, "t");
    expect(() => calibrationResplit(open, { seed: 1, fractions: open.fractions }, "t")).toThrow(
      /unsealed/,
    );
    expect(() =>
      calibrationResplit(
        assigned,
        { seed: 1, fractions: { train: 0.5, dev: 0.5, test: 0.5 } },
        "t",
      ),
    ).toThrow(/sum to 1/);
    expect(() =>
      calibrationResplit(assigned, { seed: 1.5, fractions: assigned.fractions }, "t"),
    ).toThrow(/integer/);
  });

  it("writes the shares as percentages", () => {
    expect(calibrationFractionsText({ train: 0.15, dev: 0.425, test: 0.425 })).toBe("15/42.5/42.5");
  });
});
