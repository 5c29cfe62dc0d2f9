/**
 * The GRS preview: methods.md 2.4's golden vectors through typed and judge scores, the floor's
 * range, typed values over the judge's, invalid values keeping R, and the newest rubric run.
 */
import { describe, expect, it } from "vitest";
import {
  JUDGE_GROUP_RESULT_EMPTY,
  judgeAccountingEmpty,
  judgeFailure,
  type JudgeGroupResult,
  type JudgeMode,
  type JudgeRun,
} from "../../../core/index.ts";
import {
  grsJudgeNote,
  grsJudgeScores,
  grsParseFloor,
  prepareGrsPreview,
  type GrsJudgeScores,
  type GrsPreviewInput,
  type GrsTyped,
} from "./prepareGrsPreview.ts";
import { testJudgeRun } from "../../../test/judgeRunFixtures.ts";

function input(
  rewards: readonly number[],
  typed: Record<string, GrsTyped>,
  over: Partial<GrsPreviewInput> = {},
): GrsPreviewInput {
  return {
    rollouts: rewards.map((reward, i) => ({ id: `r${i}`, reward, humanLabel: null })),
    passThreshold: 0.5,
    floorText: "0",
    judge: null,
    typed,
    staleLabels: new Set(),
    ...over,
  };
}

const every = (n: number, s: string, b: string): Record<string, GrsTyped> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i}`, { solution: s, behavior: b }]));

const shaped = (p: ReturnType<typeof prepareGrsPreview>) =>
  p.rows.map((r) => (r.shaped === null ? null : Number(r.shaped.toFixed(12))));

describe("prepareGrsPreview: methods.md 2.4 golden vectors", () => {
  it("s = .5, b = .8 on R = [1, .1, 1, 0] gives [.4, .1, .4, 0]", () => {
    const p = prepareGrsPreview(input([1, 0.1, 1, 0], every(4, "0.5", "0.8")));
    expect(shaped(p)).toEqual([0.4, 0.1, 0.4, 0]);
    expect(p.rows.map((r) => r.status)).toEqual(["shaped", "failure", "shaped", "failure"]);
    expect(p.rows[0]!.formula).toBe("1 × max(0, 0.5) × max(0, 0.8) = 0.4");
    expect(p.rows[0]!.product).toBeCloseTo(0.4, 12);
    expect([p.passes, p.shaped, p.unscored]).toEqual([2, 2, 0]);
  });

  it("floor .6 on R = [1, 0] gives [.48, 0]", () => {
    const p = prepareGrsPreview(input([1, 0], every(2, "0.5", "0.8"), { floorText: "0.6" }));
    expect(shaped(p)).toEqual([0.48, 0]);
    expect(p.rows[0]!.formula).toBe("1 × max(0.6, 0.5) × max(0.6, 0.8) = 0.48");
  });

  it("the seed vector: behavior 1 if <= 2 tool calls else .5 gives [1, .5, 0]", () => {
    const calls = [1, 3, 0];
    const typed = Object.fromEntries(
      calls.map((c, i) => [`r${i}`, { solution: "1", behavior: c <= 2 ? "1" : "0.5" }]),
    );
    expect(shaped(prepareGrsPreview(input([1, 1, 0], typed)))).toEqual([1, 0.5, 0]);
  });
});

describe("prepareGrsPreview: inputs", () => {
  const judgeRun = (
    result: Partial<JudgeGroupResult>,
    mode: JudgeMode = "rubric",
    id = "run",
  ): JudgeRun => ({
    info: {
      id,
      mode,
      source: "llm",
      model: "m",
      baseUrl: "",
      promptVersion: "grs-v1@x",
      startedAt: "t0",
      finishedAt: "t1",
      accounting: judgeAccountingEmpty(),
      costUsd: null,
      cancelled: false,
    },
    groups: { g: { ...JUDGE_GROUP_RESULT_EMPTY, ...result } },
  });

  it("uses the judge's scores, a typed value overrides one field, clearing returns to the judge's", () => {
    const judge = grsJudgeScores(
      [
        judgeRun({
          scores: { r0: { solution: 0.5, behavior: 0.5 }, r1: { solution: 1, behavior: 1 } },
        }),
      ],
      "g",
    );
    const p = prepareGrsPreview(
      input([1, 1, 0], { r0: { behavior: "1" }, r1: { solution: "", behavior: "" } }, { judge }),
    );
    expect(shaped(p)).toEqual([0.5, 1, 0]);
    expect(p.rows[0]!.solution).toMatchObject({ value: 0.5, source: "judge", judge: 0.5 });
    expect(p.rows[0]!.behavior).toMatchObject({ value: 1, source: "typed", judge: 0.5 });
    expect(p.rows[1]!.solution.source).toBe("judge");
    expect(p.rows[2]!.solution).toMatchObject({ value: null, source: "none" });
  });

  it("an invalid or missing score keeps R and counts as unscored", () => {
    const p = prepareGrsPreview(
      input([1, 1, 1], {
        r0: { solution: "1.2", behavior: "1" },
        r1: { solution: "x", behavior: "1" },
      }),
    );
    expect(shaped(p)).toEqual([1, 1, 1]);
    expect(p.rows.map((r) => r.status)).toEqual(["unscored", "unscored", "unscored"]);
    expect(p.rows[0]!.solution.error).toBe('s must be a number in [0, 1], got "1.2"');
    expect(p.rows[1]!.solution.error).toBe('s must be a number in [0, 1], got "x"');
    expect(p.unscored).toBe(3);
  });

  it("a failure's typed scores are ignored: failures keep their reward", () => {
    const p = prepareGrsPreview(input([0.2], { r0: { solution: "0", behavior: "0" } }));
    expect(shaped(p)).toEqual([0.2]);
    expect(p.rows[0]!.solution).toMatchObject({ value: null, source: "none", text: "" });
  });

  it("a rollout without a reward is not shaped", () => {
    const p = prepareGrsPreview(input([NaN], { r0: { solution: "1", behavior: "1" } }));
    expect(p.rows[0]!.status).toBe("no-reward");
    expect(p.rows[0]!.passed).toBe(false);
  });

  it.each(["1", "-0.1", "", "abc", "Infinity"])("rejects the floor %j", (text) => {
    const p = prepareGrsPreview(input([1], every(1, "0.5", "0.5"), { floorText: text }));
    expect(p.floor).toBeNull();
    expect(p.floorError).toMatch(/floor must be a number in \[0, 1\)/);
    expect(p.rows[0]!.shaped).toBeNull();
    expect(p.rows[0]!.formula).toBe("");
  });

  it("accepts floors in [0, 1)", () => {
    expect(grsParseFloor("0")).toEqual({ value: 0 });
    expect(grsParseFloor("0.99")).toEqual({ value: 0.99 });
  });

  it("marks stale labels only on labelled rollouts, and the judge's failed passes", () => {
    const judge = grsJudgeScores([judgeRun({ failed: ["r1"] })], "g");
    const p = prepareGrsPreview({
      ...input([1, 1], {}, { judge, staleLabels: new Set(["r0", "r1"]) }),
      rollouts: [
        { id: "r0", reward: 1, humanLabel: "pass" },
        { id: "r1", reward: 1, humanLabel: null },
      ],
    });
    expect(p.rows.map((r) => [r.staleLabel, r.judgeFailed])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it("takes the newest rubric run that has the group, with its error", () => {
    const older = judgeRun({ scores: { r0: { solution: 1, behavior: 1 } } }, "rubric", "old");
    const newer = judgeRun(
      { error: judgeFailure("timeout", "no reply"), rubricVersion: 2 },
      "rubric",
      "new",
    );
    const gar = judgeRun({}, "gar", "gar");
    const other: JudgeRun = { ...judgeRun({}, "rubric", "other"), groups: {} };
    expect(grsJudgeScores([older, newer, gar, other], "g")).toMatchObject({
      run: { id: "new" },
      rubricVersion: 2,
      error: "timeout: no reply",
    });
    expect(grsJudgeScores([older, gar], "g")?.run.id).toBe("old");
    expect(grsJudgeScores([gar], "g")).toBeNull();
    expect(grsJudgeScores([older], "constructor")).toBeNull();
  });
});

describe("grsJudgeNote", () => {
  const scores = (over: Partial<GrsJudgeScores> = {}): GrsJudgeScores => ({
    run: testJudgeRun({ id: "rubric-1", mode: "rubric", source: "llm", model: "gpt-x" }, {}).info,
    rubricVersion: 2,
    error: null,
    scores: {},
    failed: [],
    ...over,
  });

  it("says how to preview without a rubric run", () => {
    expect(grsJudgeNote(null, 3)).toEqual({
      scores: "No rubric run has scored this group: type s and b per pass to preview.",
      older: "",
    });
  });

  it("names the run, its model or the heuristic, and the rubric version", () => {
    expect(grsJudgeNote(scores(), 2).scores).toBe(
      "Scores from rubric run rubric-1 (gpt-x, rubric v2).",
    );
    const heuristic = scores({
      run: testJudgeRun({ id: "h", mode: "rubric" }, {}).info,
      rubricVersion: null,
    });
    expect(grsJudgeNote(heuristic, 2).scores).toBe("Scores from rubric run h (heuristic).");
  });

  it("says when the scores are from an older rubric version, only then", () => {
    expect(grsJudgeNote(scores(), 3).older).toBe(
      " The rubric is at v3 now: these scores are from an older version.",
    );
    expect(grsJudgeNote(scores(), 2).older).toBe("");
    expect(grsJudgeNote(scores(), null).older).toBe("");
    expect(grsJudgeNote(scores({ rubricVersion: null }), 3).older).toBe("");
  });
});
