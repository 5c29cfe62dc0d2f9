import { describe, expect, it } from "vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { judgeAccountingEmpty } from "../judge/accounting.ts";
import { JUDGE_GROUP_RESULT_EMPTY, judgeRunVerdicts, type JudgeRun } from "../judge/runs.ts";
import type { RolloutGroup } from "../types.ts";
import { calibrationHumanSource } from "./human.ts";
import {
  calibrationJudgeRunLabel,
  judgeRunName,
  calibrationJudgeRunSource,
  calibrationRewardSource,
  calibrationSourceFromRollouts,
  calibrationTiersByScore,
} from "./sources.ts";
import { GROUP_ANNOTATION_EMPTY } from "../analysis/annotations.ts";

const group: RolloutGroup = {
  id: "g",
  rollouts: ["a", "b", "c", "d", "e"].map((id, index) => testRollout({ id, groupId: "g", index })),
};
const entries = (m: ReadonlyMap<string, string>) => Object.fromEntries(m);

function run(over: Partial<JudgeRun["info"]> = {}): JudgeRun {
  return {
    info: {
      id: "gar-1",
      mode: "gar",
      source: "llm",
      model: "gpt-x",
      baseUrl: "http://127.0.0.1:1/v1",
      promptVersion: "gar-v3",
      startedAt: "2026-01-02T03:04:05.678Z",
      finishedAt: "2026-01-02T03:05:00.000Z",
      accounting: judgeAccountingEmpty(),
      costUsd: null,
      cancelled: false,
      ...over,
    },
    groups: { g: { ...JUDGE_GROUP_RESULT_EMPTY, tiers: [["b"], ["a"]], hacks: ["c"] } },
  };
}

describe("calibration sources", () => {
  it("the reward: pass at or above the threshold, no verdict without a finite reward", () => {
    const source = calibrationRewardSource(0.5);
    expect(source).toMatchObject({ id: "reward", kind: "reward", promptVersion: "" });
    expect(source.label).toBe("reward (pass threshold 0.5)");
    expect(entries(source.verdicts(group, [0.5, 0.49, 1, NaN, 0]))).toEqual({
      a: "pass",
      b: "fail",
      c: "pass",
      e: "fail",
    });
  });

  it("the reward ranks by reward, equal rewards tied, unscored rollouts left out", () => {
    const source = calibrationRewardSource(0.5);
    expect(source.ranking(group, [0.5, 0.2, 1, NaN, 0.5])).toEqual([["c"], ["a", "e"], ["b"]]);
    expect(source.ranking(group, [NaN, NaN, NaN, NaN, NaN])).toBeNull();
  });

  it("a judge run: the run's verdicts and ranking, named by mode, model, prompt and time", () => {
    const r = run();
    const source = calibrationJudgeRunSource(r);
    const rewards = [1, 1, 1, 0, 0];
    expect(source).toMatchObject({ id: "gar-1", kind: "judge", promptVersion: "gar-v3" });
    expect(source.verdicts(group, rewards)).toEqual(judgeRunVerdicts(r, group, rewards));
    expect(source.ranking(group, rewards)).toEqual([["b"], ["a"], ["c"], ["d", "e"]]);
    expect(source.label).toBe("gar · gpt-x · prompt gar-v3 · 2026-01-02 03:04:05 UTC · 1 group");
    // What it judged, when the run says: two runs of one mode and model never read the same.
    const spread = { ...r, info: { ...r.info, scope: "spread check" } };
    expect(judgeRunName(spread)).toBe(
      "gar · gpt-x · prompt gar-v3 · 2026-01-02 03:04:05 UTC · spread check (1 group)",
    );
  });

  it("the pass threshold reaches the judge run's verdicts", () => {
    const source = calibrationJudgeRunSource(run(), { passThreshold: 0.9, rubricPassScore: 0.5 });
    // a's reward 0.8 is below 0.9: a failing rollout stays a fail whatever the judge ranked.
    expect(source.verdicts(group, [0.8, 1, 1, 0, 0]).get("a")).toBe("fail");
  });

  it("the heuristic grader is labelled as a heuristic; cancelled runs say so", () => {
    expect(
      calibrationJudgeRunLabel(
        run({ source: "heuristic", model: "heuristic", promptVersion: "heuristic-v1" }).info,
      ),
    ).toBe("gar · heuristic grader · prompt heuristic-v1 · 2026-01-02 03:04:05 UTC");
    expect(calibrationJudgeRunLabel(run({ cancelled: true, startedAt: "yesterday" }).info)).toBe(
      "gar · gpt-x · prompt gar-v3 · yesterday (cancelled)",
    );
  });

  it("a verifier is one constructor call; without a score it has no ranking", () => {
    const verifier = calibrationSourceFromRollouts({
      id: "tests",
      label: "unit tests",
      kind: "verifier",
      promptVersion: "v2",
      verdict: (r) => (r.id === "d" ? null : r.id < "c" ? "pass" : "fail"),
    });
    expect(entries(verifier.verdicts(group, []))).toEqual({
      a: "pass",
      b: "pass",
      c: "fail",
      e: "fail",
    });
    expect(verifier.ranking(group, [])).toBeNull();
    expect(() =>
      calibrationSourceFromRollouts({
        id: "",
        label: "",
        kind: "verifier",
        promptVersion: "",
        verdict: () => null,
      }),
    ).toThrow(/non-empty id/);
  });

  it("tiers by score: higher first, ties share a tier, input order breaks nothing else", () => {
    expect(
      calibrationTiersByScore([
        ["x", 1],
        ["y", 3],
        ["z", 1],
        ["w", NaN],
      ]),
    ).toEqual([["y"], ["x", "z"]]);
  });
});

describe("the human source", () => {
  it("keeps pass and fail, leaves defers out and counts them", () => {
    const human = calibrationHumanSource({
      annotator: " ana ",
      groups: {
        g: {
          ...GROUP_ANNOTATION_EMPTY,
          labels: { a: "pass", b: "defer", c: "fail" },
          ranking: [["a"], ["b"]],
        },
        h: { ...GROUP_ANNOTATION_EMPTY, labels: { x: "defer" } },
        k: { ...GROUP_ANNOTATION_EMPTY, notes: "nothing labelled" },
      },
    });
    expect(human.label).toBe("labels of ana");
    expect(human.counts).toEqual({ pass: 1, fail: 1, defer: 2 });
    expect(entries(human.labels.get("g")!)).toEqual({ a: "pass", c: "fail" });
    expect(human.labels.has("h")).toBe(false);
    expect(human.rankings.get("g")).toEqual([["a"], ["b"]]);
    expect(human.rankings.has("k")).toBe(false);
    expect(calibrationHumanSource({ annotator: "", groups: {} }).label).toBe(
      "this annotator's labels",
    );
  });
});
