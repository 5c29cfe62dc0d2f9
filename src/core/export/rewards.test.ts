import { describe, expect, it } from "vitest";
import { expectClose } from "../../test/approx.ts";
import { ANALYSIS_DEFAULTS } from "../analysis/analyze.ts";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
} from "../analysis/annotations.ts";
import { garFactorsFromRanking, garRedistribute } from "../advantage/gar.ts";
import type { RolloutGroup } from "../types.ts";
import {
  FIXTURE_ANNOTATIONS,
  FIXTURE_GROUPS,
  fixtureGroup,
  fixtureRun,
} from "./__fixtures__/exportFixture.ts";
import {
  exportRewards,
  REWARD_EXPORT_DEFAULTS,
  rewardJudgeMode,
  rewardSourceFits,
  type RewardExportRow,
} from "./rewards.ts";
import { ExportError, exportJsonl } from "./text.ts";

/** Annotations that rank each group's rollouts (by index within the group) and mark hacks. */
function ranked(
  byGroup: Record<string, { ranking: number[][]; hacks?: number[] }>,
  extra: Partial<Annotations> = {},
): Annotations {
  return {
    ...ANNOTATIONS_EMPTY,
    ...extra,
    groups: Object.fromEntries(
      Object.entries(byGroup).map(([g, a]) => [
        g,
        {
          ...GROUP_ANNOTATION_EMPTY,
          ranking: a.ranking.map((tier) => tier.map((i) => `${g}/${i}`)),
          hacks: (a.hacks ?? []).map((i) => `${g}/${i}`),
        },
      ]),
    ),
  };
}

/** The exported file read back as a Python reader would: one JSON object per line. */
function readBack(
  rows: readonly RewardExportRow[],
): { group_id: string; shaped_reward: number | null }[] {
  return exportJsonl(rows)
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { group_id: string; shaped_reward: number | null });
}

/**
 * TRL's advantage (methods.md 3.2) with scale_rewards="none": A = R - nanmean over the group's rows,
 * with nan_to_num(A, 0). Written out here, independently of the exporter, on the rows read back.
 */
function trlScaleNone(
  rows: readonly { group_id: string; shaped_reward: number | null }[],
): number[] {
  const byGroup = new Map<string, number[]>();
  for (const r of rows)
    if (r.shaped_reward !== null)
      byGroup.set(r.group_id, [...(byGroup.get(r.group_id) ?? []), r.shaped_reward]);
  return rows.map((r) => {
    if (r.shaped_reward === null) return 0;
    const values = byGroup.get(r.group_id)!;
    return r.shaped_reward - values.reduce((s, v) => s + v, 0) / values.length;
  });
}

describe("rewards export, advantage mode from the human ranking (GAR, equation 3)", () => {
  it("TRL with scale_rewards='none' on the exported rewards gives equation 3 (methods.md 2.1, group of 8)", () => {
    const groups = [fixtureGroup("g", [1, 0, 1, 0, 0, 1, 0, 0])];
    const { rows } = exportRewards(groups, ranked({ g: { ranking: [[2], [0], [5]] } }));
    const back = readBack(rows);
    const eq3 = [0.625, -0.375, 0.8333, -0.375, -0.375, 0.4167, -0.375, -0.375];
    expectClose(trlScaleNone(back), eq3);
    // The same numbers as garRedistribute itself, to rounding.
    const direct = garRedistribute(
      [1, 0, 1, 0, 0, 1, 0, 0],
      garFactorsFromRanking([2, 0, 5]),
    ).advantages;
    expectClose(trlScaleNone(back), direct, 12);
    expectClose(
      rows.map((r) => r.advantage),
      direct,
      12,
    );
    expect(rows.map((r) => r.status)).toEqual(new Array(8).fill("redistributed"));
    expect(rows.map((r) => r.factor)).toEqual([0.75, null, 1, null, null, 0.5, null, null]);
  });

  it("reproduces whileai trl_reward's output and the batch vector of methods.md 2.6", () => {
    const groups = [
      fixtureGroup("a", [1, 1, 0, 0]),
      fixtureGroup("b", [1, 0, 0, 0]),
      fixtureGroup("c", [1, 1, 0, 1]),
    ];
    const annotations = ranked({
      a: { ranking: [[0], [1]] },
      b: { ranking: [[0]] },
      c: { ranking: [[0], [1], [3]] },
    });
    const shaped = exportRewards(groups, annotations).rows.map((r) => r.shaped_reward!);
    expectClose(shaped.slice(0, 4), [1.1667, 0.8333, 0, 0]);
    expectClose(shaped.slice(4), [1, 0, 0, 0, 1.0833, 1.0, 0.0, 0.9167]);
    // Only scale "none" keeps equation 3: "group" divides by the new std (methods.md 2.6).
    expectClose(
      trlScaleNone(readBack(exportRewards(groups, annotations).rows)).slice(0, 4),
      [0.6667, 0.3333, -0.5, -0.5],
    );
  });

  it("zeroes a hack first and records it (methods.md 2.3: ranking [0], hacks [1])", () => {
    const groups = [fixtureGroup("g", [1, 1, 0, 0])];
    const { rows } = exportRewards(groups, ranked({ g: { ranking: [[0]], hacks: [1] } }));
    expect(rows.map((r) => r.shaped_reward)).toEqual([1, 0, 0, 0]);
    expect(rows.map((r) => r.hack_zeroed)).toEqual([false, true, false, false]);
    expectClose(
      rows.map((r) => r.advantage),
      [0.75, -0.25, -0.25, -0.25],
    );
    // With hack zeroing off the hack keeps its reward and takes min_factor as an unranked pass.
    const kept = exportRewards(groups, ranked({ g: { ranking: [[0]], hacks: [1] } }), {
      ...ANALYSIS_DEFAULTS,
      hackZero: false,
    }).rows;
    expect(kept.map((r) => r.hack_zeroed)).toEqual([false, false, false, false]);
    expect(kept.map((r) => r.factor)).toEqual([1, 0.5, null, null]);
    expect(kept[0]!.settings).toMatchObject({ hack_zero: false, cap: 3, min_factor: 0.5 });
  });

  it("keeps the original rewards of unranked and incomplete groups, and says so", () => {
    const { rows } = exportRewards(FIXTURE_GROUPS, FIXTURE_ANNOTATIONS);
    const byGroup = (g: string) => rows.filter((r) => r.group_id === g);
    expect(byGroup("refund-22").map((r) => [r.status, r.shaped_reward])).toEqual([
      ["incomplete", 1],
      ["incomplete", 0],
      ["incomplete", 1],
    ]);
    expect(byGroup("address-9").map((r) => [r.status, r.shaped_reward])).toEqual([
      ["unranked", 0],
      ["unranked", 1],
      ["unranked", 0],
      ["unranked", 1],
    ]);
    // An all-pass group with a hack: the zeroed hack makes it mixed (garHuman zeroes hacks in
    // any group), and the two tied passes share the mass unchanged.
    expect(byGroup("cancel-3").map((r) => [r.status, r.shaped_reward, r.hack_zeroed])).toEqual([
      ["redistributed", 1, false],
      ["redistributed", 1, false],
      ["redistributed", 0, true],
    ]);
    // An unscorable rollout has no reward; TRL's nan_to_num gives it advantage 0.
    expect(byGroup("lookup-4").map((r) => [r.reward, r.shaped_reward, r.advantage])).toEqual([
      [0, 0, 0],
      [null, null, 0],
      [0, 0, 0],
    ]);
    expect(rows.every((r) => r.source === "human" && r.judge_run_id === null)).toBe(true);
  });

  it("in the text form, carries prompt and completion as judges read them", () => {
    const text = (settings = ANALYSIS_DEFAULTS) =>
      exportRewards(FIXTURE_GROUPS, FIXTURE_ANNOTATIONS, settings, REWARD_EXPORT_DEFAULTS, "text");
    const chat = text().rows.find((r) => r.rollout_id === "refund-22/1")!;
    expect(chat.prompt).toBe("system: You are a support agent.\n\nuser: Refund order 22.");
    expect(chat.completion).toBe("Refunded order 22, attempt 1.");
    const benchmax = text({ ...ANALYSIS_DEFAULTS, completionRule: "benchmax" }).rows.find(
      (r) => r.rollout_id === "refund-22/1",
    )!;
    // The transcript ends on a user turn: benchmax's strict rule reads "".
    expect(benchmax.completion).toBe("");
    expect(benchmax.settings.completion_rule).toBe("benchmax");
  });

  it("in the conversational form (the default), no completion rule applies: the rows say so", () => {
    const rows = (rule: "final-assistant" | "benchmax") =>
      exportRewards(FIXTURE_GROUPS, FIXTURE_ANNOTATIONS, {
        ...ANALYSIS_DEFAULTS,
        completionRule: rule,
      }).rows;
    expect(rows("benchmax")).toEqual(rows("final-assistant"));
    expect(rows("benchmax")[0]!.settings.completion_rule).toBe("messages");
    const chat = rows("benchmax").find((r) => r.rollout_id === "refund-22/1")!;
    expect(Array.isArray(chat.completion) && chat.completion.length).toBe(4);
  });
});

describe("rewards export, advantage mode from a gar judge run", () => {
  const options = { ...REWARD_EXPORT_DEFAULTS, source: "judge" as const };

  it("redistributes judged groups, falls back on a judge error and marks what was not judged", () => {
    const { rows, run } = exportRewards(
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      options,
    );
    expect(run?.info.id).toBe("gar-1");
    const byGroup = (g: string) => rows.filter((r) => r.group_id === g);
    // refund-17: tiers [[0], [2, 1]] on [1, 1, 1, 0]: factors 1, 0.5833.., 0.5833...
    const r17 = byGroup("refund-17");
    expect(r17.map((r) => r.status)).toEqual(new Array(4).fill("redistributed"));
    const f = garFactorsFromRanking([0, [2, 1]]);
    expectClose(
      r17.map((r) => r.advantage),
      garRedistribute([1, 1, 1, 0], f).advantages,
      12,
    );
    expect(byGroup("refund-22").map((r) => [r.status, r.shaped_reward])).toEqual([
      ["fallback", 1],
      ["fallback", 0],
      ["fallback", 1],
    ]);
    // address-9: the judge zeroes the hack address-9/1; one pass is left.
    expect(byGroup("address-9").map((r) => [r.shaped_reward, r.hack_zeroed])).toEqual([
      [0, false],
      [0, true],
      [0, false],
      [1, false],
    ]);
    // whileai never grades an all-pass group: its hack mark does not exist for a judge.
    expect(byGroup("cancel-3").map((r) => [r.status, r.shaped_reward])).toEqual([
      ["unmixed", 1],
      ["unmixed", 1],
      ["unmixed", 1],
    ]);
    expect(rows[0]).toMatchObject({
      source: "judge",
      judge_run_id: "gar-1",
      judge_source: "heuristic",
      judge_prompt_version: "gar-v1-0123abcd",
      rubric_version: null,
    });
  });

  it("marks a mixed group the run did not reach as not judged", () => {
    const groups = [fixtureGroup("g", [1, 0]), fixtureGroup("h", [1, 0])];
    const annotations = {
      ...ANNOTATIONS_EMPTY,
      judgeRuns: [fixtureRun("r", "gar", { g: { tiers: [["g/0"]] } })],
    };
    const { rows } = exportRewards(groups, annotations, ANALYSIS_DEFAULTS, options);
    expect(rows.map((r) => r.status)).toEqual([
      "redistributed",
      "redistributed",
      "not-judged",
      "not-judged",
    ]);
  });

  it("refuses what the annotations do not hold, naming the field", () => {
    const thrown = (f: () => unknown): ExportError => {
      try {
        f();
      } catch (e) {
        if (e instanceof ExportError) return e;
        throw e;
      }
      throw new Error("no ExportError");
    };
    expect(
      thrown(() => exportRewards(FIXTURE_GROUPS, ANNOTATIONS_EMPTY, ANALYSIS_DEFAULTS, options))
        .message,
    ).toMatch(/no gar judge run/);
    const unknown = thrown(() =>
      exportRewards(FIXTURE_GROUPS, FIXTURE_ANNOTATIONS, ANALYSIS_DEFAULTS, {
        ...options,
        judgeRunId: "nope",
      }),
    );
    expect(unknown.field).toBe("judgeRuns");
    expect(unknown.message).toMatch(/no judge run has id "nope" \(runs: gar-1, rubric-1\)/);
    const wrong = thrown(() =>
      exportRewards(FIXTURE_GROUPS, FIXTURE_ANNOTATIONS, ANALYSIS_DEFAULTS, {
        ...options,
        judgeRunId: "rubric-1",
      }),
    );
    expect(wrong.field).toBe("judgeRuns[1].info.mode");
    const stray = {
      ...ANNOTATIONS_EMPTY,
      judgeRuns: [fixtureRun("r", "gar", { g: { tiers: [["g/0"], ["g/7"]] } })],
    };
    const e = thrown(() =>
      exportRewards([fixtureGroup("g", [1, 1, 0])], stray, ANALYSIS_DEFAULTS, options),
    );
    expect(e.field).toBe("judgeRuns[0].groups.g.tiers[1]");
    expect(e.message).toBe('names rollout "g/7", which is not in group "g"');
    expect(
      thrown(() =>
        exportRewards(FIXTURE_GROUPS, FIXTURE_ANNOTATIONS, ANALYSIS_DEFAULTS, {
          ...REWARD_EXPORT_DEFAULTS,
          mode: "reward",
        }),
      ).message,
    ).toMatch(/choose the judge source/);
  });
});

describe("rewards export, reward mode from a rubric run (GRS, equation 2)", () => {
  const options = { ...REWARD_EXPORT_DEFAULTS, source: "judge" as const, mode: "reward" as const };
  const run = (
    scores: Record<string, { solution: number; behavior: number }>,
    failed: string[] = [],
  ) => ({
    ...ANNOTATIONS_EMPTY,
    judgeRuns: [fixtureRun("rubric-9", "rubric", { g: { scores, failed, rubricVersion: 3 } })],
  });

  it("s = .5, b = .8 on R = [1, .1, 1, 0] gives [.4, .1, .4, 0] (methods.md 2.4)", () => {
    const groups: RolloutGroup[] = [fixtureGroup("g", [1, 0.1, 1, 0])];
    const s = { solution: 0.5, behavior: 0.8 };
    const { rows } = exportRewards(groups, run({ "g/0": s, "g/2": s }), ANALYSIS_DEFAULTS, options);
    expectClose(
      rows.map((r) => r.shaped_reward!),
      [0.4, 0.1, 0.4, 0],
    );
    expect(rows.map((r) => r.status)).toEqual(["scored", "failing", "scored", "failing"]);
    expect(rows[0]).toMatchObject({
      solution: 0.5,
      behavior: 0.8,
      rubric_version: 3,
      mode: "reward",
    });
    expect(rows[0]!.settings).toEqual({
      pass_threshold: 0.5,
      floor: 0,
      completion_rule: "messages",
      reward_weights: null,
    });
  });

  it("floor .6 on R = [1, 0] gives [.48, 0]; a failed score keeps R_test", () => {
    const s = { solution: 0.5, behavior: 0.8 };
    const floored = exportRewards(
      [fixtureGroup("g", [1, 0])],
      run({ "g/0": s }),
      ANALYSIS_DEFAULTS,
      {
        ...options,
        floor: 0.6,
      },
    ).rows;
    expectClose(
      floored.map((r) => r.shaped_reward!),
      [0.48, 0],
    );
    const failed = exportRewards(
      [fixtureGroup("g", [1, 1, 0])],
      run({ "g/0": s }, ["g/1"]),
      ANALYSIS_DEFAULTS,
      options,
    ).rows;
    expect(failed.map((r) => [r.status, r.shaped_reward])).toEqual([
      ["scored", 0.4],
      ["unscored", 1],
      ["failing", 0],
    ]);
    expect(() =>
      exportRewards([fixtureGroup("g", [1, 0])], run({}), ANALYSIS_DEFAULTS, {
        ...options,
        floor: 1,
      }),
    ).toThrow(RangeError);
  });

  it("reads the newest rubric run of the fixture; unjudged groups keep their rewards", () => {
    const { rows } = exportRewards(FIXTURE_GROUPS, FIXTURE_ANNOTATIONS, ANALYSIS_DEFAULTS, options);
    expect(rows.filter((r) => r.group_id === "address-9").map((r) => r.shaped_reward)).toEqual([
      0, 0.25, 0, 1,
    ]);
    expect(rows.filter((r) => r.group_id === "cancel-3").map((r) => r.status)).toEqual([
      "not-judged",
      "not-judged",
      "not-judged",
    ]);
  });
});

describe("which judgement a reward mode reads", () => {
  it("advantage mode reads gar runs, reward mode rubric runs", () => {
    expect(rewardJudgeMode("advantage")).toBe("gar");
    expect(rewardJudgeMode("reward")).toBe("rubric");
  });

  it("reward mode needs the judge source; advantage mode takes either", () => {
    expect(rewardSourceFits("human", "advantage")).toBe(true);
    expect(rewardSourceFits("judge", "advantage")).toBe(true);
    expect(rewardSourceFits("judge", "reward")).toBe(true);
    expect(rewardSourceFits("human", "reward")).toBe(false);
  });
});
