import { describe, expect, it } from "vitest";
import { testMessage, testRollout } from "../../test/rolloutFixtures.ts";
import { ANALYSIS_DEFAULTS } from "../analysis/analysisSettings.ts";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
} from "../analysis/annotations.ts";
import { spreadVerdict } from "../analysis/groupSpread.ts";
import type { RolloutGroup } from "../types.ts";
import { groupPromptKey, rolloutTurns } from "./groupHealth.ts";
import { hackExemplarsOf, hackTruth, markedHackIds } from "./hackSpread.ts";
import { RunHealthTally, runHealth } from "./runHealth.ts";

const call = { id: "c1", name: "lookup", arguments: '{"q":"x"}' };

/** Step 1: a mixed group with two components and a zero-std agent group; step 2: a failed group. */
const GOLDEN_RUN: { group: RolloutGroup; step: number }[] = [
  {
    step: 1,
    group: {
      id: "1/a",
      rollouts: [
        { c: "the cat sat on the mat", correct: 1, format: 1 },
        { c: "the cat sat on the mat", correct: 0, format: 1 },
        { c: "zzzz qqqq", correct: 0, format: 0 },
      ].map((r, i) =>
        testRollout({
          id: `1/a/${i}`,
          groupId: "1/a",
          index: i,
          completion: r.c,
          reward: null,
          rewards: { correct: r.correct, format: r.format },
        }),
      ),
    },
  },
  {
    step: 1,
    group: {
      id: "1/b",
      rollouts: [0, 1].map((i) =>
        testRollout({
          id: `1/b/${i}`,
          groupId: "1/b",
          index: i,
          completion: null,
          reward: 1,
          messages: [
            testMessage("assistant", "", { toolCalls: [call] }),
            testMessage("tool", "found", { toolCallId: "c1" }),
            testMessage("assistant", "done"),
          ],
        }),
      ),
    },
  },
  {
    step: 2,
    group: {
      id: "2/a",
      rollouts: ["aaa", "bbb"].map((c, i) =>
        testRollout({ id: `2/a/${i}`, groupId: "2/a", index: i, completion: c, reward: 0 }),
      ),
    },
  },
];

const ANNOTATED: Annotations = {
  ...ANNOTATIONS_EMPTY,
  groups: { "1/a": { ...GROUP_ANNOTATION_EMPTY, hacks: ["1/a/2"], reviewed: true } },
};

describe("runHealth on a hand-worked run", () => {
  const health = runHealth(GOLDEN_RUN, ANALYSIS_DEFAULTS, { clusterSample: 0 });

  it("tallies step 1 as worked by hand", () => {
    const s = health.steps[0]!;
    expect(s).toMatchObject({
      step: 1,
      groups: 2,
      rollouts: 5,
      passes: 4,
      zeroStdGroups: 1,
      mixedGroups: 1,
      clusteredGroups: 2,
    });
    expect(s.passRate).toBeCloseTo(0.8, 12);
    // Totals 2, 1, 0 (components summed) and 1, 1 (given rewards).
    expect(s.meanReward).toBeCloseTo(1, 12);
    expect(s.zeroStdShare).toBeCloseTo(0.5, 12);
    expect(s.mixedShare).toBeCloseTo(0.5, 12);
    // Characters 22 + 22 + 9 (completions) + 4 + 4 ("done", the last assistant text).
    expect(s.meanChars).toBeCloseTo(61 / 5, 12);
    // Turns: 1 per completion, 2 assistant messages per agent rollout; one tool call each.
    expect(s.meanTurns).toBeCloseTo(7 / 5, 12);
    expect(s.meanToolCalls).toBeCloseTo(2 / 5, 12);
    expect(s.components.correct).toBeCloseTo(1 / 3, 12);
    expect(s.components.format).toBeCloseTo(2 / 3, 12);
    // Within group a, cov(correct, t) = cov(format, t) = 1 and Σ (t - t̄)² = 2.
    expect(s.componentShares.correct).toBeCloseTo(0.5, 12);
    expect(s.componentShares.format).toBeCloseTo(0.5, 12);
    // Group a: two equal texts and one apart; group b: two equal transcripts.
    expect(s.clustersPerGroup).toBeCloseTo(1.5, 12);
    // Group a's totals spread; group b's are one value.
    expect([spreadVerdict([2, 1, 0]), spreadVerdict([1, 1])]).toEqual(["yes", "no"]);
    expect(s.spread).toEqual({ yes: 1, no: 1, na: 0 });
    expect(s.hackLikeShare).toBeNaN();
    expect(s.hackCorrected).toBeNull();
  });

  it("tallies step 2 and lists the components in first-seen order", () => {
    const s = health.steps[1]!;
    expect(s).toMatchObject({ step: 2, groups: 1, rollouts: 2, passes: 0, zeroStdGroups: 1 });
    expect(s.passRate).toBe(0);
    expect(s.meanChars).toBe(3);
    expect(s.components).toEqual({});
    expect(s.clustersPerGroup).toBe(2);
    expect(health.components).toEqual(["correct", "format"]);
  });

  it("counts people's hack marks and the rollouts like them", () => {
    const marked = markedHackIds(ANNOTATED);
    const exemplars = hackExemplarsOf(
      GOLDEN_RUN.map((x) => x.group),
      marked,
      ANALYSIS_DEFAULTS,
    );
    expect(exemplars.map((e) => e.rolloutId)).toEqual(["1/a/2"]);
    const h = runHealth(
      GOLDEN_RUN,
      ANALYSIS_DEFAULTS,
      { clusterSample: 0 },
      { annotations: ANNOTATED, exemplars },
    );
    expect(h.steps[0]!.hacks).toEqual({ human: 1, heuristic: 0, judge: 0 });
    expect(h.steps[0]!.hackShares.human).toBeCloseTo(0.2, 12);
    // The marked rollout is hack-like itself; nothing else is near it.
    expect(h.steps[0]!.hackLikeShare).toBeCloseTo(0.2, 12);
    expect(h.steps[1]!.hackLikeShare).toBe(0);
    // Judged: group a was reviewed. Its hack has no other exemplar to match (a miss), its two
    // other rollouts are not hack-like (two correct rejections).
    expect(h.judged).toEqual({ tp: 0, fp: 0, fn: 1, tn: 2 });
    // The test never finds the hack on judged rollouts (TPR 0): no corrected share exists.
    expect(h.steps[0]!.hackCorrected?.corrected).toBeNaN();
  });

  it("samples the diversity of each step by the hash of the group ids", () => {
    const one = runHealth(GOLDEN_RUN, ANALYSIS_DEFAULTS, { clusterSample: 1 });
    expect(one.steps[0]!.clusteredGroups).toBe(1);
    expect([1, 2]).toContain(one.steps[0]!.clustersPerGroup);
    expect(one.steps[1]!.clusteredGroups).toBe(1);
  });

  it("a run tallied a group at a time clusters only groups that can still enter the sample", () => {
    const groups = Array.from({ length: 400 }, (_, g) => ({
      step: 3,
      group: {
        id: `3/p${g}`,
        rollouts: [0, 1].map((i) =>
          testRollout({
            id: `3/p${g}/${i}`,
            groupId: `3/p${g}`,
            index: i,
            completion: `t${g % 7}`,
          }),
        ),
      },
    }));
    const whole = runHealth(groups, ANALYSIS_DEFAULTS, { clusterSample: 20 });
    const tally = new RunHealthTally(ANALYSIS_DEFAULTS, { clusterSample: 20 });
    for (const g of groups) tally.addBatch([g]);
    expect(tally.finish()).toEqual(whole);
    // Every group is the smallest hash of its own batch; once the sample holds 20, a group is
    // clustered only below the 20th: about 20 (1 + ln 20) of the 400.
    const clustered = tally.groups().filter((g) => g.clusters !== null).length;
    expect(clustered).toBeGreaterThanOrEqual(20);
    expect(clustered).toBeLessThan(150);
  });
});

describe("group health helpers", () => {
  it("a prompt's key is its group id without the step", () => {
    expect(groupPromptKey("12/abc", 12)).toBe("abc");
    expect(groupPromptKey("12/abc", 3)).toBe("12/abc");
    expect(groupPromptKey("abc", null)).toBe("abc");
  });

  it("a plain completion is one turn; a transcript counts its assistant messages", () => {
    expect(rolloutTurns(testRollout({ completion: "x" }))).toBe(1);
    expect(rolloutTurns(testRollout({ completion: null, messages: [] }))).toBe(0);
    expect(
      rolloutTurns(
        testRollout({
          completion: null,
          messages: [
            testMessage("user", "q"),
            testMessage("assistant", "a"),
            testMessage("assistant", "b"),
          ],
        }),
      ),
    ).toBe(2);
  });

  it("a rollout is judged for hacks when marked, labelled or in a reviewed group", () => {
    const a = {
      ...GROUP_ANNOTATION_EMPTY,
      hacks: ["h"],
      labels: { p: "pass" as const, d: "defer" as const },
    };
    expect(hackTruth(a, "h")).toBe(true);
    expect(hackTruth(a, "p")).toBe(false);
    expect(hackTruth(a, "d")).toBeNull();
    expect(hackTruth(a, "x")).toBeNull();
    expect(hackTruth({ ...a, reviewed: true }, "x")).toBe(false);
    expect(hackTruth(undefined, "x")).toBeNull();
  });
});
