/**
 * Covers: the Verifiers panel's decisions (verifiersPanelModel.ts): the fields a draft may read,
 * the status line, the drop table's group and rule, and what a preview leads to.
 */
import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  VERIFIER_SPEC_EMPTY,
  type RolloutGroup,
  type VerifierFlipReport,
} from "../../../core/index.ts";
import { VERIFIER_RESULTS_EMPTY } from "../../../store/slices/verifierSlice.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import {
  verifierApplyDecision,
  verifierDraftFields,
  verifierDropView,
  verifierStatusText,
} from "./verifiersPanelModel.ts";

const group = (id: string, metas: readonly Record<string, unknown>[], answer: string | null) => ({
  id,
  rollouts: metas.map((meta, i) =>
    testRollout({ id: `${id}/${i}`, reward: i === 0 ? 1 : 0, meta, answer }),
  ),
});

describe("verifierDraftFields", () => {
  it("offers the metadata paths of the sampled rollouts, the native answer first", () => {
    const groups = new Map<string, RolloutGroup>([
      ["a", group("a", [{ gold: "4" }, { gold: "5", level: 2 }], null)],
    ]);
    expect(verifierDraftFields(groups)).toEqual(["gold", "level"]);
    const withAnswer = new Map([["a", group("a", [{ gold: "4" }], "4")]]);
    expect(verifierDraftFields(withAnswer)).toEqual(["answer", "gold"]);
    expect(verifierDraftFields(null)).toEqual([]);
  });

  it("reads only the first rollouts' metadata", () => {
    const groups = new Map([["a", group("a", [{ first: 1 }, { second: 1 }], null)]]);
    expect(verifierDraftFields(groups, 1)).toEqual(["first"]);
  });
});

describe("verifierStatusText", () => {
  it("says what is in force for each state", () => {
    expect(verifierStatusText({ kind: "off" })).toMatch(/file's rewards/);
    expect(verifierStatusText({ kind: "running", rollouts: 1200 })).toBe(
      "Scoring 1,200 rollouts in a worker…",
    );
    expect(verifierStatusText({ kind: "done", rollouts: 5 })).toMatch(/^Applied to 5 rollouts/);
    expect(verifierStatusText({ kind: "invalid", problems: ["x"] })).toMatch(/does not fit/);
    expect(verifierStatusText({ kind: "error", message: "stopped" })).toBe("Not applied: stopped");
  });
});

describe("verifierDropView", () => {
  it("is the selected group's, and none without a selection", () => {
    const a = group("a", [{}, {}], null);
    const b = group("b", [{}, {}, {}], null);
    const spec = VERIFIER_SPEC_EMPTY;
    expect(verifierDropView([a, b], null, ANALYSIS_DEFAULTS, spec, VERIFIER_RESULTS_EMPTY)).toBe(
      null,
    );
    const view = verifierDropView([a, b], b, ANALYSIS_DEFAULTS, spec, VERIFIER_RESULTS_EMPTY);
    expect(view?.rows.map((r) => r.id)).toEqual(["b/0", "b/1", "b/2"]);
  });
});

describe("verifierApplyDecision", () => {
  const resolution = { rule: "keep" as const, auto: false, reason: "kept" };
  const report = (flips: VerifierFlipReport["flips"]): VerifierFlipReport => ({
    rollouts: 2,
    passesBefore: 1,
    passesAfter: 1 + flips.length,
    flips,
    groups: [],
  });

  it("applies a spec that does not fit (its status says why), and one that flips nobody", () => {
    expect(verifierApplyDecision({ kind: "invalid", problems: ["p"] }, {})).toEqual({
      kind: "apply-unfit",
    });
    expect(verifierApplyDecision({ kind: "ok", resolution, report: report([]) }, {}).kind).toBe(
      "apply",
    );
  });

  it("asks first when anyone would pass differently", () => {
    const flip = { groupId: "a", rolloutId: "a/1", before: 0, after: 1, toPass: true, why: "w" };
    const decision = verifierApplyDecision({ kind: "ok", resolution, report: report([flip]) }, {});
    expect(decision.kind).toBe("confirm");
    expect(decision.kind === "confirm" && decision.view.rows.map((r) => r.id)).toEqual(["a/1"]);
  });
});
