import { describe, expect, it } from "vitest";
import {
  analyzeDataset,
  divergenceOfRollouts,
  type ChatMessage,
  type Rollout,
  type RolloutGroup,
} from "../../../core/index.ts";
import { prepareDivergence } from "./prepareDivergence.ts";

function call(name: string, args: string): ChatMessage {
  return {
    role: "assistant",
    content: "",
    toolCalls: [{ id: null, name, arguments: args }],
    toolCallId: null,
    name: null,
  };
}

function say(content: string): ChatMessage {
  return { role: "assistant", content, toolCalls: [], toolCallId: null, name: null };
}

function rollout(i: number, reward: number, messages: ChatMessage[]): Rollout {
  return {
    id: `g/${i}`,
    groupId: "g",
    index: i,
    prompt: "p",
    messages,
    completion: null,
    reward,
    rewards: {},
    answer: null,
    testsPassed: null,
    meta: {},
    source: { file: "f", line: i + 1 },
  };
}

function view(group: RolloutGroup) {
  const analysis = analyzeDataset([group]).groups[0]!;
  return prepareDivergence(group, analysis, divergenceOfRollouts(group.rollouts));
}

describe("prepareDivergence", () => {
  const lookup = call("get_order", '{"order_id":"W1"}');
  it("shows the common prefix, the split step and each branch's members", () => {
    const v = view({
      id: "g",
      rollouts: [
        rollout(0, 1, [lookup, call("refund_order", '{"amount":5,"order_id":"W1"}'), say("ok")]),
        rollout(1, 0, [lookup, say("Sorry, I cannot.")]),
        rollout(2, 1, [lookup, call("refund_order", '{"order_id":"W1","amount":5}'), say("ok")]),
      ],
    });
    expect(v.summary).toBe(
      "All 3 rollouts share the first step; at step 2 they split into 2 branches.",
    );
    expect(v.split).toBe(2);
    expect(v.prefix).toEqual([
      {
        number: 1,
        kind: "call",
        label: "call",
        tool: "get_order",
        text: '{\n  "order_id": "W1"\n}',
      },
    ]);
    expect(
      v.branches.map((b) => [b.members.map((m) => m.id), b.passes, b.first?.label, b.first?.tool]),
    ).toEqual([
      [["g/0", "g/2"], 2, "call", "refund_order"],
      [["g/1"], 0, "assistant", null],
    ]);
    expect(v.branches[0]!.first?.text).toBe('{\n  "amount": 5,\n  "order_id": "W1"\n}');
    expect(v.branches[0]!.rest.map((s) => [s.number, s.text])).toEqual([[3, "ok"]]);
    expect(v.branches[0]!.members.map((m) => m.reward)).toEqual(["1", "1"]);
  });

  it("says so when the rollouts never diverge, or differ from the first step", () => {
    const same = [lookup, say("done")];
    expect(view({ id: "g", rollouts: [rollout(0, 1, same), rollout(1, 1, same)] })).toMatchObject({
      split: null,
      branches: [],
      summary: "All 2 rollouts take the same 2 steps: they never diverge.",
    });
    expect(
      view({ id: "g", rollouts: [rollout(0, 1, [say("a")]), rollout(1, 0, [say("b")])] }).summary,
    ).toBe("The 2 rollouts differ from the first step, in 2 branches.");
    expect(view({ id: "g", rollouts: [rollout(0, 1, same)] }).summary).toBe(
      "One rollout: nothing to compare.",
    );
  });

  it("marks a branch whose transcript ends where the others continue", () => {
    const v = view({
      id: "g",
      rollouts: [rollout(0, 0, [lookup]), rollout(1, 1, [lookup, say("x")])],
    });
    expect(v.branches.map((b) => b.first)).toEqual([
      null,
      { number: 2, kind: "turn", label: "assistant", tool: null, text: "x" },
    ]);
  });
});
