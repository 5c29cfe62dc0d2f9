/** Covers: the Verifiers panel's view models (new verifiers, wrap choices, counts, outcomes, drops). */
import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  type RolloutGroup,
  componentDropAdvantages,
  DROP_LOGGED_REWARD,
  VERIFIER_SPEC_EMPTY,
  judgeAccountingEmpty,
  verifierApply,
  type JudgeRunInfo,
  type Verifier,
  type VerifierSpec,
} from "../../../core/index.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import {
  cellNumber,
  dropPartLabel,
  prepareDropView,
  prepareOutcomes,
  prepareTally,
  verifierJudgeRunChoices,
  verifierNew,
  verifierUniqueName,
  verifierWrapChoices,
} from "./prepareVerifiers.ts";

const group: RolloutGroup = {
  id: "g",
  rollouts: [
    testRollout({ id: "g/0", completion: "<answer>4</answer>", reward: 0, meta: { gold: "4" } }),
    testRollout({ id: "g/1", completion: "<answer>5</answer>", reward: 1, meta: { gold: "4" } }),
    testRollout({ id: "g/2", completion: "4", reward: 0, meta: {} }),
  ],
};

function ofKind<K extends Verifier["kind"]>(kind: K): Extract<Verifier, { kind: K }> {
  const v = verifierNew(kind, VERIFIER_SPEC_EMPTY, [], []);
  if (v.kind !== kind) throw new Error(`verifierNew gave ${v.kind}`);
  return v as Extract<Verifier, { kind: K }>;
}
const EXACT = ofKind("exact-match");
const LENGTH = ofKind("length-penalty");

describe("verifierNew", () => {
  it("gives each kind the library's defaults and a free name", () => {
    const empty = VERIFIER_SPEC_EMPTY;
    const format = verifierNew("format", empty, [], []);
    expect(format).toMatchObject({
      kind: "format",
      name: "format",
      flags: "s",
      enabled: true,
      weight: 1,
    });
    const withFormat: VerifierSpec = { ...empty, verifiers: [format] };
    expect(verifierNew("format", withFormat, [], []).name).toBe("format_2");
    expect(
      verifierNew("exact-match", empty, ["exact_match"], ["meta_x", "reward_model.ground_truth"]),
    ).toMatchObject({
      name: "exact_match_2",
      field: "reward_model.ground_truth",
      pattern: null,
    });
    expect(verifierNew("json-schema", empty, [], [])).toMatchObject({
      schema: { from: "inline", schema: { type: "object" } },
      draft: "2020-12",
    });
    expect(verifierNew("length-penalty", withFormat, ["quality"], [])).toMatchObject({
      name: "format_len",
      wraps: "format",
      target: 512,
      penaltyPerUnit: 0.001,
      unit: "words",
    });
    expect(verifierNew("length-penalty", empty, [], []).name).toBe("length_penalty");
  });

  it("names and wrap choices", () => {
    expect(verifierUniqueName("a", new Set(["a", "a_2"]))).toBe("a_3");
    const spec: VerifierSpec = {
      ...VERIFIER_SPEC_EMPTY,
      verifiers: [
        verifierNew("format", VERIFIER_SPEC_EMPTY, [], []),
        { ...LENGTH, name: "lp", wraps: "format" },
      ],
    };
    expect(verifierWrapChoices(spec, ["quality", "format"], "lp")).toEqual(["format", "quality"]);
  });
});

describe("tally and outcomes", () => {
  const spec: VerifierSpec = {
    ...VERIFIER_SPEC_EMPTY,
    verifiers: [{ ...EXACT, field: "gold" }],
  };
  const applied = verifierApply([group], spec);
  if (!applied.ok) throw new Error("rejected");

  it("counts each verifier, with its pass rate over the rows it applies to", () => {
    expect(prepareTally(spec, applied.run.names, applied.run.outcomes)).toEqual([
      {
        name: "exact_match",
        kind: "exact-match",
        role: "component",
        pass: 1,
        fail: 1,
        notApplicable: 1,
        passRate: "50.0%",
        note: 'no ground truth at "gold"',
      },
    ]);
  });

  it("lists each rollout's outcome and reason, or that it is not scored yet", () => {
    const byRollout = new Map([
      ["g/0", applied.run.outcomes[0]!],
      ["g/1", applied.run.outcomes[1]!],
    ]);
    expect(prepareOutcomes(group, applied.run.names, byRollout)).toEqual([
      { id: "g/0", cells: [{ name: "exact_match", value: "1", pass: true, note: "" }] },
      {
        id: "g/1",
        cells: [{ name: "exact_match", value: "0", pass: false, note: '"5" is not "4"' }],
      },
      {
        id: "g/2",
        cells: [{ name: "exact_match", value: "", pass: null, note: "not scored yet" }],
      },
    ]);
  });
});

describe("prepareDropView", () => {
  it("gives the advantage, the change without each part, and sign flips", () => {
    const spec: VerifierSpec = {
      ...VERIFIER_SPEC_EMPTY,
      loggedReward: "keep",
      verifiers: [{ ...EXACT, field: "gold", weight: 2 }],
    };
    const applied = verifierApply([group], spec);
    if (!applied.ok) throw new Error("rejected");
    // Totals: [0 + 2, 1 + 0, 0] = [2, 1, 0]; scale none: advantages [1, 0, -1].
    const settings = { ...ANALYSIS_DEFAULTS, scale: "none" as const };
    const table = componentDropAdvantages(applied.groups, settings, {
      added: ["exact_match"],
      loggedReward: "keep",
    });
    const view = prepareDropView(table, 0, applied.groups[0]!);
    expect(view.parts).toEqual(["exact_match", DROP_LOGGED_REWARD]);
    expect(
      view.rows.map((r) => [r.id, r.advantage, r.cells.map((c) => [c.delta, c.flips])]),
    ).toEqual([
      // Without exact_match: logged [0, 1, 0] -> [-1/3, 2/3, -1/3].
      // Without the logged reward: [2, 0, none] -> [1, -1, 0] (g/2 has nothing left: unscorable).
      [
        "g/0",
        "1",
        [
          ["-1.3333", true],
          ["0", false],
        ],
      ],
      [
        "g/1",
        "0",
        [
          ["+0.6667", false],
          ["-1", false],
        ],
      ],
      [
        "g/2",
        "-1",
        [
          ["+0.6667", false],
          ["+1", false],
        ],
      ],
    ]);
    expect(dropPartLabel(DROP_LOGGED_REWARD)).toBe("the logged reward");
  });

  it("says why there is nothing to drop", () => {
    const table = componentDropAdvantages([group], ANALYSIS_DEFAULTS, {
      added: [],
      loggedReward: "keep",
    });
    expect(prepareDropView(table, 0, group).empty).toMatch(/turn reward weights on/);
  });

  it("formats numbers for cells", () => {
    expect([cellNumber(1 / 3), cellNumber(null), cellNumber(NaN), cellNumber(2)]).toEqual([
      "0.3333",
      "",
      "",
      "2",
    ]);
  });
});

describe("the rubric judge verifier's picker", () => {
  const info = (
    id: string,
    mode: JudgeRunInfo["mode"],
    source: "llm" | "heuristic",
  ): JudgeRunInfo => ({
    id,
    mode,
    source,
    model: source === "heuristic" ? "heuristic" : "gpt-x",
    baseUrl: "",
    promptVersion: "v",
    startedAt: `2026-11-29T2${id.slice(-1)}:00:00.000Z`,
    finishedAt: "",
    accounting: judgeAccountingEmpty(),
    costUsd: null,
    cancelled: false,
  });

  it("a new judge verifier reads the newest rubric run", () => {
    expect(verifierNew("judge", VERIFIER_SPEC_EMPTY, [], [])).toEqual({
      kind: "judge",
      name: "judge",
      enabled: true,
      weight: 1,
      mode: "rubric",
      run: null,
      passThreshold: 0.5,
      rubricPassScore: 0.5,
    });
  });

  it("offers the newest run of the mode, then each run of it newest first", () => {
    const runs = [
      info("rubric-1", "rubric", "heuristic"),
      info("gar-2", "gar", "llm"),
      info("rubric-3", "rubric", "llm"),
    ];
    expect(verifierJudgeRunChoices(runs, "rubric", null)).toEqual([
      { value: "", label: "newest rubric run: gpt-x · 2026-11-29T23:00:00.000Z · rubric-3" },
      { value: "rubric-3", label: "gpt-x · 2026-11-29T23:00:00.000Z · rubric-3" },
      { value: "rubric-1", label: "heuristic grader · 2026-11-29T21:00:00.000Z · rubric-1" },
    ]);
    expect(verifierJudgeRunChoices(runs, "pairwise", null)).toEqual([
      { value: "", label: "newest pairwise run (none yet: run the judge first)" },
    ]);
    // A named run that is gone stays listed, so the select shows the choice.
    expect(verifierJudgeRunChoices(runs, "gar", "gar-9").at(-1)).toEqual({
      value: "gar-9",
      label: "gar-9 (not a gar run of these annotations)",
    });
  });
});
