/**
 * Verifier components in the data: totals with the logged reward kept or dropped, length penalties
 * replacing what they wrap, and the advantages and GAR that follow from them (methods.md 3.2 vectors).
 */
import { describe, expect, it } from "vitest";
import { expectClose } from "../../test/approx.ts";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { exactMatch, formatGate } from "../../test/verifierFixtures.ts";
import { ANALYSIS_DEFAULTS, analyzeDataset } from "../analysis/analyze.ts";
import type { Rollout, RolloutGroup } from "../types.ts";
import { verifierApply } from "./apply.ts";
import { componentDropAdvantages, DROP_LOGGED_REWARD } from "./drop.ts";
import { VERIFIER_SPEC_EMPTY, type Verifier, type VerifierSpec } from "./spec.ts";

const format = formatGate();
const exact = exactMatch("exact", 1, "gold");
// These tests pin the "keep" rule (the sum); combine.test.ts covers "multiply" and "auto".
const spec = (over: Partial<VerifierSpec>, ...verifiers: Verifier[]): VerifierSpec => ({
  ...VERIFIER_SPEC_EMPTY,
  loggedReward: "keep",
  ...over,
  verifiers,
});

function group(id: string, rollouts: Partial<Rollout>[]): RolloutGroup {
  return {
    id,
    rollouts: rollouts.map((r, i) =>
      testRollout({ id: `${id}/${i}`, groupId: id, index: i, ...r }),
    ),
  };
}

const good = "<reasoning>r</reasoning><answer>42</answer>";
const wrong = "<reasoning>r</reasoning><answer>41</answer>";

function applied(groups: RolloutGroup[], s: VerifierSpec): RolloutGroup[] {
  const result = verifierApply(groups, s);
  if (!result.ok) throw new Error(result.problems.join("; "));
  return [...result.groups];
}

describe("verifierApply", () => {
  it("adds a named component per verifier; the logged reward plus them is the total", () => {
    const [g] = applied(
      [
        group("g", [
          { completion: good, reward: 0.5, rewards: { file: 0.5 }, meta: { gold: "42" } },
          { completion: wrong, reward: 0.5, rewards: { file: 0.5 }, meta: { gold: "42" } },
          { completion: "42", reward: null, rewards: {}, meta: { gold: "42" } },
          { completion: "42", reward: null, rewards: {}, meta: {} },
        ]),
      ],
      spec({}, format, exact),
    );
    expect(g!.rollouts.map((r) => r.rewards)).toEqual([
      { file: 0.5, format: 1, exact: 1 },
      { file: 0.5, format: 1, exact: 0 },
      { format: 0, exact: 0 },
      { format: 0, exact: null },
    ]);
    expect(g!.rollouts.map((r) => r.reward)).toEqual([2.5, 1.5, 0, 0]);
  });

  it("with the logged reward dropped, the verifiers' components alone", () => {
    const [g] = applied(
      [
        group("g", [
          { completion: good, reward: 7, rewards: { file: 7 }, meta: { gold: "42" } },
          { completion: "x", reward: 7, rewards: { file: 7 }, meta: {} },
        ]),
      ],
      spec({ loggedReward: "drop" }, { ...exact, weight: 2 }),
    );
    expect(g!.rollouts.map((r) => [r.rewards, r.reward])).toEqual([
      [{ exact: 2 }, 2],
      [{ exact: null }, null], // nothing applies: unscorable, as TRL's all-None row
    ]);
  });

  it("a length penalty on a file component replaces it in the components and in the total", () => {
    const penalty: Verifier = {
      kind: "length-penalty",
      name: "quality_len",
      enabled: true,
      weight: 1,
      wraps: "quality",
      target: 2,
      penaltyPerUnit: 0.1,
      unit: "words",
    };
    const [g] = applied(
      [
        group("g", [
          { completion: "a b c d", reward: 1.5, rewards: { quality: 1, format: 0.5 } },
          { completion: "a", reward: 1.5, rewards: { quality: 1, format: 0.5 } },
        ]),
      ],
      spec({}, { ...format, name: "fmt", enabled: false }, penalty),
    );
    expect(g!.rollouts.map((r) => r.rewards)).toEqual([
      { format: 0.5, quality_len: 0.8 },
      { format: 0.5, quality_len: 1 },
    ]);
    expectClose(
      g!.rollouts.map((r) => r.reward ?? NaN),
      [1.3, 1.5],
      12,
    );
  });

  it("refuses a spec with problems, naming them", () => {
    const result = verifierApply([group("g", [{ rewards: { exact: 1 } }])], spec({}, exact));
    expect(result).toEqual({
      ok: false,
      problems: ['verifier 1 ("exact"): the file already has a reward component of that name'],
    });
  });

  it("leaves the data as it is for an empty spec", () => {
    const groups = [group("g", [{ reward: 1, rewards: { a: 1 } }, { reward: 0 }])];
    const out = applied(groups, VERIFIER_SPEC_EMPTY);
    expect(out).toEqual(groups);
  });
});

describe("verifier components flow into advantages and GAR", () => {
  // Two rollouts pass both checks and two fail both: R = [2, 2, 0, 0], methods.md 3.2's [1,1,0,0] x 2.
  const groups = [
    group("g", [
      { completion: good, reward: null, rewards: {}, meta: { gold: "42" } },
      { completion: good, reward: null, rewards: {}, meta: { gold: "42" } },
      { completion: "no", reward: null, rewards: {}, meta: { gold: "42" } },
      {
        completion: wrong.replace("<reasoning>r</reasoning>", ""),
        reward: null,
        rewards: {},
        meta: { gold: "42" },
      },
    ]),
  ];

  it("gives the group-scaled GRPO advantages of the totals", () => {
    const analysis = analyzeDataset(applied(groups, spec({}, format, exact)));
    const g = analysis.groups[0]!;
    expect(g.rollouts.map((r) => r.reward)).toEqual([2, 2, 0, 0]);
    expectClose(
      g.rollouts.map((r) => r.advantage),
      [0.866, 0.866, -0.866, -0.866],
      3,
    );
  });

  it("reward weights weigh the new components like any other; GDPO normalises each", () => {
    const data = applied(groups, spec({}, format, exact));
    const weighted = analyzeDataset(data, {
      ...ANALYSIS_DEFAULTS,
      rewardWeights: { format: 0, exact: 1 },
    });
    expect(weighted.groups[0]!.rollouts.map((r) => r.reward)).toEqual([1, 1, 0, 0]);
    // methods.md 3.2: r1 = [1,1,0,0], r2 = [1,0,1,0] gives [1.2246, 0, 0, -1.2246] under GDPO.
    const gdpo = applied(
      [
        group("g", [
          { completion: good, reward: null, meta: { gold: "42" } },
          { completion: wrong, reward: null, meta: { gold: "42" } },
          { completion: "<answer>42</answer>", reward: null, meta: { gold: "42" } },
          { completion: "<answer>41</answer>", reward: null, meta: { gold: "42" } },
        ]),
      ],
      spec({}, format, exact),
    );
    const a = analyzeDataset(gdpo, { ...ANALYSIS_DEFAULTS, aggregation: "normalize_then_sum" });
    expectClose(
      a.groups[0]!.rollouts.map((r) => r.advantage),
      [1.2246, 0, 0, -1.2246],
    );
  });
});

describe("componentDropAdvantages", () => {
  const base = [
    group("g", [
      { completion: good, reward: 1, rewards: { file: 1 }, meta: { gold: "42" } },
      { completion: wrong, reward: 0, rewards: { file: 0 }, meta: { gold: "42" } },
      { completion: "42", reward: 0, rewards: { file: 0 }, meta: { gold: "42" } },
      { completion: "42", reward: 0, rewards: { file: 0 }, meta: { gold: "42" } },
    ]),
  ];
  const s = spec({}, format, exact);
  const data = applied(base, s);
  const options = { added: ["format", "exact"], loggedReward: "keep" as const };

  it("with weights off: each verifier's component and the logged reward, exactly", () => {
    // Totals [3, 1, 0, 0]; without format [2, 0, 0, 0]; without exact [2, 1, 0, 0]; without the
    // logged reward [2, 1, 0, 0].
    const t = componentDropAdvantages(data, { ...ANALYSIS_DEFAULTS, scale: "none" }, options);
    expect(t.parts).toEqual(["format", "exact", DROP_LOGGED_REWARD]);
    expect(t.advantages).toEqual([[2, 0, -1, -1]]);
    expect(t.without).toEqual([
      [[1.5, -0.5, -0.5, -0.5]],
      [[1.25, 0.25, -0.75, -0.75]],
      [[1.25, 0.25, -0.75, -0.75]],
    ]);
  });

  it("with weights on: every component, weighted", () => {
    const t = componentDropAdvantages(
      data,
      { ...ANALYSIS_DEFAULTS, scale: "none", rewardWeights: { file: 2, format: 1, exact: 1 } },
      options,
    );
    expect(t.parts).toEqual(["file", "format", "exact"]);
    // Totals [4, 1, 0, 0], mean 1.25.
    expect(t.advantages).toEqual([[2.75, -0.25, -1.25, -1.25]]);
    // Without file: format + exact = [2, 1, 0, 0].
    expect(t.without[0]).toEqual([[1.25, 0.25, -0.75, -0.75]]);
  });

  it("a file without verifiers and weights off has nothing to drop; dropping the last component leaves no total", () => {
    expect(
      componentDropAdvantages(base, ANALYSIS_DEFAULTS, { added: [], loggedReward: "keep" }).parts,
    ).toEqual([]);
    const t = componentDropAdvantages(
      base,
      { ...ANALYSIS_DEFAULTS, scale: "none", rewardWeights: {} },
      { added: [], loggedReward: "keep" },
    );
    expect(t.parts).toEqual(["file"]);
    expect(t.without[0]).toEqual([[0, 0, 0, 0]]);
  });

  it("with the logged reward dropped, the remaining verifiers' sum", () => {
    const dropped = applied(base, spec({ loggedReward: "drop" }, format, exact));
    const t = componentDropAdvantages(
      dropped,
      { ...ANALYSIS_DEFAULTS, scale: "none" },
      {
        added: ["format", "exact"],
        loggedReward: "drop",
      },
    );
    expect(t.parts).toEqual(["format", "exact"]);
    // Without format: exact alone [1, 0, 0, 0].
    expect(t.without[0]).toEqual([[0.75, -0.25, -0.25, -0.25]]);
  });
});
