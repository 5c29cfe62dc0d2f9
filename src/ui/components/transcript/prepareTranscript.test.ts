import { describe, expect, it } from "vitest";
import type { ChatMessage, Rollout, RolloutGroup } from "../../../core/index.ts";
import {
  codeFence,
  FOLD_MAX_CHARS,
  FOLD_MAX_LINES,
  foldText,
  hasCodeFence,
  preparePrompt,
  prepareTranscript,
  isUnifiedDiff,
  prettyJson,
  previewLine,
  roleKind,
  sharedPrompt,
} from "./prepareTranscript.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import { HUGE_TEXT_CHARS } from "./hugeText.ts";

function msg(role: string, content: string, over: Partial<ChatMessage> = {}): ChatMessage {
  return { role, content, toolCalls: [], toolCallId: null, name: null, ...over };
}

function rollout(over: Partial<Rollout> = {}): Rollout {
  return testRollout({
    id: "g/0",
    prompt: null,
    completion: null,
    reward: 1,
    ...over,
  });
}

describe("foldText", () => {
  it("leaves short text unfolded", () => {
    expect(foldText("short")).toBeNull();
    expect(foldText("x".repeat(FOLD_MAX_CHARS))).toBeNull();
    expect(foldText(Array(FOLD_MAX_LINES).fill("l").join("\n"))).toBeNull();
  });

  it("folds more than the line limit to its first lines", () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n");
    const fold = foldText(text)!;
    expect(fold.head.split("\n")).toHaveLength(FOLD_MAX_LINES);
    expect(fold.hiddenLines).toBe(10);
    expect(text.startsWith(fold.head)).toBe(true);
  });

  it("folds a long single line at a space near the character limit", () => {
    const text = "word ".repeat(600);
    const fold = foldText(text)!;
    expect(fold.head.length).toBeLessThanOrEqual(FOLD_MAX_CHARS);
    expect(fold.head.length).toBeGreaterThan(FOLD_MAX_CHARS * 0.8);
    expect(fold.head.endsWith("word")).toBe(true);
    expect(fold.hiddenLines).toBe(0);
    expect(fold.hiddenChars).toBe(text.length - fold.head.length);
  });

  it("cuts hard when no space is near the limit", () => {
    const fold = foldText("x".repeat(5000))!;
    expect(fold.head).toHaveLength(FOLD_MAX_CHARS);
  });
});

describe("small helpers", () => {
  it("pretty-prints JSON objects and arrays only", () => {
    expect(prettyJson('{"a":1,"b":[2]}')).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
    expect(prettyJson("42")).toBeNull();
    expect(prettyJson("{broken")).toBeNull();
    expect(prettyJson("plain text")).toBeNull();
  });

  it("previews one line, cut with an ellipsis", () => {
    expect(previewLine("a\n\n b   c")).toBe("a b c");
    expect(previewLine("x".repeat(10), 4)).toBe("xxxx…");
  });

  it.each([
    ["system", "system"],
    ["developer", "system"],
    ["user", "user"],
    ["assistant", "assistant"],
    ["tool", "tool"],
    ["narrator", "other"],
  ])("styles role %s as %s", (role, kind) => {
    expect(roleKind(role)).toBe(kind);
  });

  it("finds code fences and builds fences their content cannot close", () => {
    expect(hasCodeFence("text\n```js\nx\n```")).toBe(true);
    expect(hasCodeFence("~~~\nx\n~~~")).toBe(true);
    expect(hasCodeFence("inline `code` only")).toBe(false);
    expect(codeFence('{"a": 1}', "json")).toBe('```json\n{"a": 1}\n```');
    expect(codeFence("a ```` b", "json")).toBe("`````json\na ```` b\n`````");
  });
});

describe("prepareTranscript", () => {
  it("turns, tool calls with pretty arguments, results named after their call", () => {
    const view = prepareTranscript(
      rollout({
        messages: [
          msg("assistant", "Looking.", {
            toolCalls: [
              { id: "c1", name: "get_order", arguments: '{"order_id":"W1"}' },
              { id: "c2", name: "broken", arguments: "{not json" },
            ],
          }),
          msg("tool", '{"status":"shipped"}', { toolCallId: "c1" }),
          msg("tool", "plain failure", { toolCallId: "c2", name: "broken", error: true }),
          msg("assistant", "It shipped."),
        ],
      }),
    );
    expect(view.toolCalls).toBe(2);
    expect(view.items.map((i) => i.kind)).toEqual(["turn", "result", "result", "turn"]);
    const first = view.items[0]!;
    expect(first.kind === "turn" && first.calls.map((c) => [c.name, c.args, c.argsValid])).toEqual([
      ["get_order", '{\n  "order_id": "W1"\n}', true],
      ["broken", "{not json", false],
    ]);
    const result = view.items[1]!;
    expect(result).toMatchObject({
      kind: "result",
      name: "get_order",
      json: true,
      error: null,
      body: '{\n  "status": "shipped"\n}',
      preview: '{"status":"shipped"}',
    });
    expect(view.items[2]).toMatchObject({
      kind: "result",
      json: false,
      error: "marked",
      name: "broken",
    });
  });

  it("marks a tool error found in the content, and previews its message (issue 13 finding 4)", () => {
    const view = prepareTranscript(
      rollout({
        messages: [
          msg(
            "tool",
            '{"error": "refund could not be processed: payment gateway unavailable (502)"}',
            { name: "refund_order" },
          ),
          msg("tool", "Error: payment method not found", { name: "book_reservation" }),
        ],
      }),
    );
    expect(view.items).toMatchObject([
      {
        kind: "result",
        error: "error-key",
        preview: "refund could not be processed: payment gateway unavailable (502)",
      },
      { kind: "result", error: "error-text", preview: "Error: payment method not found" },
    ]);
  });

  it("shows a plain completion as the assistant's turn", () => {
    const view = prepareTranscript(rollout({ completion: "four" }));
    expect(view.items).toMatchObject([{ kind: "turn", role: "assistant", text: "four" }]);
  });

  it("folds long texts and long tool results", () => {
    const long = "y ".repeat(2000);
    const view = prepareTranscript(
      rollout({
        messages: [
          msg("assistant", long),
          msg("tool", JSON.stringify({ rows: Array.from({ length: 30 }, (_, i) => i) })),
        ],
      }),
    );
    expect(view.items.every((i) => i.fold !== null)).toBe(true);
  });

  it("keys items uniquely and stably", () => {
    const r = rollout({ messages: [msg("user", "a"), msg("assistant", "b")], completion: "c" });
    const keys = prepareTranscript(r).items.map((i) => i.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(prepareTranscript(r).items.map((i) => i.key)).toEqual(keys);
  });
});

describe("prompts", () => {
  it("a text prompt is one user turn; null or blank is none", () => {
    expect(preparePrompt("Solve it")).toMatchObject([{ role: "user", text: "Solve it" }]);
    expect(preparePrompt(null)).toEqual([]);
    expect(preparePrompt("  ")).toEqual([]);
    expect(preparePrompt([msg("system", "s"), msg("user", "u")]).map((i) => i.key)).toEqual([
      "p0",
      "p1",
    ]);
  });

  it("is shared when every rollout has an equal prompt, else per column", () => {
    const p = [msg("user", "same")];
    const same: RolloutGroup = {
      id: "g",
      rollouts: [rollout({ prompt: p }), rollout({ prompt: [msg("user", "same")] })],
    };
    expect(sharedPrompt(same)).toBe(p);
    const differ: RolloutGroup = {
      id: "g",
      rollouts: [rollout({ prompt: "a" }), rollout({ prompt: "b" })],
    };
    expect(sharedPrompt(differ)).toBeNull();
    expect(sharedPrompt({ id: "g", rollouts: [] })).toBeNull();
  });
});

describe("patches", () => {
  const patch =
    "diff --git a/ops.py b/ops.py\n--- a/ops.py\n+++ b/ops.py\n@@ -1,2 +1,2 @@\n-    return a / b\n+    return None if b == 0 else a / b\n";

  it("a unified diff, as git or diff -u write it, is recognised; prose and lists are not", () => {
    expect(isUnifiedDiff(patch)).toBe(true);
    expect(isUnifiedDiff(`\n  ${patch}`)).toBe(true);
    expect(isUnifiedDiff("--- a/x.py\n+++ b/x.py\n@@ -3 +3 @@\n-a\n+b\n")).toBe(true);
    expect(isUnifiedDiff("Here is the fix:\n\ndiff --git a/x b/x")).toBe(false);
    expect(isUnifiedDiff("--- \n+ item one\n+ item two")).toBe(false);
    expect(isUnifiedDiff("")).toBe(false);
  });

  it("a patch completion or turn is shown as diff code, other text as markdown", () => {
    const r = rollout({
      messages: [msg("assistant", "I fixed it."), msg("assistant", patch)],
      completion: patch,
    });
    expect(prepareTranscript(r).items.map((i) => (i.kind === "turn" ? i.code : null))).toEqual([
      undefined,
      "diff",
      "diff",
    ]);
  });
});

describe("huge texts (over HUGE_TEXT_CHARS)", () => {
  const huge = "line of a huge text\n".repeat(Math.ceil((HUGE_TEXT_CHARS + 10) / 20));

  it("fold as huge, with the same head a long text gets, without counting lines", () => {
    const fold = foldText(huge)!;
    expect(fold.huge).toBe(true);
    expect(fold.head).toBe(foldText(huge.slice(0, FOLD_MAX_CHARS + 1))!.head);
    expect(fold.head.split("\n")).toHaveLength(FOLD_MAX_LINES);
    expect(fold.hiddenLines).toBe(0);
    expect(fold.hiddenChars).toBe(huge.length - fold.head.length);
    expect(foldText("short\n".repeat(100))?.huge).toBeUndefined();
  });

  it("are neither parsed nor pretty-printed as JSON, and a call's huge arguments get no verdict", () => {
    const json = JSON.stringify({ rows: huge });
    expect(prettyJson(json)).toBeNull();
    const view = prepareTranscript(
      rollout({
        messages: [
          msg("assistant", "", { toolCalls: [{ id: "c", name: "write", arguments: json }] }),
          msg("tool", json, { toolCallId: "c" }),
        ],
      }),
    );
    const [turn, result] = view.items;
    expect(turn?.kind === "turn" && turn.calls[0]).toMatchObject({ argsValid: true, args: json });
    expect(result).toMatchObject({ kind: "result", json: false, body: json, fold: { huge: true } });
  });

  it("preview from a slice: a one-line preview of a huge result ends in an ellipsis", () => {
    expect(previewLine(huge)).toBe(`${"line of a huge text ".repeat(7).slice(0, 120)}…`);
    const spaces = `${"a"}${" ".repeat(HUGE_TEXT_CHARS)}b`;
    expect(previewLine(spaces)).toBe("a…");
  });
});
