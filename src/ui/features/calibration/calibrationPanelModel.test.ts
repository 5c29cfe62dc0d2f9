import { describe, expect, it } from "vitest";
import {
  CALIBRATION_STATE_EMPTY,
  calibrationFormulas,
  calibrationHumanSource,
  calibrationReport,
  calibrationUnseal,
  GROUP_ANNOTATION_EMPTY,
  type CalibrationState,
  type RolloutGroup,
} from "../../../core/index.ts";
import { testJudgeRun } from "../../../test/judgeRunFixtures.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import {
  correctedTitles,
  prepareCalibrationPanel,
  revealNote,
  splitSettingsKey,
} from "./calibrationPanelModel.ts";
import { pickSource, prepareSources, prepareSplitTables } from "./prepareCalibration.ts";

// Three passes, all labelled pass: the run ranks h/0 and calls h/1 and h/2 hacks (fails).
const h: RolloutGroup = {
  id: "h",
  rollouts: [0, 1, 2].map((i) => testRollout({ id: `h/${i}`, groupId: "h", index: i, reward: 1 })),
};
const at = "2026-03-01T00:00:00.000Z";
const runs = [
  testJudgeRun(
    { id: "gar-h", mode: "gar", promptVersion: "v1", startedAt: at, finishedAt: at },
    { h: { tiers: [["h/0"]], hacks: ["h/1", "h/2"] } },
  ),
  testJudgeRun(
    { id: "cluster-h", mode: "cluster", promptVersion: "v1", startedAt: at, finishedAt: at },
    {},
  ),
];
const human = calibrationHumanSource({
  annotator: "",
  groups: {
    h: { ...GROUP_ANNOTATION_EMPTY, labels: { "h/0": "pass", "h/1": "pass", "h/2": "pass" } },
  },
});
const sealed: CalibrationState = {
  ...CALIBRATION_STATE_EMPTY,
  assignments: { "h/0": "train", "h/1": "dev", "h/2": "test" },
};
const options = { samples: 50, level: 0.9 };
const choices = prepareSources(runs, 0.5);
const gar = pickSource(choices, "run:gar-h")!;
const cluster = pickSource(choices, "run:cluster-h")!;

function panel(state: CalibrationState, choice = gar, walk: number | null = null) {
  const report = calibrationReport(
    { groups: [{ group: h, rewards: [1, 1, 1] }], human, source: choice.source, state },
    options,
  );
  const tables = prepareSplitTables(report, calibrationFormulas(state, options));
  return prepareCalibrationPanel(report, state, tables, choice, [], walk);
}

describe("calibration panel", () => {
  it("places train and dev, and test only once unsealed", () => {
    const view = panel(sealed);
    expect([view.tables.train?.split, view.tables.dev?.split, view.tables.test]).toEqual([
      "train",
      "dev",
      undefined,
    ]);
    const open = panel(calibrationUnseal(sealed, gar.source, at));
    expect(open.tables.test?.split).toBe("test");
  });

  it("offers the unseal for a source with verdicts on test rows only", () => {
    expect(panel(sealed).canUnseal).toBe(true);
    expect(panel(sealed, cluster).canUnseal).toBe(false);
    const noTest = { ...sealed, assignments: { ...sealed.assignments, "h/2": "dev" } } as const;
    expect(panel(noTest).canUnseal).toBe(false);
  });

  it("walks the disagreements, clamped into the list", () => {
    // Sealed: h/2 (test) is hidden; h/1 (dev) is the one disagreement shown.
    const view = panel(sealed);
    expect(view.disagreements.map((d) => d.rolloutId)).toEqual(["h/1"]);
    expect(view.walking).toBeNull();
    expect(panel(sealed, gar, 4).walking).toEqual({ item: view.disagreements[0], index: 0 });
    expect(panel(calibrationUnseal(sealed, gar.source, at), gar, 1).walking?.item.rolloutId).toBe(
      "h/2",
    );
  });

  it("hands each part its formulas, and keys the split form by the state it shows", () => {
    const f = calibrationFormulas(sealed, options);
    expect(correctedTitles(f)).toEqual({
      observed: f.observed,
      corrected: f.corrected,
      interval: f.correctedInterval,
      wilson: f.correctedWilson,
    });
    const key = splitSettingsKey(sealed);
    const relabelled: CalibrationState = { ...sealed, assignments: {} };
    expect(splitSettingsKey(relabelled)).toBe(key);
    expect(splitSettingsKey({ ...sealed, seed: sealed.seed + 1 })).not.toBe(key);
    expect(splitSettingsKey(calibrationUnseal(sealed, gar.source, at))).not.toBe(key);
  });

  it("says where to find a rollout it could not show", () => {
    const item = { groupId: "h", rolloutId: "h/2" };
    expect(revealNote(item, true)).toBe("");
    expect(revealNote(item, false)).toBe("Open the Rollouts tab of group h to see h/2.");
  });
});
