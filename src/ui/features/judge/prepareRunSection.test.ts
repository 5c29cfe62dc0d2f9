import { describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS, type RolloutGroup } from "../../../core/index.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import {
  groupCountText,
  judgeOptionsFrom,
  prepareRunButtons,
  prepareSpreadCheck,
  selectedScopeLabel,
  spreadRunLabel,
} from "./prepareRunSection.ts";

function group(id: string, rewards: number[]): RolloutGroup {
  return {
    id,
    rollouts: rewards.map((reward, i) =>
      testRollout({ id: `${id}/${i}`, groupId: id, index: i, reward }),
    ),
  };
}

const options = judgeOptionsFrom({ ...ANALYSIS_DEFAULTS, passThreshold: 0.5 });
// Spread-eligible (two or more passes): "two", "all", "more"; not "one", "none".
const GROUPS = [
  group("one", [1, 0]),
  group("two", [1, 1, 0]),
  group("all", [1, 1]),
  group("none", [0, 0]),
  group("more", [1, 1, 1, 0]),
];
const input = {
  sampleSize: "20",
  seed: "0",
  grader: "heuristic" as const,
  running: false,
  configured: false,
};

describe("run section", () => {
  it("judges under the settings' pass rule, reward weights and completion text", () => {
    expect(options).toMatchObject({
      passThreshold: 0.5,
      rewardWeights: ANALYSIS_DEFAULTS.rewardWeights,
      completionRule: ANALYSIS_DEFAULTS.completionRule,
    });
    expect(options.maxChars).toBeGreaterThan(0);
  });

  it("counts the scope and names the open group", () => {
    expect(groupCountText(1)).toBe("1 group");
    expect(groupCountText(0)).toBe("0 groups");
    expect(selectedScopeLabel(null)).toBe("the selected group");
    expect(selectedScopeLabel("g7")).toBe("the selected group (g7)");
  });

  it("opens the LLM runs with a connection only, the heuristic without one", () => {
    expect(prepareRunButtons(3, false, false)).toEqual({
      llmDisabled: true,
      heuristicDisabled: false,
      llmTitle: "Save a connection first",
    });
    expect(prepareRunButtons(3, false, true)).toEqual({
      llmDisabled: false,
      heuristicDisabled: false,
      llmTitle: undefined,
    });
    expect(prepareRunButtons(0, false, true)).toMatchObject({
      llmDisabled: true,
      heuristicDisabled: true,
    });
    expect(prepareRunButtons(3, true, true)).toMatchObject({
      llmDisabled: true,
      heuristicDisabled: true,
    });
  });

  it("samples the groups with two or more passes, as sized and seeded", () => {
    const all = prepareSpreadCheck(GROUPS, options, input);
    expect(all.sample.map((g) => g.id)).toEqual(["two", "all", "more"]);
    expect(all.sampleText).toBe("3 of 3 eligible groups");
    expect(all.disabled).toBe(false);
    const two = prepareSpreadCheck(GROUPS, options, { ...input, sampleSize: "2", seed: "5" });
    expect(two.sample).toHaveLength(2);
    expect(two.sampleText).toBe("2 of 3 eligible groups");
    expect(prepareSpreadCheck(GROUPS.slice(0, 2), options, input).sampleText).toBe(
      "1 of 1 eligible group",
    );
  });

  it("says what the size and seed must be, and waits for what an LLM grader needs", () => {
    for (const bad of [
      { sampleSize: "0" },
      { sampleSize: "" },
      { sampleSize: "2.5" },
      { seed: "-1" },
    ]) {
      const view = prepareSpreadCheck(GROUPS, options, { ...input, ...bad });
      expect(view).toEqual({
        sample: [],
        sampleText: "sample: a whole number >= 1; seed: a whole number >= 0",
        disabled: true,
      });
    }
    expect(prepareSpreadCheck(GROUPS, options, { ...input, grader: "gar" }).disabled).toBe(true);
    expect(
      prepareSpreadCheck(GROUPS, options, { ...input, grader: "rubric", configured: true })
        .disabled,
    ).toBe(false);
    expect(prepareSpreadCheck(GROUPS, options, { ...input, running: true }).disabled).toBe(true);
    expect(prepareSpreadCheck([group("one", [1, 0])], options, input).disabled).toBe(true);
  });

  it("labels the spread check's run by its grader", () => {
    expect(spreadRunLabel("heuristic")).toBe("Spread check (heuristic grader)");
    expect(spreadRunLabel("gar")).toBe("Spread check (LLM group grader)");
    expect(spreadRunLabel("rubric")).toBe("Spread check (LLM rubric scorer)");
  });
});
