/**
 * Judge stubs for one test file: `stub(script)` starts a stub server that closes after the test,
 * and `stubSettings` points the real client at it with fast retries, so retry and backoff cases run
 * in milliseconds.
 */
import { afterEach } from "vitest";
import { judgeSettingsFromPreset, type JudgeSettings } from "../io/judge/judgeClient.ts";
import { startJudgeStub, type JudgeStub, type StubScript } from "./judgeStub.ts";

/** Registers the after-each close in the calling test file; returns the starter. */
export function judgeStubs(): (script: StubScript) => Promise<JudgeStub> {
  const open: JudgeStub[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return async (script) => {
    const s = await startJudgeStub(script);
    open.push(s);
    return s;
  };
}

/** OpenAI preset settings aimed at the stub: 2 s timeout, 2 retries, backoff of 1 to 5 ms. */
export function stubSettings(
  s: JudgeStub,
  apiKey: string,
  overrides: Partial<JudgeSettings> = {},
): JudgeSettings {
  return judgeSettingsFromPreset("openai", {
    baseURL: s.baseURL,
    model: "judge-test",
    apiKey,
    timeoutMs: 2_000,
    maxRetries: 2,
    backoffBaseMs: 1,
    backoffMaxMs: 5,
    ...overrides,
  });
}
