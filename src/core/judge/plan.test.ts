/**
 * Plans and runs for each mode from synthetic outcomes: index to rollout id mapping, unusable replies
 * as judge errors, cancelled groups left out, skipped groups reported, flip rate, heuristic runs,
 * sampling and the spread report of a run (methods.md 2.5's seed example).
 */
import { describe, expect, it } from "vitest";
import { testMessage, testRollout } from "../../test/rolloutFixtures.ts";
import type { RolloutGroup } from "../types.ts";
import { judgeAccountingEmpty } from "./accounting.ts";
import { judgePlanCluster } from "./clusterPlan.ts";
import { judgePlanGar } from "./garPlan.ts";
import { judgePlanPairwise, judgeRunFlipRate } from "./pairwisePlan.ts";
import {
  HEURISTIC_VERSION,
  judgeHeuristicRun,
  judgeRunErrors,
  judgeRunFromPlan,
  judgeRunId,
  JUDGE_BUILD_DEFAULTS,
  type JudgeRunMeta,
  type JudgeTaskOutcome,
  type JudgeTaskSpec,
} from "./plan.ts";
import { judgePlanRubric } from "./rubricPlan.ts";
import {
  judgeRunSpread,
  judgeSample,
  judgeSampleValid,
  judgeScopeGroups,
  judgeSpreadEligible,
} from "./scope.ts";
import { judgeClip, judgeRolloutText, judgeTaskText } from "./judgeText.ts";
import type { RubricBook } from "./rubricBook.ts";
import type { JudgeRun } from "./runs.ts";
import { judgeFailure, type JudgeFailure } from "./types.ts";
import { judgeRunVerdicts } from "./runs.ts";

function group(id: string, rewards: number[], texts?: string[]): RolloutGroup {
  return {
    id,
    rollouts: rewards.map((reward, i) =>
      testRollout({
        id: `${id}/${i}`,
        groupId: id,
        index: i,
        prompt: `task ${id}`,
        completion: texts?.[i] ?? `answer ${i}`,
        reward,
      }),
    ),
  };
}

const META: JudgeRunMeta = {
  id: "run-1",
  source: "llm",
  model: "m",
  baseUrl: "http://127.0.0.1:1/v1",
  startedAt: "2026-01-01T00:00:00.000Z",
  finishedAt: "2026-01-01T00:00:01.000Z",
  accounting: judgeAccountingEmpty(),
  costUsd: null,
  cancelled: false,
};

/** Replies to every task through its own parser, as the client would. */
function answer<T>(
  tasks: readonly JudgeTaskSpec<T>[],
  reply: (task: JudgeTaskSpec<T>, i: number) => string | JudgeFailure,
): JudgeTaskOutcome<T>[] {
  return tasks.map((t, i) => {
    const r = reply(t, i);
    if (typeof r !== "string") return { id: t.id, ok: false, error: r };
    const parsed = t.parse(r);
    return parsed.ok
      ? { id: t.id, ok: true, value: parsed.value }
      : { id: t.id, ok: false, error: parsed.error };
  });
}

describe("judge text", () => {
  it("renders a transcript with roles, tool calls and results, and clips head and tail", () => {
    const r = testRollout({
      completion: null,
      messages: [
        testMessage("user", "refund W123"),
        testMessage("assistant", "", {
          toolCalls: [{ id: "c1", name: "get_order", arguments: '{"id":"W123"}' }],
        }),
        testMessage("tool", '{"status":"ok"}', { name: "get_order" }),
        testMessage("assistant", "Done."),
      ],
    });
    expect(judgeRolloutText(r)).toBe(
      '[user] refund W123\n\n[assistant calls get_order] {"id":"W123"}\n\n[tool get_order] {"status":"ok"}\n\n[assistant] Done.',
    );
    const clipped = judgeClip("a".repeat(60) + "b".repeat(40), 50);
    expect(clipped).toBe(`${"a".repeat(30)}\n[… 50 characters cut …]\n${"b".repeat(20)}`);
    expect(judgeTaskText({ id: "x", rollouts: [testRollout({ prompt: null })] })).toContain(
      "no prompt recorded",
    );
  });
});

describe("gar plan", () => {
  const groups = [group("a", [1, 0, 1, 1]), group("b", [0, 0]), group("c", [1, 1])];

  it("asks one request per group with passes, maps indices to ids, skips the rest", () => {
    const plan = judgePlanGar(groups);
    expect(plan.tasks.map((t) => t.id)).toEqual(["a", "c"]);
    expect(plan.skipped).toEqual([{ groupId: "b", reason: "no passes to rank" }]);
    expect(plan.promptVersion).toMatch(/^gar-v1@/);
    const outcomes = answer(plan.tasks, (t) =>
      t.id === "a"
        ? '<think>hmm</think>```json\n{"tiers": [[3], [0]], "hacks": [2], "reason": "r"}\n```'
        : '{"tiers": [[0, 1]]}',
    );
    const run = judgeRunFromPlan(plan, outcomes, META);
    expect(run.info).toMatchObject({ mode: "gar", id: "run-1", promptVersion: plan.promptVersion });
    expect(run.groups.a).toMatchObject({ tiers: [["a/3"], ["a/0"]], hacks: ["a/2"], reason: "r" });
    expect(run.groups.c!.tiers).toEqual([["c/0", "c/1"]]);
    expect(judgeRunVerdicts(run, groups[0]!, [1, 0, 1, 1])).toEqual(
      new Map([
        ["a/0", "pass"],
        ["a/1", "fail"],
        ["a/2", "fail"],
        ["a/3", "pass"],
      ]),
    );
  });

  it("an unusable reply is the group's judge error; a cancelled group has no entry", () => {
    const plan = judgePlanGar(groups);
    const outcomes = answer(plan.tasks, (t) =>
      t.id === "a" ? '{"tiers": [[3], [0]]}' : judgeFailure("cancelled", "the run was cancelled"),
    );
    const run = judgeRunFromPlan(plan, outcomes, { ...META, cancelled: true });
    expect(run.groups.a!.error).toEqual(judgeFailure("invalid_reply", "omitted passes 2"));
    expect(run.groups.a!.tiers).toEqual([]);
    expect(run.groups).not.toHaveProperty("c");
    expect(judgeRunErrors(run)).toEqual([
      { groupId: "a", error: judgeFailure("invalid_reply", "omitted passes 2") },
    ]);
  });

  it("rejects outcomes that do not match the tasks", () => {
    const plan = judgePlanGar(groups);
    expect(() => plan.results([])).toThrow("expected 2 judge outcomes, got 0");
    expect(() =>
      plan.results([
        { id: "c", ok: true, value: { tiers: [], hacks: [], reason: null } },
        { id: "a", ok: true, value: { tiers: [], hacks: [], reason: null } },
      ]),
    ).toThrow('judge outcome 0 is for "c", not "a"');
  });

  it("uses the settings' weights and threshold for pass or fail", () => {
    const g: RolloutGroup = {
      id: "w",
      rollouts: [
        testRollout({ id: "w/0", reward: 0, rewards: { x: 1, y: 0 } }),
        testRollout({ id: "w/1", reward: 1, rewards: { x: 0, y: 0 } }),
      ],
    };
    const plan = judgePlanGar([g], { ...JUDGE_BUILD_DEFAULTS, rewardWeights: { x: 1, y: 1 } });
    expect(plan.tasks[0]!.prompt.messages[1]!.content).toContain("passes: 0)");
  });
});

describe("pairwise plan", () => {
  it("asks every pair once, or in both orders, and reports position flips", () => {
    const g = group("p", [1, 0, 1]);
    const one = judgePlanPairwise([g]);
    expect(one.tasks).toHaveLength(3);
    const both = judgePlanPairwise([g], JUDGE_BUILD_DEFAULTS, { bothOrders: true, among: "all" });
    expect(both.tasks).toHaveLength(6);
    // The first response shown always wins: every pair flips.
    const run = judgeRunFromPlan(
      both,
      answer(both.tasks, () => '{"winner": "A"}'),
      META,
    );
    expect(run.info.mode).toBe("pairwise");
    expect(run.groups.p!.pairs).toEqual([
      { a: "p/0", b: "p/1", winner: "tie", flipped: true },
      { a: "p/0", b: "p/2", winner: "tie", flipped: true },
      { a: "p/1", b: "p/2", winner: "tie", flipped: true },
    ]);
    expect(judgeRunFlipRate(run)).toEqual({ pairs: 3, flips: 3, rate: 1 });
    // A consistent judge: rollout 0 beats everyone in both orders; no flips.
    const consistent = judgeRunFromPlan(
      both,
      answer(both.tasks, (t) => {
        const [, x, y, order] = t.id.split("\u0000");
        const first = order === "ab" ? x : y;
        const second = order === "ab" ? y : x;
        return `{"winner": "${first === "p/0" ? "A" : second === "p/0" ? "B" : "tie"}"}`;
      }),
      META,
    );
    expect(consistent.groups.p!.pairs.map((p) => p.winner)).toEqual(["a", "a", "tie"]);
    expect(judgeRunFlipRate(consistent)).toEqual({ pairs: 3, flips: 0, rate: 0 });
  });

  it("a failed comparison has no winner; a group with none decided is a judge error", () => {
    const g = group("p", [1, 0, 1]);
    const plan = judgePlanPairwise([g], JUDGE_BUILD_DEFAULTS, {
      bothOrders: false,
      among: "passes",
    });
    expect(plan.tasks).toHaveLength(1);
    const fail = judgeFailure("timeout", "no reply within 5 ms");
    const run = judgeRunFromPlan(
      plan,
      answer(plan.tasks, () => fail),
      META,
    );
    expect(run.groups.p!.error).toEqual(fail);
    expect(run.groups.p!.pairs).toEqual([{ a: "p/0", b: "p/2", winner: null, flipped: null }]);
    expect(run.groups.p!.reason).toContain("1 request failed (timeout: no reply within 5 ms)");
    expect(
      judgePlanPairwise([group("q", [1, 0])], JUDGE_BUILD_DEFAULTS, {
        bothOrders: false,
        among: "passes",
      }).skipped,
    ).toEqual([{ groupId: "q", reason: "fewer than two passes" }]);
  });
});

describe("rubric plan", () => {
  const book: RubricBook = {
    r: {
      versions: [
        { version: 1, savedAt: "t", author: "human", solution: ["old"], behavior: [] },
        {
          version: 2,
          savedAt: "t",
          author: "human",
          solution: ["refund once"],
          behavior: ["polite"],
        },
      ],
      labelVersions: {},
    },
  };

  it("scores every pass with the current rubric; skips tasks without one", () => {
    const plan = judgePlanRubric([group("r", [1, 0, 1]), group("s", [1])], book);
    expect(plan.skipped).toEqual([{ groupId: "s", reason: "the task has no rubric" }]);
    expect(plan.tasks.map((t) => t.id)).toEqual(["r\u0000r/0", "r\u0000r/2"]);
    expect(plan.tasks[0]!.prompt.messages[1]!.content).toContain("- refund once");
    const fail = judgeFailure("invalid_reply", "solution 2 is not a number in [0, 1]");
    const run = judgeRunFromPlan(
      plan,
      answer(plan.tasks, (_, i) => (i === 0 ? '{"solution": 0.5, "behavior": 1}' : fail)),
      META,
    );
    expect(run.groups.r).toMatchObject({
      error: null,
      scores: { "r/0": { solution: 0.5, behavior: 1 } },
      failed: ["r/2"],
      rubricVersion: 2,
    });
    const allFailed = judgeRunFromPlan(
      plan,
      answer(plan.tasks, () => fail),
      META,
    );
    expect(allFailed.groups.r!.error).toEqual(fail);
  });
});

describe("cluster plan", () => {
  it("labels every rollout with the judge's cluster; a bad assignment is a judge error", () => {
    const plan = judgePlanCluster([group("k", [1, 0, 1]), group("one", [1])]);
    expect(plan.skipped).toEqual([{ groupId: "one", reason: "fewer than two rollouts" }]);
    const good = judgeRunFromPlan(
      plan,
      answer(
        plan.tasks,
        () =>
          '{"assignments": [{"index": 0, "cluster_id": "x", "label": "refund"}, {"index": 1, "cluster_id": "y"}, {"index": 2, "cluster_id": "x"}]}',
      ),
      META,
    );
    expect(good.groups.k!.clusters).toEqual({ "k/0": "x", "k/1": "y", "k/2": "x" });
    expect(good.groups.k!.reason).toBe("2 clusters: x = refund");
    const bad = judgeRunFromPlan(
      plan,
      answer(
        plan.tasks,
        () => '{"assignments": [{"index": 0, "cluster_id": "x"}, {"index": 0, "cluster_id": "y"}]}',
      ),
      META,
    );
    expect(bad.groups.k!.error?.kind).toBe("invalid_reply");
    expect(bad.groups.k!.error?.message).toContain("index 0 is repeated");
  });
});

describe("heuristic run, ids, scope, sample", () => {
  it("is a gar run with source heuristic, no requests, and skips groups without passes", () => {
    const groups = [
      group("h", [1, 1, 0], ["Refunded order W1234567.", "Refunded.", "no"]),
      group("z", [0, 0]),
    ];
    const { run, skipped } = judgeHeuristicRun(groups, JUDGE_BUILD_DEFAULTS, {
      id: "h1",
      startedAt: "s",
      finishedAt: "f",
    });
    expect(run.info).toMatchObject({
      mode: "gar",
      source: "heuristic",
      model: "heuristic",
      promptVersion: HEURISTIC_VERSION,
      costUsd: null,
    });
    expect(run.info.accounting.requests).toBe(0);
    expect(run.groups.h).toMatchObject({ tiers: [["h/1"]], hacks: ["h/0"] });
    expect(run.groups.h!.reason).toMatch(/^heuristic: /);
    expect(skipped).toEqual([{ groupId: "z", reason: "no passes to rank" }]);
  });

  it("makes run ids unique", () => {
    const runs = [{ info: { id: "gar-t" } }, { info: { id: "gar-t-2" } }] as unknown as JudgeRun[];
    expect(judgeRunId("gar", "t", runs)).toBe("gar-t-3");
    expect(judgeRunId("rubric", "t", runs)).toBe("rubric-t");
  });

  it("picks scopes and a seeded sample that ignores the file's order", () => {
    const groups = [
      group("m", [1, 0]),
      group("all", [1, 1]),
      group("none", [0, 0]),
      group("two", [1, 1, 0]),
    ];
    expect(judgeScopeGroups(groups, "mixed").map((g) => g.id)).toEqual(["m", "two"]);
    expect(judgeScopeGroups(groups, "all")).toHaveLength(4);
    expect(
      judgeScopeGroups(groups, "selected", JUDGE_BUILD_DEFAULTS, "none").map((g) => g.id),
    ).toEqual(["none"]);
    expect(judgeSpreadEligible(groups).map((g) => g.id)).toEqual(["all", "two"]);
    const many = Array.from({ length: 50 }, (_, i) => group(`g${i}`, [1, 1]));
    const a = judgeSample(many, 10, 7).map((g) => g.id);
    const b = judgeSample([...many].reverse(), 10, 7).map((g) => g.id);
    expect(a).toHaveLength(10);
    expect([...b].reverse()).toEqual(a);
    expect(judgeSample(many, 10, 8).map((g) => g.id)).not.toEqual(a);
    expect(judgeSample(many, 99, 1)).toHaveLength(50);
  });

  it("draws a sample of a whole number >= 1 of groups, with a whole seed >= 0", () => {
    expect(judgeSampleValid(1, 0)).toBe(true);
    expect(judgeSampleValid(20, 7)).toBe(true);
    expect(judgeSampleValid(0, 0)).toBe(false);
    expect(judgeSampleValid(2.5, 0)).toBe(false);
    expect(judgeSampleValid(NaN, 0)).toBe(false);
    expect(judgeSampleValid(5, -1)).toBe(false);
    expect(judgeSampleValid(5, 0.5)).toBe(false);
  });
});

describe("spread of a run (methods.md 2.5 seed example)", () => {
  it("reproduces 'spread: yes' from the factors of the non-hack passes", () => {
    // refund-17: passes 0 and 1, ranked [1, 0]; refund-22: all three pass, [0, 1] with hack 2.
    const run: JudgeRun = {
      info: { ...META, mode: "gar", promptVersion: "v" },
      groups: {
        "refund-17": { ...emptyResult(), tiers: [["17/1"], ["17/0"]] },
        "refund-22": { ...emptyResult(), tiers: [["22/0"], ["22/1"]], hacks: ["22/2"] },
        single: { ...emptyResult(), tiers: [["s/0"]] },
        broken: { ...emptyResult(), error: judgeFailure("malformed_reply", "x") },
      },
    };
    const report = judgeRunSpread(run, 0.5)!;
    expect(report.n).toBe(4);
    expect(report.groups).toBe(2);
    expect(report.ok).toBe(true);
    expect(report.text).toBe(
      "spread check: 4 grader scores over 2 group(s), std 0.250, 0% within 0.05 of the median 0.75\nspread: yes. The grader tells these passes apart.",
    );
  });

  it("uses s·b for rubric runs and says what to change when there is no spread", () => {
    const run: JudgeRun = {
      info: { ...META, mode: "rubric", promptVersion: "v" },
      groups: {
        g: {
          ...emptyResult(),
          scores: {
            a: { solution: 0.93, behavior: 1 },
            b: { solution: 0.93, behavior: 1 },
            c: { solution: 0.94, behavior: 1 },
          },
        },
      },
    };
    const report = judgeRunSpread(run, 0.5)!;
    expect(report.ok).toBe(false);
    expect(report.text).toContain("no spread (");
    expect(report.text).toContain("use a stronger grader model");
    expect(judgeRunSpread({ ...run, info: { ...run.info, mode: "cluster" } }, 0.5)).toBeNull();
  });
});

function emptyResult() {
  return {
    error: null,
    tiers: [],
    hacks: [],
    scores: {},
    failed: [],
    clusters: {},
    pairs: [],
    rubricVersion: null,
    reason: null,
  };
}
