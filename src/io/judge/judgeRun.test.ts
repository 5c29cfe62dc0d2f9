/**
 * Judge plans sent by the real `openai` client to the local stub, read back into runs: the group
 * grader's tiers by rollout id, an unusable reply as the group's judge error with its accounting, a
 * 429 retried, pairwise in both orders with the flip rate, rubric scores, clusters, a cancelled run;
 * and the key in no run.
 */
import { describe, expect, it } from "vitest";
import {
  type RolloutGroup,
  judgePlanCluster,
  judgePlanGar,
  judgePlanPairwise,
  judgePlanRubric,
  judgeRunFlipRate,
  JUDGE_BUILD_DEFAULTS,
} from "../../core/index.ts";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { stubCompletion, type JudgeStub, type StubRequest } from "../../test/judgeStub.ts";
import { judgeStubs, stubSettings } from "../../test/judgeStubs.ts";
import { runJudge, type JudgeSettings } from "./judgeClient.ts";
import { judgeRunPlan, type JudgeSender } from "./judgeRun.ts";

const KEY = "sk-test-CANARYrun9q8w7e6r5t";

const stub = judgeStubs();

function settings(s: JudgeStub, over: Partial<JudgeSettings> = {}): JudgeSettings {
  return stubSettings(s, KEY, { concurrency: 2, ...over });
}

const sender =
  (cfg: JudgeSettings): JudgeSender =>
  (tasks, options) =>
    runJudge(cfg, tasks, options);

function group(id: string, rewards: number[]): RolloutGroup {
  return {
    id,
    rollouts: rewards.map((reward, i) =>
      testRollout({
        id: `${id}-r${i}`,
        groupId: id,
        index: i,
        prompt: `Task of ${id}`,
        completion: `attempt ${i} of ${id}`,
        reward,
      }),
    ),
  };
}

const userText = (r: StubRequest): string => {
  const body = r.body as { messages: { role: string; content: string }[] };
  return body.messages.find((m) => m.role === "user")!.content;
};

const INFO = { model: "judge-test", existing: [], now: () => new Date("2026-02-03T04:05:06Z") };

describe("judge runs through the real client and the stub", () => {
  it("gar: tiers by rollout id, an omitted pass as a judge error, a 429 retried", async () => {
    let tooMany = 1;
    const s = await stub((r) => {
      const text = userText(r);
      if (text.includes("Task of alpha")) {
        if (tooMany-- > 0)
          return { kind: "status", status: 429, headers: { "retry-after-ms": "1" } };
        return stubCompletion(
          '<think>compare</think>\n```json\n{"tiers": [[2], [0]], "hacks": []}\n```',
        );
      }
      return stubCompletion('{"tiers": [[0]], "hacks": []}', {
        prompt_tokens: 7,
        completion_tokens: 3,
      });
    });
    const groups = [group("alpha", [1, 0, 1]), group("beta", [1, 1]), group("gamma", [0, 0])];
    const plan = judgePlanGar(groups, JUDGE_BUILD_DEFAULTS);
    const run = await judgeRunPlan(
      plan,
      sender(settings(s, { prices: { inputPerMillion: 1, outputPerMillion: 2 } })),
      { ...INFO, baseUrl: s.baseURL },
    );
    expect(run.info).toMatchObject({
      id: "gar-2026-02-03T04:05:06.000Z",
      mode: "gar",
      source: "llm",
      model: "judge-test",
      baseUrl: s.baseURL,
      cancelled: false,
    });
    expect(run.groups.alpha).toMatchObject({ error: null, tiers: [["alpha-r2"], ["alpha-r0"]] });
    expect(run.groups.beta!.error).toEqual({
      kind: "invalid_reply",
      message: "omitted passes 1",
      status: null,
    });
    expect(run.groups).not.toHaveProperty("gamma");
    expect(plan.skipped).toEqual([{ groupId: "gamma", reason: "no passes to rank" }]);
    expect(run.info.accounting).toMatchObject({
      requests: 2,
      successes: 1,
      retries: 1,
      promptTokens: 17,
      completionTokens: 8,
    });
    expect(run.info.accounting.failures.invalid_reply).toBe(1);
    expect(run.info.costUsd).toBeCloseTo((17 * 1 + 8 * 2) / 1e6, 12);
    expect(s.sawKey(KEY)).toBe(true);
    expect(JSON.stringify(run)).not.toContain("CANARY");
  });

  it("pairwise in both orders: a judge that always picks A flips every pair", async () => {
    const s = await stub(() => stubCompletion('{"winner": "A", "reason": "first"}'));
    const plan = judgePlanPairwise([group("p", [1, 0, 1])], JUDGE_BUILD_DEFAULTS, {
      bothOrders: true,
      among: "all",
    });
    const run = await judgeRunPlan(plan, sender(settings(s)), { ...INFO, baseUrl: s.baseURL });
    expect(s.requests).toHaveLength(6);
    expect(run.groups.p!.pairs.every((p) => p.flipped === true && p.winner === "tie")).toBe(true);
    expect(judgeRunFlipRate(run)).toEqual({ pairs: 3, flips: 3, rate: 1 });
  });

  it("rubric and cluster runs; a cancelled run keeps only finished groups", async () => {
    const s = await stub((r) =>
      userText(r).includes("Solution criteria")
        ? stubCompletion('{"solution": 0.75, "behavior": 0.5}')
        : stubCompletion(
            '{"assignments": [{"index": 0, "cluster_id": "a"}, {"index": 1, "cluster_id": "a"}]}',
          ),
    );
    const g = group("r", [1, 1]);
    const book = {
      r: {
        versions: [
          { version: 1, savedAt: "t", author: "human" as const, solution: ["s"], behavior: ["b"] },
        ],
        labelVersions: {},
      },
    };
    const rubric = await judgeRunPlan(judgePlanRubric([g], book), sender(settings(s)), {
      ...INFO,
      baseUrl: s.baseURL,
    });
    expect(rubric.groups.r).toMatchObject({
      rubricVersion: 1,
      scores: {
        "r-r0": { solution: 0.75, behavior: 0.5 },
        "r-r1": { solution: 0.75, behavior: 0.5 },
      },
    });
    const cluster = await judgeRunPlan(judgePlanCluster([g]), sender(settings(s)), {
      ...INFO,
      baseUrl: s.baseURL,
    });
    expect(cluster.groups.r!.clusters).toEqual({ "r-r0": "a", "r-r1": "a" });

    const slow = await stub(() => stubCompletion('{"tiers": [[0]]}', undefined, 1_000));
    const controller = new AbortController();
    const pending = judgeRunPlan(
      judgePlanGar([group("c1", [1]), group("c2", [1])]),
      sender(settings(slow, { concurrency: 1 })),
      { ...INFO, baseUrl: slow.baseURL },
      { signal: controller.signal, onProgress: () => undefined },
    );
    setTimeout(() => controller.abort(), 50);
    const cancelled = await pending;
    expect(cancelled.info.cancelled).toBe(true);
    expect(cancelled.groups).toEqual({});
    expect(cancelled.info.accounting.failures.cancelled).toBe(2);
  });
});
