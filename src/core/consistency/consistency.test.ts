import { describe, expect, it } from "vitest";
import { expectClose } from "../../test/approx.ts";
import { consistencyComplementarity, consistencySelf } from "./consistency.ts";

describe("self-consistency: methods.md 1.7", () => {
  it('["4","4","5","4"] gives [0.75, 0.75, 0, 0.75]', () => {
    expect(consistencySelf(["4", "4", "5", "4"])).toEqual([0.75, 0.75, 0, 0.75]);
  });
  it("on equal counts the answer seen first wins", () => {
    expect(consistencySelf(["b", "a", "a", "b"])).toEqual([0.5, 0, 0, 0.5]);
  });
  it("null answers never form the majority", () => {
    expect(consistencySelf([null, null, "x"])).toEqual([0, 0, 1 / 3]);
    expect(consistencySelf([])).toEqual([]);
  });
});

describe("complementarity: methods.md 1.7", () => {
  it("[{a,b},{a},{a,c}] gives [0.4444, 0.1111, 0.4444]", () => {
    expectClose(
      consistencyComplementarity([["a", "b"], ["a"], ["a", "c"]]),
      [0.4444, 0.1111, 0.4444],
    );
  });
  it("null passes nothing", () => {
    expect(consistencyComplementarity([null, ["a"]])).toEqual([0, 0.5]);
  });
});
