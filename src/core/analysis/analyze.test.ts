import { describe, expect, it } from "vitest";
import type { ChatMessage, Rollout, RolloutGroup } from "../types.ts";
import {
  ANALYSIS_DEFAULTS,
  analysisAdvantages,
  analyzeDataset,
  rewardComponentNames,
  rolloutReward,
} from "./analyze.ts";
import { ANNOTATIONS_EMPTY, GROUP_ANNOTATION_EMPTY } from "./annotations.ts";
import { annotationsResolve } from "./resolve.ts";
import { rolloutText, rolloutToolCalls, textFromMessages } from "./text.ts";

function msg(role: string, content: string, toolCalls = 0): ChatMessage {
  return {
    role,
    content,
    toolCalls: Array.from({ length: toolCalls }, (_, i) => ({
      id: `c${i}`,
      name: "lookup",
      arguments: "{}",
    })),
    toolCallId: null,
    name: null,
  };
}

function rollout(groupId: string, index: number, over: Partial<Rollout> = {}): Rollout {
  return {
    id: `${groupId}/${index}`,
    groupId,
    index,
    prompt: "p",
    messages: [],
    completion: `answer number ${index} with some words`,
    reward: 0,
    rewards: {},
    answer: null,
    testsPassed: null,
    meta: {},
    source: { file: "t.jsonl", line: index + 1 },
    ...over,
  };
}

function group(
  id: string,
  rewards: (number | null)[],
  over: (i: number) => Partial<Rollout> = () => ({}),
): RolloutGroup {
  return { id, rollouts: rewards.map((reward, i) => rollout(id, i, { reward, ...over(i) })) };
}

describe("rolloutReward", () => {
  it("uses the given reward, else the sum of components, else NaN", () => {
    expect(rolloutReward(rollout("g", 0, { reward: 0.5, rewards: { a: 1 } }), null)).toBe(0.5);
    expect(
      rolloutReward(rollout("g", 0, { reward: null, rewards: { a: 1, b: null, c: 2 } }), null),
    ).toBe(3);
    expect(rolloutReward(rollout("g", 0, { reward: null }), null)).toBeNaN();
  });
  it("with weights set, recomputes from components (missing weights are 1)", () => {
    expect(rolloutReward(rollout("g", 0, { reward: 9, rewards: { a: 1, b: 2 } }), { a: 3 })).toBe(
      5,
    );
    expect(rolloutReward(rollout("g", 0, { reward: 9 }), { a: 3 })).toBe(9);
  });
});

describe("analyzeDataset", () => {
  const groups = [group("a", [1, 0, 0, 0]), group("b", [1, 1, 0, 1]), group("c", [null, 1])];

  it("summary counts and pass^k", () => {
    const a = analyzeDataset(groups);
    expect(a.summary).toMatchObject({
      rollouts: 10,
      groups: 3,
      passes: 5,
      mixedGroups: 3,
      zeroStdGroups: 1,
      unscorable: 1,
    });
    // Group c has one scorable reward: its std is 0, so its advantages are 0.
    expect(a.summary.passAtK["1"]).toBeCloseTo((0.25 + 0.75 + 0.5) / 3, 12);
    expect(a.summary.passAtK["4"]).toBe(0);
  });

  it("analyses a run of more groups than a call's arguments can hold (150,000)", () => {
    // A 100-step run of 1,500 prompts; Math.max(...perGroup) threw "Maximum call stack size exceeded".
    const one = group("g", [1]);
    const many = Array.from({ length: 150_000 }, (_, i) => (i === 7 ? group("k", [1, 0, 1]) : one));
    const a = analyzeDataset(many);
    expect(a.summary.groups).toBe(150_000);
    expect(Object.keys(a.summary.passAtK)).toEqual(["1", "2", "3"]);
  });

  it("advantages follow the settings, batch included", () => {
    const group = analyzeDataset(groups.slice(0, 2), { ...ANALYSIS_DEFAULTS, scale: "group" });
    expect(group.groups[0]!.rollouts[0]!.advantage).toBeCloseTo(1.4997, 4);
    const batch = analyzeDataset(groups.slice(0, 2), { ...ANALYSIS_DEFAULTS, scale: "batch" });
    expect(batch.groups[0]!.rollouts[0]!.advantage).toBeCloseTo(1.4029, 4);
    const rloo = analyzeDataset(groups.slice(0, 1), { ...ANALYSIS_DEFAULTS, estimator: "rloo" });
    expect(rloo.groups[0]!.rollouts[0]!.advantage).toBeCloseTo(1, 12);
  });

  it("GDPO uses the reward components when there are some", () => {
    const g = [
      group("A", [null, null], (i) => ({ rewards: { r1: i, r2: 0 } })),
      group("B", [null, null], (i) => ({ rewards: { r1: i, r2: i } })),
    ];
    expect(rewardComponentNames(g)).toEqual(["r1", "r2"]);
    const adv = analysisAdvantages(g, { ...ANALYSIS_DEFAULTS, aggregation: "normalize_then_sum" });
    expect(adv[1]![1]).toBeCloseTo(1.0954, 4);
  });

  it("rank, win rate, clusters, self-consistency and complementarity per rollout", () => {
    const g = group("g", [0.2, 0.9, 0.5, 0.9], (i) => ({
      completion: ["the very same text", "the very same text", "quick brown fox", "lazy dog jumps"][
        i
      ]!,
      answer: ["4", "4", "5", "4"][i]!,
      testsPassed: [["a", "b"], ["a"], ["a", "c"], []][i]!,
    }));
    const r = analyzeDataset([g]).groups[0]!;
    // Rank ties (default "average"): the two 0.9s share positions 2 and 3; "index" keeps index order.
    expect(r.rollouts.map((x) => x.rank)).toEqual([0, 5 / 6, 1 / 3, 5 / 6]);
    const byIndex = analyzeDataset([g], { ...ANALYSIS_DEFAULTS, rankTies: "index" }).groups[0]!;
    expect(byIndex.rollouts.map((x) => x.rank)).toEqual([0, 2 / 3, 1 / 3, 1]);
    // The place, best = 1: the same order, ties sharing their mean place.
    expect(r.rollouts.map((x) => x.place)).toEqual([4, 1.5, 3, 1.5]);
    expect(byIndex.rollouts.map((x) => x.place)).toEqual([4, 2, 3, 1]);
    expect(r.rankSource).toBe("reward");
    expect(r.rollouts.map((x) => x.winRate)).toEqual([0, 2 / 3, 1 / 3, 2 / 3]);
    expect(r.rollouts.map((x) => x.cluster)).toEqual([0, 0, 1, 2]);
    expect(r.rollouts.map((x) => x.clusterSize)).toEqual([2, 2, 1, 1]);
    expect(r.rollouts.map((x) => x.selfConsistency)).toEqual([0.75, 0.75, 0, 0.75]);
    expect(r.rollouts[1]!.complementarity).toBeCloseTo(1 / 3 / 4, 12);
    expect(r.nClusters).toBe(3);
    const half = analyzeDataset([g], { ...ANALYSIS_DEFAULTS, tieCredit: 0.5 }).groups[0]!;
    expect(half.rollouts[1]!.winRate).toBeCloseTo(2.5 / 3, 12);
  });

  it("GAR values only for annotated groups; incomplete rankings are reported", () => {
    const resolved = annotationsResolve(groups, {
      ...ANNOTATIONS_EMPTY,
      groups: {
        b: {
          ...GROUP_ANNOTATION_EMPTY,
          ranking: [["b/3"], ["b/0"]],
          hacks: [],
          labels: { "b/0": "pass" },
          notes: "n",
          reviewed: false,
        },
        a: {
          ...GROUP_ANNOTATION_EMPTY,
          ranking: [["a/0"], ["a/1"]],
          hacks: [],
          labels: {},
          notes: "",
          reviewed: false,
        },
      },
    });
    const out = analyzeDataset(groups, ANALYSIS_DEFAULTS, resolved);
    const a = out.groups[0]!;
    expect(a.gar.kind).toBe("applied");
    expect(a.rollouts.map((x) => x.garReward)).toEqual([1, 0, 0, 0]);
    expect(a.issues[0]!.message).toContain('"a/1" is ranked but fails');
    // Ranked: the ranked pass first, the rest below by reward; the rank transform and the win
    // rate follow the same order.
    expect(a.rankSource).toBe("human");
    expect(a.rollouts[0]!.place).toBe(1);
    expect(a.rollouts[0]!.winRate).toBe(1);
    a.rollouts.forEach((x) => expect(x.rank).toBeCloseTo((a.n - x.place) / (a.n - 1), 12));
    expect(out.groups[2]!.rankSource).toBe("reward");
    const b = out.groups[1]!;
    expect(b.gar).toEqual({ kind: "incomplete", unranked: ["b/1"] });
    expect(b.rollouts.every((x) => x.garReward === null)).toBe(true);
    expect(b.rollouts[0]!.humanLabel).toBe("pass");
    // The human rank is a place, best = 1, like every rank the studio shows.
    expect(b.rollouts.map((x) => x.humanRank)).toEqual([2, null, null, 1]);
    // An incomplete ranking gives no GAR, so the order stays the reward's.
    expect(b.rankSource).toBe("reward");
    expect(out.groups[2]!.gar.kind).toBe("none");
    expect(out.summary.incompleteRankings).toEqual(["b"]);
    expect(out.gar.groups).toBe(1);
  });

  it("a human ranking orders place, rank and win rate: tiers over the passes, fails below", () => {
    const h = group("h", [1, 1, 1, 0.2, 0]);
    const resolved = annotationsResolve([h], {
      ...ANNOTATIONS_EMPTY,
      groups: { h: { ...GROUP_ANNOTATION_EMPTY, ranking: [["h/2"], ["h/0", "h/1"]] } },
    });
    const a = analyzeDataset([h], ANALYSIS_DEFAULTS, resolved).groups[0]!;
    expect(a.rankSource).toBe("human");
    expect(a.rollouts.map((x) => x.place)).toEqual([2.5, 2.5, 1, 4, 5]);
    expect(a.rollouts.map((x) => x.rank)).toEqual([0.625, 0.625, 1, 0.25, 0]);
    // Win rates over the same order (a tie in a tier credits 0).
    expect(a.rollouts.map((x) => x.winRate)).toEqual([0.5, 0.5, 1, 0.25, 0]);
    expect(a.rollouts.map((x) => x.humanRank)).toEqual([2.5, 2.5, 1, null, null]);
    // Without the ranking the passes tie by reward.
    const plain = analyzeDataset([h]).groups[0]!;
    expect(plain.rollouts.map((x) => x.place)).toEqual([2, 2, 2, 4, 5]);
  });

  it("hacks zero in GAR and count in the stats", () => {
    const resolved = annotationsResolve(groups, {
      ...ANNOTATIONS_EMPTY,
      groups: {
        b: {
          ...GROUP_ANNOTATION_EMPTY,
          ranking: [["b/0"], ["b/1"]],
          hacks: ["b/3"],
          labels: {},
          notes: "",
          reviewed: false,
        },
      },
    });
    const out = analyzeDataset(groups, ANALYSIS_DEFAULTS, resolved);
    const b = out.groups[1]!;
    expect(b.rollouts.map((x) => x.effectiveReward)).toEqual([1, 1, 0, 0]);
    expect(b.rollouts[3]!.hack).toBe(true);
    const gar = b.rollouts.map((x) => x.garReward!);
    [7 / 6, 5 / 6, 0, 0].forEach((x, i) => expect(gar[i]).toBeCloseTo(x, 12));
    expect(out.gar.hacksZeroed).toBe(1);
  });
});

describe("annotationsResolve", () => {
  it("reports unknown groups and rollouts, and ids ranked twice", () => {
    const r = annotationsResolve([group("a", [1, 0])], {
      ...ANNOTATIONS_EMPTY,
      groups: {
        zz: {
          ...GROUP_ANNOTATION_EMPTY,
          ranking: [],
          hacks: [],
          labels: {},
          notes: "",
          reviewed: false,
        },
        a: {
          ...GROUP_ANNOTATION_EMPTY,
          ranking: [["a/0"], ["a/0", "a/9"]],
          hacks: ["a/7"],
          labels: { "a/8": "fail" },
          notes: "",
          reviewed: false,
        },
      },
    });
    expect(r.unknown.map((p) => p.message)).toEqual([
      'group "zz" is not in the data',
      'the ranking names rollout "a/9", which is not in group "a"',
      'the hacks list names rollout "a/7", which is not in group "a"',
      'the labels names rollout "a/8", which is not in group "a"',
    ]);
    expect(r.warnings[0]!.message).toContain("ranked twice");
    expect(r.byGroup.get("a")!.ranking).toEqual([[0]]);
  });
});

describe("completion text rules", () => {
  const transcript = [
    msg("user", "hi"),
    msg("assistant", "  first  "),
    msg("assistant", "", 2),
    msg("assistant", "final"),
    msg("user", "bye"),
  ];
  it("final-assistant, benchmax and all-assistant", () => {
    expect(textFromMessages(transcript, "final-assistant")).toBe("final");
    expect(textFromMessages(transcript, "benchmax")).toBe("");
    expect(textFromMessages(transcript.slice(0, 4), "benchmax")).toBe("final");
    expect(textFromMessages(transcript, "all-assistant")).toBe("first\nfinal");
  });
  it("a plain completion wins over messages; tool calls are counted", () => {
    expect(rolloutText(rollout("g", 0, { completion: " text " }), "benchmax")).toBe("text");
    const r = rollout("g", 0, { completion: null, messages: transcript });
    expect(rolloutText(r, "final-assistant")).toBe("final");
    expect(rolloutToolCalls(r)).toBe(2);
  });
});
