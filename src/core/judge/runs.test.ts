import { describe, expect, it } from "vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import type { RolloutGroup } from "../types.ts";
import { judgeAccountingEmpty } from "./accounting.ts";
import {
  JUDGE_GROUP_RESULT_EMPTY,
  judgeRunLatest,
  judgeRunRanking,
  judgeRunVerdicts,
  type JudgeGroupResult,
  type JudgeMode,
  type JudgeRun,
} from "./runs.ts";

const group: RolloutGroup = {
  id: "g",
  rollouts: ["a", "b", "c", "d"].map((id, index) => testRollout({ id, groupId: "g", index })),
};
const rewards = [1, 1, 1, 0];

function run(mode: JudgeMode, result: Partial<JudgeGroupResult>, id = `${mode}-1`): JudgeRun {
  return {
    info: {
      id,
      mode,
      source: "llm",
      model: "m",
      baseUrl: "",
      promptVersion: "v",
      startedAt: "t0",
      finishedAt: "t1",
      accounting: judgeAccountingEmpty(),
      costUsd: null,
      cancelled: false,
    },
    groups: { g: { ...JUDGE_GROUP_RESULT_EMPTY, ...result } },
  };
}

const entries = (m: Map<string, string>) => Object.fromEntries(m);

describe("judge runs", () => {
  it("gar: a failing rollout fails, a pass passes unless it is a hack", () => {
    const r = run("gar", { tiers: [["b"], ["a"]], hacks: ["c"] });
    expect(entries(judgeRunVerdicts(r, group, rewards))).toEqual({
      a: "pass",
      b: "pass",
      c: "fail",
      d: "fail",
    });
    expect(judgeRunRanking(r, group, rewards)).toEqual([["b"], ["a"], ["c"], ["d"]]);
  });

  it("rubric: a pass passes when s x b reaches the threshold; a failed request gives no verdict", () => {
    const r = run("rubric", {
      scores: { a: { solution: 1, behavior: 0.5 }, b: { solution: 0.6, behavior: 0.5 } },
      failed: ["c"],
    });
    expect(entries(judgeRunVerdicts(r, group, rewards))).toEqual({
      a: "pass",
      b: "fail",
      d: "fail",
    });
    expect(judgeRunRanking(r, group, rewards)).toEqual([["a"], ["b"], ["d"]]);
    const tied = run("rubric", {
      scores: { a: { solution: 1, behavior: 0.5 }, b: { solution: 0.5, behavior: 1 } },
    });
    expect(judgeRunRanking(tied, group, rewards)).toEqual([["a", "b"], ["d"]]);
  });

  it("pairwise: a rollout passes with at least half of its decided comparisons; ties count half", () => {
    const r = run("pairwise", {
      pairs: [
        { a: "a", b: "b", winner: "a", flipped: false },
        { a: "a", b: "c", winner: "tie", flipped: null },
        { a: "b", b: "c", winner: "b", flipped: true },
        { a: "c", b: "d", winner: null, flipped: null },
      ],
    });
    expect(entries(judgeRunVerdicts(r, group, rewards))).toEqual({
      a: "pass",
      b: "fail",
      c: "pass",
    });
    expect(judgeRunRanking(r, group, rewards)).toEqual([["a", "c"], ["b"]]);
  });

  it("no verdict for an erroring group, an unjudged group, or a cluster run", () => {
    const failed = run("gar", {
      error: { kind: "invalid_reply", message: "omitted passes 2", status: null },
    });
    expect(judgeRunVerdicts(failed, group, rewards).size).toBe(0);
    expect(judgeRunRanking(failed, group, rewards)).toBeNull();
    const other = { ...group, id: "h" } as RolloutGroup;
    expect(judgeRunVerdicts(run("gar", { tiers: [["a"]] }), other, rewards).size).toBe(0);
    const clusters = run("cluster", { clusters: { a: "x", b: "x", c: "y", d: "y" } });
    expect(judgeRunVerdicts(clusters, group, rewards).size).toBe(0);
    expect(judgeRunRanking(clusters, group, rewards)).toBeNull();
  });

  it("the latest run of a mode is the last appended", () => {
    const runs = [run("gar", {}, "g1"), run("rubric", {}, "r1"), run("gar", {}, "g2")];
    expect(judgeRunLatest(runs, "gar")?.info.id).toBe("g2");
    expect(judgeRunLatest(runs, "rubric")?.info.id).toBe("r1");
    expect(judgeRunLatest(runs, "pairwise")).toBeNull();
  });
});
