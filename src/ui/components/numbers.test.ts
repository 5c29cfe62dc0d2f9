import { describe, expect, it } from "vitest";
import { fixed3, plainNumber } from "./numbers.ts";

describe("number formats", () => {
  it("plainNumber keeps at most 4 decimals and is empty when absent", () => {
    expect(plainNumber(0.123456)).toBe("0.1235");
    expect(plainNumber(-1)).toBe("-1");
    expect(plainNumber(null)).toBe("");
    expect(plainNumber(NaN)).toBe("");
  });
  it("fixed3 shows three decimals or a dash", () => {
    expect(fixed3(1 / 3)).toBe("0.333");
    expect(fixed3(Infinity)).toBe("–");
    expect(fixed3(null)).toBe("–");
  });
});
