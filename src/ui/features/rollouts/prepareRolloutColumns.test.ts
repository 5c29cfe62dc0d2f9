import { describe, expect, it } from "vitest";
import { analyzeDataset, type Rollout, type RolloutGroup } from "../../../core/index.ts";
import { ANALYSIS_DEFAULTS } from "../../../core/index.ts";
import { prepareRolloutRows } from "./prepareRolloutColumns.ts";

function rollout(id: string, reward: number | null, completion: string): Rollout {
  return {
    id,
    groupId: "g",
    index: 0,
    prompt: "Solve  2+2\nplease",
    messages: [],
    completion,
    reward,
    rewards: {},
    answer: null,
    testsPassed: null,
    meta: {},
    source: { file: "f", line: 1 },
  };
}

describe("prepareRolloutRows", () => {
  const group: RolloutGroup = {
    id: "g",
    rollouts: [rollout("a", 1, "four"), rollout("b", 0, "five"), rollout("c", null, "")],
  };
  it("gives plain numbers, and a missing reward as empty, never as 0", () => {
    const analysis = analyzeDataset([group]).groups[0]!;
    const rows = prepareRolloutRows(group, analysis, ANALYSIS_DEFAULTS);
    expect(rows.map((r) => [r.id, r.plain.reward, r.passed, r.plain.advantage])).toEqual([
      ["a", "1", true, "0.707"],
      ["b", "0", false, "-0.707"],
      ["c", "", false, "0"],
    ]);
  });
});
