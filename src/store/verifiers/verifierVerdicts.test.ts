/**
 * Covers: the applied verifiers as calibration judges. Each evaluated verifier gives a verdict per
 * scored rollout (none where it does not apply), a version that follows its configuration, and a
 * source of kind "verifier" whose calibration report counts its agreement with the human labels.
 * A judge verifier is such a source too: its report (TPR, TNR, kappa, the sealed test split) is
 * the report of the judge run it reads, and its version changes when a newer run is read.
 */
import { describe, expect, it } from "vitest";
import {
  calibrationHumanSource,
  calibrationJudgeRunSource,
  calibrationReport,
  CALIBRATION_STATE_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  JUDGE_VERIFIER_DEFAULT,
  type JudgeRun,
  verifierApply,
  verifierVersion,
  VERIFIER_SPEC_EMPTY,
  type RolloutGroup,
  type VerifierSpec,
} from "../../core/index.ts";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { verifierCalibrationSources, verifierVerdictSets } from "./verifierVerdicts.ts";
import { testJudgeRun } from "../../test/judgeRunFixtures.ts";

const spec: VerifierSpec = {
  ...VERIFIER_SPEC_EMPTY,
  verifiers: [
    {
      kind: "exact-match",
      name: "right_order",
      enabled: true,
      weight: 1,
      field: "order_id",
      pattern: "#(W\\d+)",
      flags: "",
      normalize: { trim: true, ignoreCase: false, collapseWhitespace: false, numeric: false },
    },
  ],
};

const group: RolloutGroup = {
  id: "g",
  rollouts: [
    ["I cancelled #W1.", "W1"],
    ["I cancelled #W2.", "W1"],
    ["Which order?", "W1"],
    ["I cancelled #W1.", undefined],
  ].map(([completion, order], i) =>
    testRollout({
      id: `g/${i}`,
      groupId: "g",
      index: i,
      completion: completion!,
      meta: order === undefined ? {} : { order_id: order },
    }),
  ),
};

describe("verifier verdicts", () => {
  const applied = verifierApply([group], spec);
  if (!applied.ok) throw new Error("rejected");
  const byRollout = new Map(group.rollouts.map((r, i) => [r.id, applied.run.outcomes[i]!]));
  const sets = verifierVerdictSets(spec, { names: applied.run.names, byRollout, judgeRuns: [] });

  it("gives a verdict per scored rollout, none where the verifier does not apply", () => {
    expect(sets).toHaveLength(1);
    expect(sets[0]!.name).toBe("right_order");
    expect(sets[0]!.kind).toBe("exact match");
    expect(sets[0]!.version).toBe(verifierVersion(spec, "right_order"));
    expect([...sets[0]!.verdicts]).toEqual([
      ["g/0", "pass"],
      ["g/1", "fail"],
      ["g/2", "fail"],
    ]);
  });

  it("is a calibration source of kind verifier, with the set's verdicts and no ranking", () => {
    const [source] = verifierCalibrationSources(sets);
    expect(source!.id).toBe("verifier:right_order");
    expect(source!.kind).toBe("verifier");
    expect(source!.promptVersion).toBe(sets[0]!.version);
    expect(source!.label).toMatch(/^verifier right_order · exact match · v[0-9a-f]{8}$/);
    expect([...source!.verdicts(group, [0, 0, 0, 0])]).toEqual([...sets[0]!.verdicts]);
    expect(source!.ranking(group, [0, 0, 0, 0])).toBeNull();
  });

  it("its report counts agreement with the human labels", () => {
    const source = verifierCalibrationSources(sets)[0]!;
    const labels = { "g/0": "pass", "g/1": "pass", "g/2": "fail", "g/3": "pass" } as const;
    const human = calibrationHumanSource({
      annotator: "",
      groups: { g: { ...GROUP_ANNOTATION_EMPTY, labels } },
    });
    const report = calibrationReport({
      groups: [{ group, rewards: [0, 0, 0, 0] }],
      human,
      source,
      state: { ...CALIBRATION_STATE_EMPTY, fractions: { train: 1, dev: 0, test: 0 } },
    });
    // g/3 has no verdict (no ground truth); the other three: one TP, one FN, one TN.
    expect(report.counts.rows).toBe(3);
    expect(report.counts.unjudged).toBe(1);
    expect(report.train.n).toBe(3);
    expect(report.train.confusion).toMatchObject({ tp: 1, fn: 1, tn: 1, fp: 0 });
    expect(report.train.metrics.tpr.value).toBe(0.5);
    expect(report.train.metrics.tnr.value).toBe(1);
  });
});

describe("a judge verifier as a calibration judge", () => {
  /** Twelve rollouts: rewards alternate 1, 1, 0; a rubric run scores the passes. */
  const big: RolloutGroup = {
    id: "h",
    rollouts: Array.from({ length: 12 }, (_, i) =>
      testRollout({ id: `h/${i}`, groupId: "h", index: i, reward: i % 3 === 2 ? 0 : 1 }),
    ),
  };
  const rubricRun = (id: string, low: ReadonlySet<number>): JudgeRun =>
    testJudgeRun(
      { id, mode: "rubric" },
      {
        h: {
          scores: Object.fromEntries(
            big.rollouts
              .filter((r) => r.reward === 1)
              .map((r) => [r.id, { solution: low.has(r.index) ? 0.2 : 0.9, behavior: 1 }]),
          ),
        },
      },
    );
  const run = rubricRun("rubric-1", new Set([0, 4, 7]));
  const judgeSpec: VerifierSpec = {
    ...VERIFIER_SPEC_EMPTY,
    verifiers: [
      { kind: "judge", name: "rubric", enabled: true, weight: 1, ...JUDGE_VERIFIER_DEFAULT },
    ],
  };
  const setsFor = (runs: readonly JudgeRun[]) => {
    const applied = verifierApply([big], judgeSpec, runs);
    if (!applied.ok) throw new Error(applied.problems.join("; "));
    const byRollout = new Map(big.rollouts.map((r, i) => [r.id, applied.run.outcomes[i]!]));
    return verifierVerdictSets(judgeSpec, {
      names: applied.run.names,
      byRollout,
      judgeRuns: runs,
    });
  };

  it("gets the run's TPR, TNR, kappa and the same sealed split as the run itself", () => {
    const sets = setsFor([run]);
    expect(sets[0]!.kind).toBe("rubric judge");
    const source = verifierCalibrationSources(sets)[0]!;
    expect(source.kind).toBe("verifier");
    const labels = Object.fromEntries(
      big.rollouts.map((r) => [r.id, r.index % 2 === 0 ? "pass" : "fail"] as const),
    );
    const human = calibrationHumanSource({
      annotator: "",
      groups: { h: { ...GROUP_ANNOTATION_EMPTY, labels } },
    });
    const rewards = big.rollouts.map((r) => r.reward!);
    const state = { ...CALIBRATION_STATE_EMPTY, fractions: { train: 0.5, dev: 0.25, test: 0.25 } };
    const input = { groups: [{ group: big, rewards }], human, state };
    const mine = calibrationReport({ ...input, source });
    const theirs = calibrationReport({ ...input, source: calibrationJudgeRunSource(run) });
    expect(mine.sealed).toBe(true);
    expect(mine.test).toBeNull();
    expect(mine.testRows).toBe(theirs.testRows);
    expect(mine.testRows).toBeGreaterThan(0);
    expect(mine.state.assignments).toEqual(theirs.state.assignments);
    for (const split of ["train", "dev"] as const) {
      expect(mine[split].confusion).toEqual(theirs[split].confusion);
      for (const metric of ["tpr", "tnr", "kappa"] as const)
        expect(mine[split].metrics[metric].value).toEqual(theirs[split].metrics[metric].value);
    }
    expect(mine.train.n + mine.dev.n + mine.testRows).toBe(12);
    expect(mine.disagreements).toEqual(theirs.disagreements);
    // Unsealed, the test split's numbers are the run's as well.
    const open = { ...state, unsealed: { at: "t", judge: source.id, promptVersion: "v" } };
    const mineOpen = calibrationReport({ ...input, state: open, source });
    const theirsOpen = calibrationReport({
      ...input,
      state: open,
      source: calibrationJudgeRunSource(run),
    });
    expect(mineOpen.test?.confusion).toEqual(theirsOpen.test?.confusion);
  });

  it("a newer run of its mode is a new version, so calibration sees a new judge", () => {
    const before = setsFor([run])[0]!;
    const after = setsFor([run, rubricRun("rubric-2", new Set([1]))])[0]!;
    expect(after.version).not.toBe(before.version);
    expect(after.verdicts).not.toEqual(before.verdicts);
  });
});
