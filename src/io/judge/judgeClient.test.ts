/**
 * The real `openai` client against the local stub server: each acceptance case with its expected
 * result and error accounting, plus concurrency, cancel, cost and the API key never leaking.
 */
import { describe, expect, it } from "vitest";
import {
  GAR_STATS_EMPTY,
  buildClusterPrompt,
  buildGroupPrompt,
  buildPairwisePrompt,
  buildRubricPrompt,
  grsShape,
  pairwiseBothOrders,
  pairwiseFlipRate,
  parsePairwiseReply,
  parseRubricReply,
  garFromJudge,
  garStatsAdd,
  judgeAccountingFailed,
  parseClusterReply,
  parseGroupReply,
  type GroupGraderItem,
  type GroupVerdict,
  type JudgeFailureKind,
} from "../../core/index.ts";
import { stubCompletion, type JudgeStub, type StubScript } from "../../test/judgeStub.ts";
import { judgeStubs, stubSettings } from "../../test/judgeStubs.ts";
import {
  JUDGE_PRESETS,
  judgeSettingsFromPreset,
  judgeSettingsPublic,
  parseJudgeSettings,
  redactSecret,
  runJudge,
  type JudgeProgress,
  type JudgeSettings,
  type JudgeTask,
} from "./judgeClient.ts";

const KEY = "sk-test-CANARY7q3XkZ9wLmN2pR5t";

const stub = judgeStubs();

function settingsFor(s: JudgeStub, overrides: Partial<JudgeSettings> = {}): JudgeSettings {
  return stubSettings(s, KEY, overrides);
}

// A mixed group: 0, 1 and 3 pass; 2 fails.
const ITEMS: GroupGraderItem[] = [
  { text: "answer zero", reward: 1 },
  { text: "answer one", reward: 1 },
  { text: "answer two", reward: 0 },
  { text: "answer three", reward: 1 },
];

const groupTask = (id = "g"): JudgeTask<GroupVerdict> => ({
  id,
  prompt: buildGroupPrompt("Refund the order.", ITEMS),
  parse: (text) => parseGroupReply(text, ITEMS),
});

const GOOD_GROUP = JSON.stringify({
  tiers: [[3], [0, 1]],
  hacks: [],
  reason: "3 used fewer calls",
});

function failures(
  kinds: Partial<Record<JudgeFailureKind, number>>,
): Record<JudgeFailureKind, number> {
  return {
    timeout: 0,
    rate_limit: 0,
    server_error: 0,
    connection: 0,
    http_error: 0,
    malformed_reply: 0,
    invalid_reply: 0,
    cancelled: 0,
    ...kinds,
  };
}

describe("runJudge against the stub (acceptance cases)", () => {
  it("a good reply: typed tiers, one success, tokens and cost counted", async () => {
    const s = await stub([
      stubCompletion(GOOD_GROUP, { prompt_tokens: 1200, completion_tokens: 30 }),
    ]);
    const run = await runJudge(
      settingsFor(s, { prices: { inputPerMillion: 0.15, outputPerMillion: 0.6 } }),
      [groupTask()],
    );
    const [o] = run.outcomes;
    expect(o?.ok).toBe(true);
    if (!o?.ok) return;
    expect(o.value).toEqual({ tiers: [[3], [0, 1]], hacks: [], reason: "3 used fewer calls" });
    expect(o.templateVersion).toMatch(/^gar-v1@[0-9a-f]{8}$/);
    expect(run.accounting).toMatchObject({
      requests: 1,
      successes: 1,
      retries: 0,
      promptTokens: 1200,
      completionTokens: 30,
      failures: failures({}),
    });
    expect(run.costUsd).toBeCloseTo((1200 * 0.15 + 30 * 0.6) / 1e6, 12);
    // The request the server saw: the model, the settings, the rendered prompt.
    const body = s.requests[0]!.body as {
      model: string;
      temperature: number;
      messages: { content: string }[];
    };
    expect(body.model).toBe("judge-test");
    expect(body.temperature).toBe(0);
    expect(body.messages[1]!.content).toContain('<attempt index="3" result="PASS">');
    expect(s.requests[0]!.path).toBe("/v1/chat/completions");
    expect(s.sawKey(KEY)).toBe(true);
    // The GAR outcome from the verdict is redistributed, not a fallback.
    const gar = garFromJudge(
      ITEMS.map((i) => i.reward),
      o.value,
    );
    expect(gar.status).toBe("redistributed");
  });

  it("malformed JSON: a malformed_reply failure, the group falls back and is counted", async () => {
    const s = await stub([stubCompletion('{"tiers": [[3], [0, 1]')]);
    const run = await runJudge(settingsFor(s), [groupTask()]);
    const [o] = run.outcomes;
    expect(o?.ok).toBe(false);
    if (o?.ok !== false) return;
    expect(o.error.kind).toBe("malformed_reply");
    expect(o.text).toBe('{"tiers": [[3], [0, 1]');
    expect(run.accounting).toMatchObject({
      requests: 1,
      successes: 0,
      failures: failures({ malformed_reply: 1 }),
    });
    expect(run.accounting.promptTokens).toBe(10);
    const rewards = ITEMS.map((i) => i.reward);
    const gar = garFromJudge(rewards, o.error);
    expect(gar.status).toBe("fallback");
    expect(gar.output).toEqual(rewards);
    expect(gar.error).toContain("malformed_reply");
    expect(garStatsAdd(GAR_STATS_EMPTY, gar, true, true).failures).toBe(1);
  });

  it("an omitted pass (group grader) and a repeated index (clusterer) are invalid replies", async () => {
    const clusterTexts = ["a", "b", "c"];
    const s = await stub([
      stubCompletion(JSON.stringify({ tiers: [[3], [0]], hacks: [] })),
      stubCompletion(
        JSON.stringify({
          assignments: [
            { index: 0, cluster_id: "x" },
            { index: 1, cluster_id: "y" },
            { index: 1, cluster_id: "y" },
          ],
        }),
      ),
    ]);
    const settings = settingsFor(s, { concurrency: 1 });
    const group = await runJudge(settings, [groupTask()]);
    const clusters = await runJudge(settings, [
      {
        id: "c",
        prompt: buildClusterPrompt(clusterTexts),
        parse: (t) => parseClusterReply(t, clusterTexts.length),
      },
    ]);
    const g = group.outcomes[0]!;
    const c = clusters.outcomes[0]!;
    expect(g.ok || c.ok).toBe(false);
    if (g.ok || c.ok) return;
    expect(g.error).toEqual({ kind: "invalid_reply", message: "omitted passes 1", status: null });
    expect(c.error.kind).toBe("invalid_reply");
    expect(c.error.message).toBe("diversity clustering failed: index 1 is repeated");
    expect(group.accounting.failures).toEqual(failures({ invalid_reply: 1 }));
    expect(clusters.accounting.failures).toEqual(failures({ invalid_reply: 1 }));
  });
});

describe("runJudge against the stub: retries, backoff, timeouts and reasoning", () => {
  it("429 with retry-after, then success: one retry counted, the reply used", async () => {
    const s = await stub([
      { kind: "status", status: 429, headers: { "retry-after": "0" } },
      stubCompletion(GOOD_GROUP),
    ]);
    const run = await runJudge(settingsFor(s), [groupTask()]);
    expect(run.outcomes[0]).toMatchObject({ ok: true, attempts: 2, retries: 1 });
    expect(run.accounting).toMatchObject({
      requests: 1,
      successes: 1,
      retries: 1,
      failures: failures({}),
    });
    expect(s.requests).toHaveLength(2);
  });

  it("backoff: retry-after(-ms) is honoured up to backoffMaxMs, else base * 2^retry", async () => {
    const s = await stub([
      { kind: "status", status: 429, headers: { "retry-after-ms": "40" } },
      { kind: "status", status: 429, headers: { "retry-after": "60" } },
      { kind: "status", status: 503 },
      { kind: "status", status: 503 },
      stubCompletion(GOOD_GROUP),
    ]);
    const delays: number[] = [];
    const run = await runJudge(
      settingsFor(s, { maxRetries: 4, backoffBaseMs: 10, backoffMaxMs: 1_000 }),
      [groupTask()],
      { sleep: (ms) => (delays.push(ms), Promise.resolve()) },
    );
    expect(delays).toEqual([40, 1_000, 40, 80]);
    expect(run.accounting).toMatchObject({ successes: 1, retries: 4 });
  });

  it("500 until the retries run out: a server_error after maxRetries retries", async () => {
    const s = await stub(() => ({ kind: "status", status: 500 }));
    const run = await runJudge(settingsFor(s, { maxRetries: 3 }), [groupTask()]);
    const o = run.outcomes[0]!;
    expect(o).toMatchObject({ ok: false, attempts: 4, retries: 3 });
    if (o.ok) return;
    expect(o.error.kind).toBe("server_error");
    expect(o.error.status).toBe(500);
    expect(o.error.message).toContain("after 3 retries");
    expect(s.requests).toHaveLength(4);
    expect(run.accounting).toMatchObject({
      requests: 1,
      successes: 0,
      retries: 3,
      failures: failures({ server_error: 1 }),
    });
  });

  it("a timeout: the slow reply is abandoned and counted as a timeout", async () => {
    const s = await stub(() => stubCompletion(GOOD_GROUP, undefined, 1_000));
    const run = await runJudge(settingsFor(s, { timeoutMs: 80, maxRetries: 1 }), [groupTask()]);
    const o = run.outcomes[0]!;
    expect(o).toMatchObject({ ok: false, attempts: 2, retries: 1 });
    if (o.ok) return;
    expect(o.error.kind).toBe("timeout");
    expect(o.error.message).toBe("no reply within 80 ms (after 1 retry)");
    expect(run.accounting.failures).toEqual(failures({ timeout: 1 }));
  });

  it("a <think> block before fenced JSON is read", async () => {
    const reply = `<think>Pass 3 used one call; {"tiers": [[0]]} is wrong.</think>\nHere you go:\n\`\`\`json\n${GOOD_GROUP}\n\`\`\``;
    const s = await stub([stubCompletion(reply)]);
    const run = await runJudge(settingsFor(s), [groupTask()]);
    expect(run.outcomes[0]).toMatchObject({ ok: true, value: { tiers: [[3], [0, 1]], hacks: [] } });
    expect(run.accounting.successes).toBe(1);
  });
});

describe("runJudge: concurrency, progress, cancel, presets", () => {
  it("never has more than `concurrency` requests in flight and reports progress per request", async () => {
    let inFlight = 0;
    let peak = 0;
    const s = await stub(() => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => inFlight--, 30);
      return stubCompletion(GOOD_GROUP, undefined, 30);
    });
    const progress: JudgeProgress[] = [];
    const tasks = Array.from({ length: 10 }, (_, i) => groupTask(`g${i}`));
    const run = await runJudge(settingsFor(s, { concurrency: 3 }), tasks, {
      onProgress: (p) => progress.push(p),
    });
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThan(1);
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(run.outcomes.map((o) => o.id)).toEqual(tasks.map((t) => t.id));
    expect(run.accounting).toMatchObject({ requests: 10, successes: 10, promptTokens: 100 });
  });

  it("cancel: requests in flight are aborted, the rest finish as cancelled without a request", async () => {
    const controller = new AbortController();
    // Cancel once both workers' requests have reached the server.
    const s = await stub((_req, n) => {
      if (n === 1) setTimeout(() => controller.abort(), 20);
      return stubCompletion(GOOD_GROUP, undefined, 2_000);
    });
    const tasks = Array.from({ length: 6 }, (_, i) => groupTask(`g${i}`));
    const run = await runJudge(settingsFor(s, { concurrency: 2 }), tasks, {
      signal: controller.signal,
    });
    expect(run.cancelled).toBe(true);
    expect(run.outcomes.every((o) => !o.ok && o.error.kind === "cancelled")).toBe(true);
    expect(s.requests).toHaveLength(2);
    expect(run.accounting.failures.cancelled).toBe(6);
    expect(judgeAccountingFailed(run.accounting)).toBe(6);
  });

  it("presets point at OpenAI, vLLM and Ollama; settings validate without echoing values", () => {
    expect(JUDGE_PRESETS.map((p) => p.baseURL)).toEqual([
      "https://api.openai.com/v1",
      "http://127.0.0.1:8000/v1",
      "http://127.0.0.1:11434/v1",
    ]);
    const ok = parseJudgeSettings(judgeSettingsFromPreset("ollama", { apiKey: KEY }));
    expect(ok.ok).toBe(true);
    const bad = parseJudgeSettings({
      ...judgeSettingsFromPreset("vllm"),
      apiKey: 42,
      concurrency: 0,
    });
    expect(bad).toEqual({
      ok: false,
      issues: ["apiKey: wrong type", "concurrency: invalid value"],
    });
    expect(judgeSettingsFromPreset("vllm").concurrency).toBe(16);
  });
});

describe("the API key never leaks", () => {
  it("appears in no outcome, error, accounting, progress event or recorded request, in every failure case", async () => {
    const echo = {
      error: {
        message: `Incorrect API key provided: ${KEY}. Or ${KEY.slice(0, 8)}***${KEY.slice(-6)}`,
      },
    };
    const cases: StubScript[] = [
      () => ({ kind: "status", status: 401, body: echo }),
      () => ({ kind: "status", status: 429, body: echo, headers: { "retry-after": "0" } }),
      () => ({ kind: "status", status: 500, body: echo }),
      () => ({ kind: "status", status: 400, body: echo }),
      () => ({ kind: "raw", status: 502, body: `upstream said ${KEY}` }),
      () => stubCompletion(GOOD_GROUP, undefined, 3_000),
      () => stubCompletion(`not json ${KEY.slice(3, 12)}`),
      () => stubCompletion(JSON.stringify({ tiers: [[KEY]] })),
    ];
    const seen: string[] = [];
    const kinds: string[] = [];
    for (const script of cases) {
      const s = await stub(script);
      const run = await runJudge(settingsFor(s, { timeoutMs: 400, maxRetries: 1 }), [groupTask()], {
        onProgress: (p) => seen.push(JSON.stringify(p)),
      });
      const o = run.outcomes[0]!;
      kinds.push(o.ok ? "ok" : o.error.kind);
      if (!o.ok) seen.push(o.error.message);
      seen.push(JSON.stringify(run), JSON.stringify(s.requests));
      expect(s.sawKey(KEY)).toBe(true);
    }
    // A bad settings object is reported without its values.
    seen.push(JSON.stringify(parseJudgeSettings({ apiKey: KEY, baseURL: KEY })));
    seen.push(
      JSON.stringify(judgeSettingsPublic(judgeSettingsFromPreset("openai", { apiKey: KEY }))),
    );
    expect(kinds).toEqual([
      "http_error",
      "rate_limit",
      "server_error",
      "http_error",
      "server_error",
      "timeout",
      "malformed_reply",
      "invalid_reply",
    ]);
    // Every case with a server message kept it, redacted.
    expect(seen.some((t) => t.includes("Incorrect API key provided: [redacted]"))).toBe(true);
    // Name the leaking strings by position only, so a failure does not print megabytes.
    const pieces = Array.from({ length: KEY.length - 5 }, (_, i) => KEY.slice(i, i + 6));
    const leaks = seen.flatMap((t, i) => (pieces.some((p) => t.includes(p)) ? [i] : []));
    expect(leaks).toEqual([]);
  });

  it("redactSecret removes the whole key and any 6-character run of it", () => {
    expect(redactSecret(`a ${KEY} b`, KEY)).toBe("a [redacted] b");
    expect(redactSecret("key sk-test-CANA***", KEY)).not.toContain("CANA");
    expect(redactSecret("nothing here", KEY)).toBe("nothing here");
  });
});

describe("graders end to end through the stub", () => {
  it("pairwise in both orders: the flip rate over pairs from the real replies", async () => {
    // The stub's judge always prefers whatever is shown first unless it says "short": position bias.
    const s = await stub((req) => {
      const body = req.body as { messages: { content: string }[] };
      const user = body.messages[1]!.content;
      const a = /<response label="A">\n([^\n]*)/.exec(user)![1]!;
      return stubCompletion(
        JSON.stringify({ winner: a === "short" || !user.includes("short") ? "A" : "B" }),
      );
    });
    const pairs: [string, string][] = [
      ["short", "long"],
      ["long", "longer"],
    ];
    const tasks = pairs.flatMap(([x, y], p) =>
      [
        [x, y],
        [y, x],
      ].map(([first, second], o) => ({
        id: `${p}:${o}`,
        prompt: buildPairwisePrompt("T", first!, second!),
        parse: parsePairwiseReply,
      })),
    );
    const run = await runJudge(settingsFor(s), tasks);
    const combined = pairs.map((_, p) => {
      const [f, b] = [run.outcomes[2 * p]!, run.outcomes[2 * p + 1]!];
      if (!f.ok || !b.ok) throw new Error("a pairwise reply failed");
      return pairwiseBothOrders(f.value, b.value);
    });
    expect(combined.map((c) => c.verdict)).toEqual(["a", "tie"]);
    expect(pairwiseFlipRate(combined)).toEqual({ pairs: 2, flips: 1, rate: 0.5 });
  });

  it("rubric scores shape the passes' rewards; an out-of-range score keeps R_test", async () => {
    const s = await stub([
      stubCompletion('{"solution": 0.5, "behavior": 0.8}'),
      stubCompletion('{"solution": 1.5, "behavior": 0.8}'),
    ]);
    const rewards = [1, 0, 1];
    const passes = [0, 2];
    const run = await runJudge(
      settingsFor(s, { concurrency: 1 }),
      passes.map((i) => ({
        id: String(i),
        prompt: buildRubricPrompt(
          "T",
          { solution: ["right item"], behavior: ["few calls"] },
          `attempt ${i}`,
        ),
        parse: parseRubricReply,
      })),
    );
    const scores = rewards.map((_, i) => {
      const o = run.outcomes[passes.indexOf(i)];
      return o === undefined ? null : o.ok ? o.value : new Error(o.error.message);
    });
    const shaped = grsShape(rewards, scores);
    expect(shaped.rewards).toEqual([0.4, 0, 1]);
    expect(shaped.failures).toEqual([2]);
    expect(run.accounting.failures.invalid_reply).toBe(1);
  });
});
