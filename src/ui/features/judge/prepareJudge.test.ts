import { describe, expect, it } from "vitest";
import {
  GROUP_GRADER_TEMPLATE,
  judgeAccountingAdd,
  judgeAccountingEmpty,
  judgeFailure,
  JUDGE_GROUP_RESULT_EMPTY,
  type JudgeRun,
} from "../../../core/index.ts";
import { JUDGE_CONNECTION_DEFAULT } from "../../../store/slices/judgeSlice.ts";
import {
  connectionDraft,
  failuresText,
  needsReload,
  progressView,
  readConnectionDraft,
  runRows,
  templateProblems,
} from "./prepareJudge.ts";

describe("connection draft", () => {
  it("round-trips the stored connection and names every bad field", () => {
    const draft = connectionDraft(JUDGE_CONNECTION_DEFAULT);
    const back = readConnectionDraft(draft);
    expect(back.ok).toBe(true);
    expect(back.ok && { ...JUDGE_CONNECTION_DEFAULT, ...back.patch }).toEqual(
      JUDGE_CONNECTION_DEFAULT,
    );
    const bad = readConnectionDraft({
      ...draft,
      baseURL: "javascript:alert(1)",
      model: " ",
      concurrency: "0",
      timeout: "x",
      priceIn: "1",
      priceOut: "-1",
    });
    expect(bad).toEqual({
      ok: false,
      errors: [
        "Base URL: an http:// or https:// URL",
        "Model: a model name",
        "Concurrency: a whole number from 1 to 256",
        "Timeout: seconds > 0",
        "Price out: dollars per million tokens >= 0",
      ],
    });
    const priced = readConnectionDraft({
      ...draft,
      priceIn: "0.15",
      priceOut: "0.6",
      timeout: "2.5",
    });
    expect(priced.ok && priced.patch).toMatchObject({
      prices: { inputPerMillion: 0.15, outputPerMillion: 0.6 },
      timeoutMs: 2500,
    });
  });

  it("needs a reload only for an origin the page's policy does not allow yet", () => {
    expect(needsReload("http://127.0.0.1:8000/v1", "")).toBe(true);
    expect(needsReload("http://127.0.0.1:8000/other", "http://127.0.0.1:8000")).toBe(false);
    expect(needsReload("https://api.openai.com/v1", "http://127.0.0.1:8000")).toBe(true);
    expect(needsReload("not a url", "")).toBe(false);
  });
});

describe("progress and runs", () => {
  const acc = judgeAccountingAdd(
    judgeAccountingAdd(judgeAccountingEmpty(), {
      failure: null,
      retries: 0,
      usage: { promptTokens: 1000, completionTokens: 200 },
      replied: true,
    }),
    { failure: "timeout", retries: 2, usage: null, replied: false },
  );

  it("shows the count, tokens, cost and failures by kind", () => {
    expect(progressView(2, 40, acc, { inputPerMillion: 1, outputPerMillion: 5 })).toEqual({
      count: "2 of 40",
      tokens: "1,200 tokens (1,000 in, 200 out)",
      cost: "$0.0020",
      failures: "timeout 1",
    });
    expect(progressView(0, 1, judgeAccountingEmpty(), null).cost).toBe("no price set");
    expect(failuresText(judgeAccountingEmpty())).toBe("none");
  });

  it("lists runs newest first, labels the heuristic, and lists judge errors", () => {
    const info = {
      id: "a",
      mode: "gar" as const,
      source: "llm" as const,
      model: "m",
      baseUrl: "u",
      promptVersion: "gar-v1@x",
      startedAt: "2026-01-02T03:04:05.678Z",
      finishedAt: "f",
      accounting: acc,
      costUsd: 0.002,
      cancelled: false,
    };
    const runs: JudgeRun[] = [
      {
        info,
        groups: {
          g: {
            ...JUDGE_GROUP_RESULT_EMPTY,
            error: judgeFailure("invalid_reply", "omitted passes 2"),
          },
        },
      },
      {
        info: {
          ...info,
          id: "b",
          source: "heuristic",
          model: "heuristic",
          accounting: judgeAccountingEmpty(),
          costUsd: null,
        },
        groups: { g: { ...JUDGE_GROUP_RESULT_EMPTY, tiers: [["1"], ["0"]] } },
      },
    ];
    const [b, a] = runRows(runs, 0.5);
    expect(b).toMatchObject({
      id: "b",
      mode: "Heuristic grader (offline)",
      heuristic: true,
      cost: "free",
    });
    expect(b!.spread?.n).toBe(2);
    expect(a).toMatchObject({
      id: "a",
      mode: "Group grader (GAR)",
      started: "2026-01-02 03:04:05Z",
      requests: "2",
      failures: "1 (timeout 1)",
      cost: "$0.0020",
      errors: [{ groupId: "g", message: "invalid reply: omitted passes 2" }],
    });
  });
});

describe("template problems", () => {
  it("blocks unknown placeholders and a blank name; warns about unused ones", () => {
    expect(templateProblems(GROUP_GRADER_TEMPLATE, GROUP_GRADER_TEMPLATE)).toEqual({
      errors: [],
      warnings: [],
    });
    const edited = { name: "", system: "S {{secret}}", user: "{{task}} {{attempts}}" };
    const p = templateProblems(edited, GROUP_GRADER_TEMPLATE);
    expect(p.errors[0]).toBe("the template needs a name");
    expect(p.errors[1]).toMatch(/^\{\{secret\}\} is not filled by this mode/);
    expect(p.warnings).toEqual([
      "{{count}} is not used: the judge will not see it",
      "{{passes}} is not used: the judge will not see it",
    ]);
  });
});
