import { afterEach, describe, expect, it } from "vitest";
import { PERSIST_KEY, useStore } from "../index.ts";
import {
  JUDGE_CONNECTION_DEFAULT,
  JUDGE_KEY_SESSION,
  readJudgeConfigured,
  readJudgeConnection,
  readJudgeGarSource,
  readJudgeTemplates,
} from "./judgeSlice.ts";

afterEach(() => useStore.getState().setJudgeApiKey("", false));

describe("judge slice", () => {
  it("keeps the key in memory; never in localStorage; sessionStorage only on opt-in", () => {
    const s = useStore.getState();
    s.setJudgeConnection({ baseURL: "http://127.0.0.1:9/v1", model: "m" });
    s.setJudgeApiKey("sk-secret-123456", false);
    expect(useStore.getState().judgeApiKey).toBe("sk-secret-123456");
    expect(sessionStorage.getItem(JUDGE_KEY_SESSION)).toBeNull();
    expect(localStorage.getItem(PERSIST_KEY) ?? "").not.toContain("sk-secret");
    const stored = JSON.parse(localStorage.getItem(PERSIST_KEY)!) as {
      state: { judgeConnection: unknown };
    };
    expect(stored.state.judgeConnection).toMatchObject({
      baseURL: "http://127.0.0.1:9/v1",
      model: "m",
    });
    s.setJudgeApiKey("sk-secret-123456", true);
    expect(sessionStorage.getItem(JUDGE_KEY_SESSION)).toBe("sk-secret-123456");
    expect(useStore.getState().judgeRememberKey).toBe(true);
    expect(localStorage.getItem(PERSIST_KEY) ?? "").not.toContain("sk-secret");
    s.setJudgeApiKey("sk-secret-123456", false);
    expect(sessionStorage.getItem(JUDGE_KEY_SESSION)).toBeNull();
  });

  it("reads a stored connection field by field; a stored key is ignored", () => {
    const read = readJudgeConnection({
      judgeConnection: {
        baseURL: "javascript:alert(1)",
        model: "",
        apiKey: "sk-planted",
        concurrency: 4,
        temperature: 9,
        prices: { inputPerMillion: 1, outputPerMillion: 2 },
      },
    });
    expect(read).toEqual({
      ...JUDGE_CONNECTION_DEFAULT,
      concurrency: 4,
      prices: { inputPerMillion: 1, outputPerMillion: 2 },
    });
    expect(read).not.toHaveProperty("apiKey");
    expect(readJudgeConnection(null)).toEqual(JUDGE_CONNECTION_DEFAULT);
  });
});

describe("judge slice preferences", () => {
  it("persists the connection only once set, so the page's policy allows no judge before", () => {
    expect(readJudgeConfigured({ presets: [] })).toBe(false);
    expect(readJudgeConfigured({ judgeConnection: { baseURL: "http://127.0.0.1:1/v1" } })).toBe(
      true,
    );
    useStore.getState().setJudgeConnection({ model: "m2" });
    expect(useStore.getState().judgeConfigured).toBe(true);
    const stored = JSON.parse(localStorage.getItem(PERSIST_KEY)!) as {
      state: Record<string, unknown>;
    };
    expect(stored.state).toHaveProperty("judgeConnection");
  });

  it("keeps edited templates and the GAR ranking source; reads storage field by field", () => {
    const s = useStore.getState();
    s.setJudgeTemplate("gar", { name: "mine", system: "S", user: "{{attempts}}" });
    s.setJudgeGarSource("run:gar-1");
    const stored = JSON.parse(localStorage.getItem(PERSIST_KEY)!) as { state: unknown };
    expect(readJudgeTemplates(stored.state)).toEqual({
      gar: { name: "mine", system: "S", user: "{{attempts}}" },
    });
    expect(readJudgeGarSource(stored.state)).toBe("run:gar-1");
    s.setJudgeTemplate("gar", null);
    s.setJudgeGarSource("human-only");
    expect(useStore.getState().judgeTemplates).toEqual({});
    expect(
      readJudgeTemplates({
        judgeTemplates: { gar: { name: "", system: "", user: "" }, nope: {}, rubric: "x" },
      }),
    ).toEqual({});
    expect(readJudgeGarSource({ judgeGarSource: "judge-always" })).toBe("human-only");
    // The old "human, then judge" took the latest run silently: it reads back as human only.
    expect(readJudgeGarSource({ judgeGarSource: "human-then-judge" })).toBe("human-only");
  });
});
