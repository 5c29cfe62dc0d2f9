import { describe, expect, it } from "vitest";
import type { ChatMessage, Rollout, ToolCall } from "../types.ts";
import {
  divergenceCanonicalJson,
  divergenceFirstSplit,
  divergenceNormalizeText,
  divergenceOfRollouts,
  divergenceSteps,
  type DivergenceNode,
} from "./divergence.ts";

function call(name: string, args: string, id = "x"): ToolCall {
  return { id, name, arguments: args };
}

function assistant(content: string, ...toolCalls: ToolCall[]): ChatMessage {
  return { role: "assistant", content, toolCalls, toolCallId: null, name: null };
}

function tool(name: string, content: string, error?: boolean): ChatMessage {
  return {
    role: "tool",
    content,
    toolCalls: [],
    toolCallId: "x",
    name,
    ...(error === undefined ? {} : { error }),
  };
}

function rollout(
  index: number,
  messages: ChatMessage[],
  completion: string | null = null,
): Rollout {
  return {
    id: `g/${index}`,
    groupId: "g",
    index,
    prompt: "p",
    messages,
    completion,
    reward: 1,
    rewards: {},
    answer: null,
    testsPassed: null,
    meta: {},
    source: { file: "t.jsonl", line: index + 1 },
  };
}

/** A tree as nested [first split index, members, branches] for compact expectations. */
function shape(n: DivergenceNode): unknown {
  return { at: n.start, len: n.steps.length, members: n.members, branches: n.branches.map(shape) };
}

describe("divergenceNormalizeText and divergenceCanonicalJson", () => {
  it.each([
    ["  a \n\t b  ", "a b"],
    ["", ""],
    ["one", "one"],
  ])("normalises %j to %j", (input, want) => {
    expect(divergenceNormalizeText(input)).toBe(want);
  });

  it.each([
    [
      '{"b": 1, "a": {"d": [2, {"z": 0, "y": 1}], "c": null}}',
      '{"a":{"c":null,"d":[2,{"y":1,"z":0}]},"b":1}',
    ],
    [" [1, 2] ", "[1,2]"],
    ['"text"', '"text"'],
    ["not json", null],
    ["{oops", null],
    ["   ", null],
  ])("canonicalises %j", (input, want) => {
    expect(divergenceCanonicalJson(input)).toBe(want);
  });
});

describe("divergenceSteps", () => {
  it("lists text, then calls, then results; call ids are ignored and JSON is canonical", () => {
    const steps = divergenceSteps(
      rollout(0, [
        assistant("Let me look.", call("get_order", '{"order_id": "W1", "full": true}', "c9")),
        tool("get_order", '{"status": "shipped"}'),
        assistant(""),
        assistant("Done.  It  shipped."),
      ]),
    );
    expect(steps.map((s) => s.kind)).toEqual(["turn", "call", "result", "turn"]);
    const c = steps[1]!;
    expect(c.kind === "call" && c.args).toBe('{"full":true,"order_id":"W1"}');
    expect(c.kind === "call" && c.argsValid).toBe(true);
    expect(steps[3]!.kind === "turn" && steps[3]!.text).toBe("Done.  It  shipped.");
  });

  it("keeps invalid JSON arguments as normalised text, and drops results on request", () => {
    const r = rollout(0, [assistant("", call("f", "  {not json  ")), tool("f", "ok")]);
    const steps = divergenceSteps(r, { results: false });
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ kind: "call", args: "{not json", argsValid: false });
  });

  it("adds a plain completion as one assistant turn, and skips a blank one", () => {
    expect(divergenceSteps(rollout(0, [], "  4  "))).toMatchObject([
      { kind: "turn", role: "assistant", text: "4" },
    ]);
    expect(divergenceSteps(rollout(0, [], "  "))).toEqual([]);
  });

  it("gives equal keys to calls that differ only in key order and spacing", () => {
    const [a] = divergenceSteps(rollout(0, [assistant("", call("f", '{"a":1,"b":2}', "c1"))]));
    const [b] = divergenceSteps(rollout(1, [assistant("", call("f", '{ "b": 2, "a": 1 }', "c2"))]));
    expect(a!.key).toBe(b!.key);
  });

  it("tells an error result from a normal one with the same text", () => {
    const [a] = divergenceSteps(rollout(0, [tool("f", "boom", true)]));
    const [b] = divergenceSteps(rollout(0, [tool("f", "boom")]));
    expect(a!.key).not.toBe(b!.key);
  });
});

describe("divergenceOfRollouts", () => {
  const lookup = assistant("", call("get_customer", '{"email":"a@x"}'));
  const found = tool("get_customer", '{"orders":["W1","W2"]}');
  const cancel = (id: string) => assistant("", call("cancel_order", `{"order_id":"${id}"}`));
  const done = assistant("Cancelled.");

  it("finds the first differing tool call and the branches there", () => {
    const tree = divergenceOfRollouts([
      rollout(0, [lookup, found, cancel("W1"), done]),
      rollout(1, [lookup, found, cancel("W2"), done]),
      rollout(2, [lookup, found, cancel("W1"), assistant("Cancelled W1.")]),
    ]);
    expect(divergenceFirstSplit(tree)).toBe(2);
    expect(shape(tree)).toEqual({
      at: 0,
      len: 2,
      members: [0, 1, 2],
      branches: [
        {
          at: 2,
          len: 1,
          members: [0, 2],
          branches: [
            { at: 3, len: 1, members: [0], branches: [] },
            { at: 3, len: 1, members: [2], branches: [] },
          ],
        },
        { at: 2, len: 2, members: [1], branches: [] },
      ],
    });
    const differing = tree.branches[1]!.steps[0]!;
    expect(differing.kind === "call" && differing.args).toBe('{"order_id":"W2"}');
  });

  it("shows a trajectory that stops early as a branch with no steps", () => {
    const tree = divergenceOfRollouts([
      rollout(0, [lookup, found]),
      rollout(1, [lookup, found, done]),
    ]);
    expect(divergenceFirstSplit(tree)).toBe(2);
    expect(tree.branches.map((b) => [b.members, b.steps.length])).toEqual([
      [[0], 0],
      [[1], 1],
    ]);
  });

  it("never splits identical trajectories, nor one rollout, nor none", () => {
    const same = [lookup, found, done];
    const tree = divergenceOfRollouts([rollout(0, same), rollout(1, same), rollout(2, same)]);
    expect(divergenceFirstSplit(tree)).toBeNull();
    expect(tree.steps).toHaveLength(3);
    expect(divergenceFirstSplit(divergenceOfRollouts([rollout(0, same)]))).toBeNull();
    expect(divergenceOfRollouts([])).toEqual({
      start: 0,
      steps: [],
      members: [],
      branches: [],
      textsCut: 0,
    });
  });

  it("splits at step 0 when the first steps differ", () => {
    const tree = divergenceOfRollouts([rollout(0, [done]), rollout(1, [lookup])]);
    expect(divergenceFirstSplit(tree)).toBe(0);
    expect(tree.steps).toEqual([]);
  });

  it("keeps rollouts together that differ only in tool results when results are off", () => {
    const rs = [
      rollout(0, [lookup, tool("get_customer", '{"ref":"RF-1"}'), done]),
      rollout(1, [lookup, tool("get_customer", '{"ref":"RF-2"}'), done]),
    ];
    expect(divergenceFirstSplit(divergenceOfRollouts(rs))).toBe(1);
    expect(divergenceFirstSplit(divergenceOfRollouts(rs, { results: false }))).toBeNull();
  });
});
