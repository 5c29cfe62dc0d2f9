/**
 * Covers: the rubric judge as a binary verifier (issue 7 item 1). Golden cases: a pass scores
 * weight x 1, a fail 0, no verdict (group not judged, failed, the rollout's request failed) null
 * with a note saying why; the newest run of the mode is read unless a run id is named; a spec whose
 * judge verifier has no run is refused ("run the judge first"); the verifier's version changes with
 * the run it reads and its mode, so calibration sees a new judge; the totals are core's as usual.
 */
import { describe, expect, it } from "vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import {
  judgeRunVerdicts,
  type JudgeGroupResult,
  type JudgeMode,
  type JudgeRun,
} from "../judge/runs.ts";
import type { RolloutGroup } from "../types.ts";
import { verifierApply } from "./apply.ts";
import { verifierJudgeVerdicts, verifierReadsJudgeRuns } from "./judge.ts";
import { verifierGroupInputs, verifierScore } from "./run.ts";
import {
  JUDGE_VERIFIER_DEFAULT,
  VERIFIER_SPEC_EMPTY,
  verifierJudgeRun,
  verifierProblemText,
  verifierSpecProblems,
  verifierVersion,
  type JudgeVerifier,
  type Verifier,
  type VerifierSpec,
} from "./spec.ts";
import { testJudgeRun } from "../../test/judgeRunFixtures.ts";

/** Rewards 1, 1, 1, 0: three passes the judge scores and a fail it never sees. */
const g: RolloutGroup = {
  id: "g",
  rollouts: [1, 1, 1, 0].map((reward, index) =>
    testRollout({ id: `g/${index}`, groupId: "g", index, reward }),
  ),
};
const h: RolloutGroup = {
  id: "h",
  rollouts: [1, 0].map((reward, index) =>
    testRollout({ id: `h/${index}`, groupId: "h", index, reward }),
  ),
};

function run(
  mode: JudgeMode,
  id: string,
  groups: Record<string, Partial<JudgeGroupResult>>,
  promptVersion = "p1",
): JudgeRun {
  return testJudgeRun({ id, mode, promptVersion }, groups);
}

/** g/0 scores 1 x 1 (pass), g/1 0.4 x 1 (fail), g/2's request failed; h is not judged. */
const rubricOld = run("rubric", "rubric-1", {
  g: {
    scores: { "g/0": { solution: 1, behavior: 1 }, "g/1": { solution: 0.4, behavior: 1 } },
    failed: ["g/2"],
  },
});
/** The newer rubric run turns g/1 into a pass and fails on h. */
const rubricNew = run(
  "rubric",
  "rubric-2",
  {
    g: {
      scores: {
        "g/0": { solution: 1, behavior: 1 },
        "g/1": { solution: 1, behavior: 0.9 },
        "g/2": { solution: 0.1, behavior: 1 },
      },
    },
    h: {
      error: { kind: "malformed_reply", message: "no JSON object in the reply", status: null },
    },
  },
  "p2",
);
const gar = run("gar", "gar-1", { g: { tiers: [["g/1"], ["g/0"]], hacks: ["g/2"] } });
const runs = [rubricOld, gar, rubricNew];

const judge = (over: Partial<JudgeVerifier> = {}): Verifier => ({
  kind: "judge",
  name: "judge",
  enabled: true,
  weight: 2,
  ...JUDGE_VERIFIER_DEFAULT,
  ...over,
});
const spec = (...verifiers: Verifier[]): VerifierSpec => ({
  ...VERIFIER_SPEC_EMPTY,
  loggedReward: "keep",
  verifiers,
});

function outcomes(
  s: VerifierSpec,
  groups: readonly RolloutGroup[],
  judgeRuns: readonly JudgeRun[],
) {
  const inputs = groups.flatMap((group) => verifierGroupInputs(group, s, judgeRuns));
  return verifierScore(s, inputs).outcomes.map((row) => row[0]!);
}

describe("judge verifier", () => {
  it("pass scores weight x 1, fail 0, no verdict null with the reason", () => {
    const s = spec(judge({ run: "rubric-1" }));
    expect(outcomes(s, [g, h], runs)).toEqual([
      { value: 2, pass: true, note: "" },
      { value: 0, pass: false, note: "failed by rubric-1 (heuristic)" },
      {
        value: null,
        pass: null,
        note: "rubric-1 (heuristic): the judge's request for this rollout failed",
      },
      // Below the pass threshold: a fail whatever the judge, as judgeRunVerdicts says.
      { value: 0, pass: false, note: "failed by rubric-1 (heuristic)" },
      { value: null, pass: null, note: "rubric-1 (heuristic) did not judge this group" },
      { value: null, pass: null, note: "rubric-1 (heuristic) did not judge this group" },
    ]);
  });

  it("reads the newest run of its mode by default, and a failed group scores null", () => {
    const s = spec(judge());
    expect(verifierJudgeRun(s.verifiers[0] as JudgeVerifier, runs)).toBe(rubricNew);
    const o = outcomes(s, [g, h], runs);
    expect(o.map((x) => x.value)).toEqual([2, 2, 0, 0, null, null]);
    expect(o[4]!.note).toBe(
      "rubric-2 (heuristic) failed on this group: malformed_reply: no JSON object in the reply",
    );
  });

  it("gives exactly judgeRunVerdicts' verdicts, for gar and pairwise runs too", () => {
    const pairwise = run("pairwise", "pairwise-1", {
      g: {
        pairs: [
          { a: "g/0", b: "g/1", winner: "a", flipped: false },
          { a: "g/1", b: "g/2", winner: "tie", flipped: null },
          { a: "g/0", b: "g/2", winner: null, flipped: null },
        ],
      },
    });
    const all = [...runs, pairwise];
    for (const chosen of [gar, pairwise]) {
      const s = spec(judge({ mode: chosen.info.mode as "gar" | "pairwise" }));
      const verdicts = judgeRunVerdicts(chosen, g, [1, 1, 1, 0]);
      const o = outcomes(s, [g], all);
      g.rollouts.forEach((r, i) => {
        const verdict = verdicts.get(r.id);
        expect(o[i]!.pass).toBe(verdict === undefined ? null : verdict === "pass");
        expect(o[i]!.value).toBe(verdict === undefined ? null : verdict === "pass" ? 2 : 0);
      });
    }
    // gar: g/2 is a hack, so a fail; pairwise: g/3 played no decided comparison, so no verdict.
    expect(outcomes(spec(judge({ mode: "gar" })), [g], all).map((x) => x.pass)).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(outcomes(spec(judge({ mode: "pairwise" })), [g], all)[3]).toEqual({
      value: null,
      pass: null,
      note: "pairwise-1 (heuristic) gave this rollout no verdict",
    });
  });

  it("its thresholds are judgeRunVerdicts' options", () => {
    const strict = spec(judge({ run: "rubric-2", rubricPassScore: 0.95 }));
    expect(outcomes(strict, [g], runs).map((x) => x.pass)).toEqual([true, false, false, false]);
    const high = spec(judge({ run: "rubric-2", passThreshold: 2 }));
    expect(outcomes(high, [g], runs).map((x) => x.pass)).toEqual([false, false, false, false]);
  });

  it("a spec whose judge verifier has no run is refused: run the judge first", () => {
    const s = spec(judge({ mode: "pairwise" }));
    const problems = verifierSpecProblems(s, [], runs);
    expect(problems).toEqual([
      {
        index: 0,
        field: "run",
        message:
          "there is no pairwise judge run yet: run the judge first (the LLM judge panel, or rollout-studio judge --mode pairwise)",
      },
    ]);
    expect(verifierProblemText(s, problems[0]!)).toMatch(/^verifier 1 \("judge"\): there is no/);
    expect(verifierSpecProblems(spec(judge({ run: "rubric-9" })), [], runs)[0]?.message).toBe(
      'there is no judge run "rubric-9" (runs: rubric-1, gar-1, rubric-2)',
    );
    expect(verifierSpecProblems(spec(judge({ run: "gar-1" })), [], runs)[0]?.message).toBe(
      'judge run "gar-1" is a gar run, not a rubric run',
    );
    // Unknown runs (a spec read on its own), or a disabled verifier: nothing to check.
    expect(verifierSpecProblems(s, [], null)).toEqual([]);
    expect(verifierSpecProblems(spec(judge({ mode: "pairwise", enabled: false })), [], [])).toEqual(
      [],
    );
    const applied = verifierApply([g], s, runs);
    expect(applied.ok).toBe(false);
    expect(verifierApply([g], s).ok).toBe(false);
    // Without a run the inputs still say why (a studio state between a run's removal and the check).
    expect(verifierJudgeVerdicts(s, g, [])[0]).toEqual({
      judge: { verdict: null, note: "no pairwise judge run: run the judge first" },
    });
  });

  it("adds its component to the totals, and a length penalty can wrap it", () => {
    const s = spec(judge({ enabled: false }), {
      kind: "length-penalty",
      name: "judge_len",
      enabled: true,
      weight: 1,
      wraps: "judge",
      target: 0,
      penaltyPerUnit: 0.5,
      unit: "words",
    });
    expect(verifierReadsJudgeRuns(s)).toBe(true);
    expect(verifierReadsJudgeRuns(spec(judge({ enabled: false })))).toBe(false);
    const lengthy: RolloutGroup = {
      ...g,
      rollouts: g.rollouts.map((r) => ({ ...r, completion: "one two" })),
    };
    const applied = verifierApply([lengthy], s, runs);
    if (!applied.ok) throw new Error(applied.problems.join("; "));
    // judge 2 (newest run: pass, pass, fail, fail) less 0.5 per word past 0, capped at the value.
    expect(applied.groups[0]!.rollouts.map((r) => r.rewards)).toEqual([
      { judge_len: 1 },
      { judge_len: 1 },
      { judge_len: 0 },
      { judge_len: 0 },
    ]);
    expect(applied.groups[0]!.rollouts.map((r) => r.reward)).toEqual([2, 2, 1, 0]);
  });

  it("its version changes with the run it reads and the mode, not with the weight", () => {
    const s = spec(judge());
    const v = verifierVersion(s, "judge", runs);
    expect(v).toMatch(/^v[0-9a-f]{8}$/);
    expect(verifierVersion(spec(judge({ weight: 5, enabled: false })), "judge", runs)).toBe(v);
    // A newer rubric run is a new judge; so is naming the older one, or another mode.
    expect(verifierVersion(s, "judge", [rubricOld, gar])).not.toBe(v);
    expect(verifierVersion(spec(judge({ run: "rubric-1" })), "judge", runs)).not.toBe(v);
    expect(verifierVersion(spec(judge({ mode: "gar" })), "judge", runs)).not.toBe(v);
    expect(verifierVersion(spec(judge({ rubricPassScore: 0.7 })), "judge", runs)).not.toBe(v);
    // Naming the newest run by id reads the same run, but the config differs: a new version too.
    expect(verifierVersion(spec(judge({ run: "rubric-2" })), "judge", runs)).not.toBe(v);
    // The same run id with another prompt version (a re-imported, re-made run) is a new judge.
    const remade = { ...rubricNew, info: { ...rubricNew.info, promptVersion: "p3" } };
    expect(verifierVersion(s, "judge", [rubricOld, gar, remade])).not.toBe(v);
  });
});
