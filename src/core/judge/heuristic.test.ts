import { describe, expect, it } from "vitest";
import type { ChatMessage, Rollout } from "../types.ts";
import { extractIds, heuristicGrade, inventedIds } from "./heuristic.ts";

const msg = (role: string, content: string, calls = 0): ChatMessage => ({
  role,
  content,
  toolCalls: Array.from({ length: calls }, (_, i) => ({
    id: `c${i}`,
    name: "get_order",
    arguments: "{}",
  })),
  toolCallId: null,
  name: null,
});

function rollout(
  index: number,
  reward: number,
  messages: ChatMessage[],
  prompt = "Where is my order?",
): Rollout {
  return {
    id: `g/${index}`,
    groupId: "g",
    index,
    prompt,
    messages,
    completion: null,
    reward,
    rewards: {},
    answer: null,
    testsPassed: null,
    meta: {},
    source: { file: "t", line: index + 1 },
  };
}

describe("extractIds", () => {
  it("takes tokens with a letter and at least three digits, without # and upper-cased", () => {
    expect(
      extractIds(
        "Order #W4350245, customer c802910, ticket ORD-1234 and RF-94598109; refund_ab123 ok.",
      ),
    ).toEqual(["W4350245", "C802910", "ORD-1234", "RF-94598109", "REFUND_AB123"]);
  });

  it("ignores dates, amounts, sizes and words", () => {
    expect(
      extractIds("On 2024-11-18 I paid $399.00 for a 27-inch 4K monitor and a 25L bag, 3-5 days."),
    ).toEqual([]);
  });
});

describe("heuristicGrade", () => {
  it("ranks passes by fewest tool calls, then shortest text, ties kept as ties; failures unranked", () => {
    const group = [
      rollout(0, 1, [msg("assistant", "", 2), msg("tool", "{}"), msg("assistant", "Done.")]),
      rollout(1, 1, [
        msg("assistant", "", 1),
        msg("tool", "{}"),
        msg("assistant", "Done, all set."),
      ]),
      rollout(2, 0, [msg("assistant", "Sorry.")]),
      rollout(3, 1, [msg("assistant", "", 1), msg("tool", "{}"), msg("assistant", "Done.")]),
      rollout(4, 1, [msg("assistant", "", 1), msg("tool", "{}"), msg("assistant", "Ok it.")]),
    ];
    const v = heuristicGrade(group);
    expect(v.source).toBe("heuristic");
    expect(v.tiers).toEqual([[3], [4], [1], [0]]);
    const tied = heuristicGrade([group[3]!, group[2]!, group[3]!]);
    expect(tied.tiers).toEqual([[0, 2]]);
    expect(tied.hacks).toEqual([]);
  });

  it("flags a pass naming an id that no tool result or user message gave", () => {
    const honest = rollout(0, 1, [
      msg("assistant", "", 1),
      msg("tool", '{"order_id":"W1234567","refund_id":"RF-555123"}'),
      msg("assistant", "Refunded order #W1234567 (refund RF-555123)."),
    ]);
    const fromUser = rollout(
      1,
      1,
      [msg("assistant", "Order W7654321 is on its way.")],
      "My order is W7654321.",
    );
    const invented = rollout(2, 1, [
      msg("assistant", "", 1),
      msg("tool", '{"order_id":"W1234567"}'),
      msg("assistant", "Refunded order #W9999999."),
    ]);
    const failedInvention = rollout(3, 0, [msg("assistant", "Order W0000001 does not exist.")]);
    const v = heuristicGrade([honest, fromUser, invented, failedInvention]);
    expect(v.hacks).toEqual([2]);
    expect(v.tiers).toEqual([[1], [0]]);
    expect(v.inventedIds.get(2)).toEqual(["W9999999"]);
    expect(v.reason).toContain("2: W9999999");
    expect(inventedIds(honest)).toEqual([]);
  });

  it("the system prompt and the agent's own tool arguments do not count as given", () => {
    const r = rollout(0, 1, [
      {
        ...msg("assistant", ""),
        toolCalls: [{ id: "c", name: "refund_order", arguments: '{"order_id":"W5550001"}' }],
      },
      msg("tool", '{"status":"issued"}'),
      msg("assistant", "Refunded W5550001."),
    ]);
    const withSystem = {
      ...r,
      prompt: [msg("system", "Example id: W5550001"), msg("user", "Refund please")],
    };
    expect(inventedIds(withSystem)).toEqual(["W5550001"]);
  });
});
