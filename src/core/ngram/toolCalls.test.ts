import { describe, expect, it } from "vitest";
import type { ChatMessage, ToolCall } from "../types.ts";
import { ngramCluster, similarityCluster } from "./cluster.ts";
import { ngramJaccard } from "./ngrams.ts";
import {
  similarityCombine,
  similarityMatrix,
  similarityToQuery,
  toolCallNgramSet,
  toolCallSimilarity,
  toolCallSymbols,
} from "./toolCalls.ts";

const call = (name: string, args: string): ToolCall => ({ id: null, name, arguments: args });
const assistant = (...calls: ToolCall[]): ChatMessage => ({
  role: "assistant",
  content: "",
  toolCalls: calls,
  toolCallId: null,
  name: null,
});

describe("toolCallSymbols", () => {
  it("renames values by first appearance, sorts keys, keeps the order of the calls", () => {
    const messages = [
      assistant(call("get_order", '{"order_id": "W1"}')),
      assistant(
        call("refund_order", '{"reason": "damaged", "order_id": "W1", "amount": 249}'),
        call("refund_order", '{"order_id":"W1","amount":249,"reason":"damaged"}'),
      ),
    ];
    expect(toolCallSymbols(messages)).toEqual([
      'get_order({"order_id":"$1"})',
      'refund_order({"amount":"$2","order_id":"$1","reason":"$3"})',
      'refund_order({"amount":"$2","order_id":"$1","reason":"$3"})',
    ]);
  });
  it("the same actions on other ids give the same symbols; a new id differs from a used one", () => {
    const on = (first: string, second: string) =>
      toolCallSymbols([
        assistant(call("get_order", `{"order_id":"${first}"}`)),
        assistant(call("refund_order", `{"order_id":"${second}"}`)),
      ]);
    expect(on("W1", "W1")).toEqual(on("W9", "W9"));
    expect(on("W1", "W2")).not.toEqual(on("W1", "W1"));
  });
  it("a string and a number with the same digits are different values; nested values too", () => {
    expect(
      toolCallSymbols([assistant(call("f", '{"a": "1", "b": 1, "c": {"d": ["1", true, null]}}'))]),
    ).toEqual(['f({"a":"$1","b":"$2","c":{"d":["$1",true,null]}})']);
  });
  it("arguments that are not JSON are kept as trimmed text", () => {
    expect(toolCallSymbols([assistant(call("bash", "  ls -la "))])).toEqual(["bash(ls -la)"]);
    expect(toolCallSymbols([assistant(call("noop", ""))])).toEqual(["noop()"]);
  });
});

describe("toolCallNgramSet: methods.md 1.4's rule with calls for characters", () => {
  it.each([
    { calls: [], n: 3, set: [] },
    { calls: ["a", "b"], n: 3, set: [["a", "b"]] },
    {
      calls: ["a", "b", "c", "b", "c"],
      n: 2,
      set: [
        ["a", "b"],
        ["b", "c"],
        ["c", "b"],
      ],
    },
    { calls: ["a", "a"], n: 1, set: [["a"]] },
  ])("$calls, n = $n", ({ calls, n, set }) => {
    expect([...toolCallNgramSet(calls, n)].sort()).toEqual(
      set.map((g) => JSON.stringify(g)).sort(),
    );
  });
  it("a call containing the separator of a naive join cannot collide", () => {
    expect(ngramJaccard(toolCallNgramSet(["a,b"], 2), toolCallNgramSet(["a", "b"], 2))).toBe(0);
  });
});

describe("toolCallSimilarity and the combination", () => {
  it("golden: a double refund against a single one and against itself elsewhere", () => {
    const double = ["g", "c", "r", "r"];
    const single = ["g", "c", "r"];
    const none: string[] = [];
    const m = toolCallSimilarity([double, single, double, none, none], 3);
    const k = 5;
    // {gcr, crr} vs {gcr}: 1/2; identical: 1; one without calls: 0; both without: 1.
    expect(m[0 * k + 1]).toBe(1 / 2);
    expect(m[0 * k + 2]).toBe(1);
    expect(m[0 * k + 3]).toBe(0);
    expect(m[3 * k + 4]).toBe(1);
    expect(m[1 * k + 1]).toBe(1);
  });
  it("both is the mean when either made a call, else the text's", () => {
    expect(similarityCombine(0.2, 1, true, "both")).toBe(0.6);
    expect(similarityCombine(0.2, 1, false, "both")).toBe(0.2);
    expect(similarityCombine(0.2, 1, true, "text")).toBe(0.2);
    expect(similarityCombine(0.2, 1, true, "tools")).toBe(1);
  });
  it("similarityMatrix and similarityToQuery agree", () => {
    const inputs = [
      { text: "I refunded it", calls: ["g", "r", "r"] },
      { text: "I refunded it", calls: ["g", "r"] },
      { text: "Sorry, no", calls: [] },
      { text: "sorry, no", calls: [] },
    ];
    for (const on of ["text", "tools", "both"] as const) {
      const m = similarityMatrix(inputs, 2, on);
      inputs.forEach((q, i) => {
        expect([...similarityToQuery(q, inputs, 2, on)]).toEqual(
          inputs.map((_, j) => m[i * inputs.length + j]),
        );
      });
    }
    const both = similarityMatrix(inputs, 2, "both");
    expect(both[2 * 4 + 3]).toBe(1); // no calls either side: the text's Jaccard
    expect(both[0 * 4 + 1]).toBe((1 + 1 / 2) / 2);
  });
  it("similarityCluster under text is ngramCluster; tool calls can join what the text splits", () => {
    const inputs = [
      { text: "All set, refund issued.", calls: ["g", "c", "r", "r"] },
      { text: "Thanks for waiting: your money is on its way back.", calls: ["g", "c", "r", "r"] },
      { text: "All set, refund issued!", calls: ["g", "c"] },
    ];
    const text = similarityCluster(inputs, { n: 3, threshold: 0.5, on: "text" });
    const plain = ngramCluster(
      inputs.map((x) => x.text),
      { n: 3, threshold: 0.5 },
    );
    expect(text.clusterIndex).toEqual(plain.clusterIndex);
    expect([...text.similarity]).toEqual([...plain.similarity]);
    expect(text.clusterIndex).toEqual([0, 1, 0]);
    expect(similarityCluster(inputs, { n: 3, threshold: 0.5, on: "tools" }).clusterIndex).toEqual([
      0, 0, 1,
    ]);
    expect(() => similarityCluster(inputs, { n: 0, threshold: 0.5, on: "both" })).toThrow(
      /positive/,
    );
  });
});
