/**
 * Every tool-call dialect in one place (issue 15 part 2): the same call and its result, written as
 * OpenAI nested calls (arguments as JSON text or as an object), the whole call as JSON text
 * (verifiers), a flat call (tau2, verifiers' pydantic model), Responses API items (NeMo Gym) and
 * Anthropic `tool_use` / `tool_result` blocks, normalise to the same internal messages.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../core/index.ts";
import { loadText } from "./load.ts";
import { messagesSchema, toolArgumentsValue } from "./messages.ts";

const args = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 8 }),
  fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null)),
  { maxKeys: 4 },
);
const name = fc.stringMatching(/^[a-z_]{1,12}$/);
const callId = fc.stringMatching(/^call_[A-Za-z0-9]{1,10}$/);
const resultText = fc.string({ maxLength: 30 });

interface Call {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly result: string;
}

/** The call and its result, in each dialect, as a raw message list. */
function dialects(c: Call): Record<string, unknown[]> {
  const text = JSON.stringify(c.args);
  const nested = (a: unknown) => ({
    id: c.id,
    type: "function",
    function: { name: c.name, arguments: a },
  });
  const openaiResult = { role: "tool", tool_call_id: c.id, content: c.result };
  return {
    "openai, arguments as JSON text": [
      { role: "assistant", content: null, tool_calls: [nested(text)] },
      openaiResult,
    ],
    "openai, arguments as an object": [
      { role: "assistant", content: "", tool_calls: [nested(c.args)] },
      openaiResult,
    ],
    "the whole call as JSON text": [
      { role: "assistant", content: "", tool_calls: [JSON.stringify(nested(text))] },
      openaiResult,
    ],
    "a flat call": [
      { role: "assistant", content: "", tool_calls: [{ id: c.id, name: c.name, arguments: text }] },
      openaiResult,
    ],
    "Responses API items": [
      { type: "function_call", id: "fc_1", call_id: c.id, name: c.name, arguments: text },
      { type: "function_call_output", call_id: c.id, output: c.result },
    ],
    "Anthropic blocks": [
      { role: "assistant", content: [{ type: "tool_use", id: c.id, name: c.name, input: c.args }] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: c.id, content: c.result }],
      },
    ],
  };
}

function normalised(raw: unknown[]): ChatMessage[] {
  const parsed = messagesSchema.safeParse(raw);
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues));
  return parsed.data;
}

describe("tool-call dialects", () => {
  test.prop([fc.record({ id: callId, name, args, result: resultText })], { numRuns: 200 })(
    "the same call in every dialect normalises to the same tool call and result",
    (c) => {
      for (const [dialect, raw] of Object.entries(dialects(c))) {
        const [call, result, ...rest] = normalised(raw);
        expect(rest, dialect).toEqual([]);
        expect(call, dialect).toMatchObject({ role: "assistant", content: "" });
        expect(call!.toolCalls, dialect).toEqual([
          { id: c.id, name: c.name, arguments: JSON.stringify(c.args) },
        ]);
        expect(toolArgumentsValue(call!.toolCalls[0]!), dialect).toEqual(c.args);
        expect(result, dialect).toMatchObject({
          role: "tool",
          content: c.result,
          toolCallId: c.id,
          toolCalls: [],
        });
      }
    },
  );

  it("keeps arguments that are not JSON as text, and a call string that is not JSON too", () => {
    const [m] = normalised([
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "a", function: { name: "f", arguments: "{not json" } },
          "{truncated",
          { type: "function_call", call_id: "c", name: "g", arguments: "x=1" },
        ],
      },
    ]);
    expect(m!.toolCalls).toEqual([
      { id: "a", name: "f", arguments: "{not json" },
      { id: null, name: "", arguments: "{truncated" },
      { id: "c", name: "g", arguments: "x=1" },
    ]);
    expect(toolArgumentsValue(m!.toolCalls[0]!)).toBe("{not json");
  });

  it("joins parallel Responses calls to the assistant turn and names their results", () => {
    const messages = normalised([
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Checking." }] },
      { type: "function_call", call_id: "1", name: "a", arguments: "{}" },
      { type: "function_call", call_id: "2", name: "b", arguments: "{}" },
      { type: "function_call_output", call_id: "2", output: "B" },
      { type: "reasoning", summary: [{ type: "summary_text", text: "thinking" }] },
    ]);
    expect(messages.map((m) => [m.role, m.content, m.toolCalls.length, m.name])).toEqual([
      ["assistant", "Checking.", 2, null],
      ["tool", "B", 0, "b"],
      ["reasoning", "thinking", 0, null],
    ]);
  });

  it("marks an Anthropic error result, and keeps the user text beside results", () => {
    const messages = normalised([
      { role: "assistant", content: [{ type: "tool_use", id: "t", name: "run", input: {} }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "t",
            is_error: true,
            content: [{ type: "text", text: "boom" }],
          },
          { type: "text", text: "try again" },
        ],
      },
    ]);
    expect(messages.map((m) => [m.role, m.content, m.error ?? false, m.name])).toEqual([
      ["assistant", "", false, null],
      ["user", "try again", false, null],
      ["tool", "boom", true, "run"],
    ]);
  });

  it("pairs results that name no call with the calls before them, in order", () => {
    const messages = normalised([
      { role: "assistant", content: "", tool_calls: ['{"id": "a", "function": {"name": "f"}}'] },
      { role: "tool", content: "A" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "b", function: { name: "g", arguments: "{}" } },
          { id: "c", function: { name: "h", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "c", content: "C" },
      { role: "tool", content: "B" },
      { role: "tool", content: "extra" },
    ]);
    expect(messages.filter((m) => m.role === "tool").map((m) => [m.toolCallId, m.name])).toEqual([
      ["a", "f"],
      ["c", null],
      ["b", "g"],
      [null, null],
    ]);
  });

  it("reads a verifiers row with JSON-text tool calls through the field mapping", async () => {
    const row = {
      example_id: 3,
      completion: [
        {
          role: "assistant",
          content: "",
          tool_calls: [
            '{"id": "c1", "function": {"arguments": "{\\"q\\": \\"x\\"}", "name": "search"}, "type": "function"}',
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "found" },
      ],
      reward: 1,
    };
    const r = await loadText("m.jsonl", `${JSON.stringify(row)}\n`, {
      format: "mapped",
      options: { groupKey: "example_id", textKey: "completion", rewardKeys: ["reward"] },
    });
    expect(r.issues).toEqual([]);
    expect(r.groups[0]!.rollouts[0]!.messages[0]!.toolCalls).toEqual([
      { id: "c1", name: "search", arguments: '{"q": "x"}' },
    ]);
  });
});
