/**
 * The check shown before a spec is applied (issue 13, finding 1): the headline, the rule, the
 * passes per group with what the flips do to a finished human ranking, and flips that go against
 * a human label.
 */
import { describe, expect, it } from "vitest";
import type { GroupAnnotation, VerifierFlipReport } from "../../../core/index.ts";
import { prepareFlipView } from "./prepareVerifiers.ts";

const annotation = (over: Partial<GroupAnnotation>): GroupAnnotation => ({
  ranking: [],
  hacks: [],
  labels: {},
  notes: "",
  reviewed: false,
  hackDetails: {},
  rolloutNotes: {},
  pairwise: null,
  ...over,
});

const report: VerifierFlipReport = {
  rollouts: 10,
  passesBefore: 4,
  passesAfter: 5,
  flips: [
    { groupId: "a", rolloutId: "a/0", before: 0, after: 1, toPass: true, why: "w0" },
    { groupId: "a", rolloutId: "a/3", before: 0, after: 1, toPass: true, why: "w3" },
    { groupId: "b", rolloutId: "b/1", before: 1, after: 0, toPass: false, why: "w1" },
  ],
  groups: [
    { groupId: "a", n: 6, passesBefore: 3, passesAfter: 5, toPass: 2, toFail: 0 },
    { groupId: "b", n: 4, passesBefore: 1, passesAfter: 0, toPass: 0, toFail: 1 },
  ],
};
const rule = {
  rule: "keep" as const,
  auto: false,
  reason: "the total is the logged reward plus the verifiers' components.",
};

describe("prepareFlipView", () => {
  it("says who passes differently, per group and per rollout, against labels and rankings", () => {
    const view = prepareFlipView(report, rule, {
      a: annotation({
        ranking: [["a/1"], ["a/2", "a/4"]],
        labels: { "a/0": "fail", "a/3": "pass" },
      }),
      b: annotation({ ranking: [["b/1"]], labels: { "b/1": "pass" } }),
    });
    expect(view.none).toBe(false);
    expect(view.headline).toBe(
      "This spec changes who passes: 3 rollouts (2 fail → pass, 1 pass → fail) in 2 groups; passes 4 → 5 of 10.",
    );
    expect(view.rule).toBe(rule.reason);
    expect(view.groups).toEqual([
      {
        id: "a",
        passes: "3 → 5 of 6",
        ranking: "your ranking leaves out 2 new passes: no GAR values until they are ranked",
      },
      {
        id: "b",
        passes: "1 → 0 of 4",
        ranking: "1 ranked rollout becomes a fail and leaves the ranking",
      },
    ]);
    expect(view.rows.map((r) => [r.id, r.change, r.label, r.againstLabel])).toEqual([
      ["a/0", "fail → pass", "fail", true],
      ["a/3", "fail → pass", "pass", false],
      ["b/1", "pass → fail", "pass", true],
    ]);
    expect(view.againstLabels).toBe(2);
  });

  it("without annotations: no ranking notes, no labels", () => {
    const view = prepareFlipView(report, rule, {});
    expect(view.groups.map((g) => g.ranking)).toEqual(["", ""]);
    expect(view.rows.every((r) => r.label === null && !r.againstLabel)).toBe(true);
  });

  it("no flip: nothing to confirm", () => {
    const view = prepareFlipView(
      { rollouts: 10, passesBefore: 4, passesAfter: 4, flips: [], groups: [] },
      rule,
      {},
    );
    expect(view.none).toBe(true);
    expect(view.headline).toBe("No rollout changes pass/fail: 4 of 10 pass before and after.");
  });
});
