import { describe, expect, it } from "vitest";
import { expectClose } from "../../test/approx.ts";
import { GRS_DEFAULTS, grsShape } from "./grs.ts";

describe("grsShape: methods.md 2.4 golden vectors", () => {
  it("s = .5, b = .8 on R = [1, .1, 1, 0] gives [.4, .1, .4, 0]", () => {
    const s = { solution: 0.5, behavior: 0.8 };
    const out = grsShape([1, 0.1, 1, 0], [s, s, s, s]);
    expectClose(out.rewards, [0.4, 0.1, 0.4, 0], 12);
    expect([...out.products.entries()]).toEqual([
      [0, 0.4],
      [2, 0.4],
    ]);
  });

  it("floor .6 on R = [1, 0] gives [.48, 0]", () => {
    const s = { solution: 0.5, behavior: 0.8 };
    expectClose(grsShape([1, 0], [s, s], { ...GRS_DEFAULTS, floor: 0.6 }).rewards, [0.48, 0], 12);
  });

  it("the seed shape vector: behavior 1 if <= 2 tool calls else .5", () => {
    const completions = [
      "<tool_call>x</tool_call> done",
      "<tool_call>x</tool_call>".repeat(3) + " done",
      "no",
    ];
    const scores = completions.map((c) => ({
      solution: 1,
      behavior: (c.match(/<tool_call>/g)?.length ?? 0) <= 2 ? 1 : 0.5,
    }));
    expect(grsShape([1, 1, 0], scores).rewards).toEqual([1.0, 0.5, 0.0]);
  });

  it("a missing, failed or out-of-range score keeps R_test and counts as a failure", () => {
    const out = grsShape(
      [1, 1, 1, 0],
      [null, new Error("judge"), { solution: 1.2, behavior: 1 }, null],
    );
    expect(out.rewards).toEqual([1, 1, 1, 0]);
    expect(out.failures).toEqual([0, 1, 2]);
  });

  it("rejects a floor outside [0, 1)", () => {
    expect(() => grsShape([1], [null], { ...GRS_DEFAULTS, floor: 1 })).toThrow(/floor/);
    expect(() => grsShape([1], [null], { ...GRS_DEFAULTS, floor: -0.1 })).toThrow(/floor/);
  });
});
