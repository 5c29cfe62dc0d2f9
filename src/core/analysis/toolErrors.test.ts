import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../types.ts";
import {
  rolloutToolErrorIndices,
  rolloutToolErrors,
  TOOL_ERROR_JSON_CHARS,
  toolResultError,
} from "./toolErrors.ts";

const tool = (content: string, over: Partial<ChatMessage> = {}): ChatMessage => ({
  role: "tool",
  content,
  toolCalls: [],
  toolCallId: null,
  name: null,
  ...over,
});

describe("toolResultError", () => {
  it.each([
    // The example: the demo's payment gateway failure.
    [
      '{"error": "refund could not be processed: payment gateway unavailable (502)"}',
      "error-key",
      "refund could not be processed: payment gateway unavailable (502)",
    ],
    ['{"error": {"message": "quota exceeded", "code": 429}}', "error-key", "quota exceeded"],
    ['{"errors": ["a", "b"]}', "error-key", '["a","b"]'],
    ['{"status": "failed", "message": "card declined"}', "status", "card declined"],
    ['{"status": "ERROR"}', "status", "ERROR"],
    ['{"status_code": 503, "body": "upstream down"}', "http-status", "HTTP 503"],
    ['{"status": 404, "detail": "no such order"}', "http-status", "no such order"],
    ['{"statusCode": "500"}', "http-status", "HTTP 500"],
    ['{"exit_code": 1, "stderr": "ls: cannot access"}', "exit-code", "ls: cannot access"],
    ['{"returncode": -9}', "exit-code", "returncode -9"],
    ['{"isError": true, "content": []}', "flag", "isError"],
    ['{"success": false, "reason": "locked"}', "flag", "locked"],
    // tau-bench's environment, and a Python traceback.
    ["Error: payment method not found", "error-text", "Error: payment method not found"],
    [
      'Traceback (most recent call last):\n  File "x.py"\nValueError: bad',
      "error-text",
      'Traceback (most recent call last):\n  File "x.py"\nValueError: bad',
    ],
    ["total 0\nExit code: 2", "exit-code", "total 0\nExit code: 2"],
  ])("%s is an error (%s)", (content, kind, message) => {
    expect(toolResultError(tool(content))).toEqual({ kind, message });
  });

  it.each([
    '{"refund_id": "RF-1", "status": "issued"}',
    '{"status": "pending"}',
    '{"error": null, "result": 3}',
    '{"error": "", "ok": true}',
    '{"error": false}',
    '{"error": {}}',
    '{"status_code": 200}',
    '{"status": 302}',
    '{"exit_code": 0, "stdout": "done"}',
    '{"success": true}',
    "[1, 2]",
    "The error rate is 2%",
    "Exit code: 0",
    "{not json",
    "",
  ])("%s is not an error", (content) => {
    expect(toolResultError(tool(content))).toBeNull();
  });

  it("the source's own mark (tau2, Inspect) counts, with the content as its message", () => {
    expect(toolResultError(tool("permission denied", { error: true }))).toEqual({
      kind: "marked",
      message: "permission denied",
    });
    expect(toolResultError(tool('{"detail": "no"}', { error: true }))).toEqual({
      kind: "marked",
      message: "no",
    });
  });

  it("only tool results are classified", () => {
    const said: ChatMessage = { ...tool('{"error": "x"}'), role: "assistant" };
    expect(toolResultError(said)).toBeNull();
    expect(toolResultError({ ...tool('{"error": "x"}'), role: "function" })).not.toBeNull();
  });

  it("counts and indexes a rollout's errors", () => {
    const messages = [
      tool('{"ok": 1}'),
      tool('{"error": "a"}'),
      { ...tool("hi"), role: "user" },
      tool("Error: b"),
    ];
    const rollout = {
      id: "r",
      groupId: "g",
      index: 0,
      prompt: null,
      messages,
      completion: null,
      reward: 1,
      rewards: {},
      answer: null,
      testsPassed: null,
      meta: {},
      source: { file: "f", line: 1 },
    };
    expect(rolloutToolErrors(rollout)).toBe(2);
    expect(rolloutToolErrorIndices(rollout)).toEqual([1, 3]);
  });
});

describe("a huge JSON tool result", () => {
  const pad = "x".repeat(TOOL_ERROR_JSON_CHARS);
  it("is not parsed: its error field is not read, its text rules and the source's mark are", () => {
    expect(toolResultError(tool(JSON.stringify({ error: "boom", pad: "" })))?.kind).toBe(
      "error-key",
    );
    expect(toolResultError(tool(JSON.stringify({ error: "boom", pad })))).toBeNull();
    expect(toolResultError(tool(JSON.stringify({ pad }), { error: true }))?.kind).toBe("marked");
    expect(toolResultError(tool(`Error: ${pad}`))?.kind).toBe("error-text");
  });
});
