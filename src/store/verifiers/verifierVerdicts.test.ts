/**
 * Covers: the applied verifiers as calibration judges. Each evaluated verifier gives a verdict per
 * scored rollout (none where it does not apply), a version that follows its configuration, and a
 * source of kind "verifier" whose calibration report counts its agreement with the human labels.
 */
import { describe, expect, it } from "vitest";
import {
  calibrationHumanSource,
  calibrationReport,
  CALIBRATION_STATE_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  verifierApply,
  verifierVersion,
  VERIFIER_SPEC_EMPTY,
  type RolloutGroup,
  type VerifierSpec,
} from "../../core/index.ts";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { verifierCalibrationSources, verifierVerdictSets } from "./verifierVerdicts.ts";

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
  const sets = verifierVerdictSets(spec, { names: applied.run.names, byRollout });

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
