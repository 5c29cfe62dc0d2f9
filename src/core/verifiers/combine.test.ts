/**
 * The logged-reward rules (multiply, keep, drop, auto), who passes differently once a spec is
 * applied, and the README's exact-match example in miniature: with the default rule a pass that
 * cites a decoy order becomes a fail and no fail becomes a pass; with keep a fail becomes a pass,
 * and the check says so and why.
 */
import { describe, expect, it } from "vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { ANALYSIS_DEFAULTS } from "../analysis/analyze.ts";
import type { Rollout, RolloutGroup } from "../types.ts";
import { verifierApply, verifierLayout } from "./apply.ts";
import {
  verifierCombine,
  verifierFlipLines,
  verifierFlips,
  verifierLoggedRewardResolve,
  type LoggedRewardRule,
} from "./combine.ts";
import { componentDropAdvantages, DROP_LOGGED_REWARD } from "./drop.ts";
import { verifierRolloutFieldAt } from "./fields.ts";
import { ANSWER_NORMALIZATION_DEFAULT, VERIFIER_SPEC_EMPTY, type VerifierSpec } from "./spec.ts";

function group(id: string, rollouts: Partial<Rollout>[]): RolloutGroup {
  return {
    id,
    rollouts: rollouts.map((r, i) =>
      testRollout({ id: `${id}/${i}`, groupId: id, index: i, ...r }),
    ),
  };
}

/** The demo's shape: order W1 is the ground truth; rollouts cite it, a decoy, or nothing. */
const orders = group("refund", [
  { reward: 1, completion: "Refunded order #W1000001.", meta: { order_id: "W1000001" } },
  { reward: 1, completion: "Refunded order #W9999999.", meta: { order_id: "W1000001" } },
  { reward: 0, completion: "I could not refund #W1000001.", meta: { order_id: "W1000001" } },
  { reward: 0, completion: "Sorry.", meta: { order_id: "W1000001" } },
]);

const exactOrder = (loggedReward: LoggedRewardRule): VerifierSpec => ({
  ...VERIFIER_SPEC_EMPTY,
  loggedReward,
  verifiers: [
    {
      kind: "exact-match",
      name: "exact_match",
      enabled: true,
      weight: 1,
      field: "order_id",
      pattern: "#(W\\d{7})",
      flags: "",
      normalize: ANSWER_NORMALIZATION_DEFAULT,
    },
  ],
});

function applied(groups: RolloutGroup[], spec: VerifierSpec) {
  const out = verifierApply(groups, spec);
  if (!out.ok) throw new Error(out.problems.join("; "));
  return out;
}

const flipsOf = (groups: RolloutGroup[], spec: VerifierSpec) => {
  const out = applied(groups, spec);
  return verifierFlips(
    groups,
    out.groups,
    ANALYSIS_DEFAULTS,
    verifierLayout(spec, out.resolution.rule).emitted,
    out.resolution.rule,
  );
};

describe("verifierCombine", () => {
  it("multiplies, adds or drops the logged reward; skips what does not apply", () => {
    expect(verifierCombine("multiply", 1, [1, 0])).toBe(0);
    expect(verifierCombine("multiply", 1, [1, null])).toBe(1);
    expect(verifierCombine("multiply", 0.5, [2])).toBe(1);
    expect(verifierCombine("keep", 1, [1, 0])).toBe(2);
    expect(verifierCombine("drop", 1, [1, 0])).toBe(1);
    // Nothing applies: the logged reward stands (drop: nothing).
    expect(verifierCombine("multiply", 1, [null])).toBe(1);
    expect(verifierCombine("keep", 1, [])).toBe(1);
    expect(verifierCombine("drop", 1, [null])).toBeNull();
    // No logged reward: the verifiers' product or sum.
    expect(verifierCombine("multiply", null, [1, 1])).toBe(1);
    expect(verifierCombine("keep", null, [1, 1])).toBe(2);
    expect(verifierCombine("keep", null, [])).toBeNull();
  });
});

describe("verifierLoggedRewardResolve", () => {
  it("auto multiplies a 0/1 reward and adds to any other", () => {
    expect(verifierLoggedRewardResolve("auto", [orders])).toEqual({
      rule: "multiply",
      auto: true,
      reason:
        "auto: every logged reward is 0 or 1, so the total is the logged reward times the verifiers' components (a 0/1 reward stays 0/1 under 0/1 verifiers).",
    });
    const partial = group("p", [{ reward: 1 }, { reward: 0.5 }]);
    expect(verifierLoggedRewardResolve("auto", [orders, partial])).toEqual({
      rule: "keep",
      auto: true,
      reason:
        "auto: p/1's logged reward is 0.5, not 0 or 1, so the total is the logged reward plus the verifiers' components.",
    });
    const none = group("n", [{ reward: null }]);
    expect(verifierLoggedRewardResolve("auto", [none]).rule).toBe("keep");
  });

  it("an explicit rule is itself", () => {
    for (const rule of ["multiply", "keep", "drop"] as const)
      expect(verifierLoggedRewardResolve(rule, [orders])).toMatchObject({ rule, auto: false });
  });

  it("is the spec default, and the parser's", () => {
    expect(VERIFIER_SPEC_EMPTY.loggedReward).toBe("auto");
  });
});

describe("the README example in miniature", () => {
  it("default: the pass citing a decoy order fails, and no fail passes", () => {
    const out = applied([orders], exactOrder("auto"));
    expect(out.resolution.rule).toBe("multiply");
    expect(out.groups[0]!.rollouts.map((r) => r.reward)).toEqual([1, 0, 0, 0]);
    const report = flipsOf([orders], exactOrder("auto"));
    expect(report).toEqual({
      rollouts: 4,
      passesBefore: 2,
      passesAfter: 1,
      flips: [
        {
          groupId: "refund",
          rolloutId: "refund/1",
          before: 1,
          after: 0,
          toPass: false,
          why: "the total goes from 1 to 0 (exact_match 0 multiplied in) and the pass threshold is 0.5",
        },
      ],
      groups: [{ groupId: "refund", n: 4, passesBefore: 2, passesAfter: 1, toPass: 0, toFail: 1 }],
    });
  });

  it("keep: a fail that cites the right order becomes a pass, and the check says why", () => {
    const out = applied([orders], exactOrder("keep"));
    expect(out.groups[0]!.rollouts.map((r) => r.reward)).toEqual([2, 1, 1, 0]);
    const report = flipsOf([orders], exactOrder("keep"));
    expect(report.flips).toEqual([
      {
        groupId: "refund",
        rolloutId: "refund/2",
        before: 0,
        after: 1,
        toPass: true,
        why: "the total goes from 0 to 1 (exact_match 1 added) and the pass threshold is 0.5",
      },
    ]);
    expect(verifierFlipLines(report)).toEqual([
      "1 rollout change pass/fail (1 fail -> pass, 0 pass -> fail): passes 2 -> 3 of 4",
      "  refund: passes 2 -> 3 of 4",
      "  refund/2: fail -> pass: the total goes from 0 to 1 (exact_match 1 added) and the pass threshold is 0.5",
    ]);
  });

  it("no flip: one line that says so", () => {
    const same = group("s", [
      { reward: 1, completion: "#W1000001", meta: { order_id: "W1000001" } },
      { reward: 0, completion: "no", meta: { order_id: "W1000001" } },
    ]);
    expect(verifierFlipLines(flipsOf([same], exactOrder("auto")))).toEqual([
      "no rollout changes pass/fail: 1 of 2 pass before and after",
    ]);
  });

  it("the flip check follows the pass threshold and the reward weights in force", () => {
    const spec = exactOrder("keep");
    const out = applied([orders], spec);
    const flips = (passThreshold: number, rewardWeights: Record<string, number> | null) =>
      verifierFlips([orders], out.groups, { passThreshold, rewardWeights }, ["exact_match"], "keep")
        .flips.length;
    expect(flips(0.5, null)).toBe(1);
    // Against 1.5 nothing passed before (rewards 1, 1, 0, 0); after, refund/0 (total 2) does.
    expect(flips(1.5, null)).toBe(1);
    expect(flips(2.5, null)).toBe(0);
  });
});

describe("dropping a part under multiply", () => {
  it("uses the logged rewards it is given: without the verifier the file's reward, without the reward the verifier", () => {
    const spec = exactOrder("multiply");
    const out = applied([orders], spec);
    const logged = new Map(orders.rollouts.map((r) => [r.id, r.reward]));
    const settings = { ...ANALYSIS_DEFAULTS, scale: "none" as const };
    const table = componentDropAdvantages(out.groups, settings, {
      added: ["exact_match"],
      loggedReward: "multiply",
      logged,
    });
    expect(table.parts).toEqual(["exact_match", DROP_LOGGED_REWARD]);
    // With: [1, 0, 0, 0], mean 0.25. Without exact_match: [1, 1, 0, 0]. Without the reward: [1, 0, 1, 0].
    expect(table.advantages[0]).toEqual([0.75, -0.25, -0.25, -0.25]);
    expect(table.without[0]![0]).toEqual([0.5, 0.5, -0.5, -0.5]);
    expect(table.without[1]![0]).toEqual([0.5, -0.5, 0.5, -0.5]);
  });
});

describe("verifierRolloutFieldAt", () => {
  it("reads the metadata first, then the rollout's own answer", () => {
    const r = testRollout({ answer: "42", meta: { gts: "7", nested: { answer: "x" } } });
    expect(verifierRolloutFieldAt(r, "answer")).toBe("42");
    expect(verifierRolloutFieldAt(r, "gts")).toBe("7");
    expect(verifierRolloutFieldAt(r, "nested.answer")).toBe("x");
    expect(
      verifierRolloutFieldAt(testRollout({ answer: "42", meta: { answer: "meta" } }), "answer"),
    ).toBe("meta");
    expect(verifierRolloutFieldAt(testRollout({ answer: null }), "answer")).toBeUndefined();
    expect(verifierRolloutFieldAt(r, "other")).toBeUndefined();
  });
});
