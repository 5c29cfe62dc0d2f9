import { afterEach, describe, expect, it } from "vitest";
import { PERSIST_KEY, useStore } from "../index.ts";
import { JUDGE_CONNECTION_DEFAULT, JUDGE_KEY_SESSION, readJudgeConnection } from "./judgeSlice.ts";

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
