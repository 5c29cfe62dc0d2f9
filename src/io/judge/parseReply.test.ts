import { describe, expect, it } from "vitest";
import { parseReplyJson, stripThink, unwrapFence } from "./parseReply.ts";

describe("parseReplyJson (benchmax Judge.request_json)", () => {
  it.each([
    ['{"ranking": [0, 1]}', { ranking: [0, 1] }],
    ['<think>the first is better {"no": 1}</think>{"ranking": [1]}', { ranking: [1] }],
    ['```json\n{"factors": {"0": 1}}\n```', { factors: { "0": 1 } }],
    [
      'Sure! Here it is: {"a": "x } y", "b": {"c": 2}} Hope that helps.',
      { a: "x } y", b: { c: 2 } },
    ],
    ['{broken {"ok": true}', { ok: true }],
    ["[1, 2]", [1, 2]],
  ])("%j", (reply, value) => {
    expect(parseReplyJson(reply)).toEqual({ ok: true, value });
  });
  it.each(["", '<think>never closed {"a": 1}', "no json here", "{unclosed"])(
    "fails on %j",
    (reply) => {
      const r = parseReplyJson(reply);
      expect(r.ok).toBe(false);
    },
  );
  it("helpers", () => {
    expect(stripThink("a<THINK>x</THINK>b")).toBe("ab");
    expect(unwrapFence("pre\n```\nbody\n```\npost")).toBe("body\n");
  });
});
