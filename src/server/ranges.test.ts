import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { rangeParse } from "./ranges.ts";

describe("rangeParse", () => {
  it.each([
    [null, 100, { kind: "whole" }],
    ["bytes=0-9", 100, { kind: "range", start: 0, end: 9 }],
    ["bytes=90-", 100, { kind: "range", start: 90, end: 99 }],
    ["bytes=90-500", 100, { kind: "range", start: 90, end: 99 }],
    ["bytes=-10", 100, { kind: "range", start: 90, end: 99 }],
    ["bytes=-500", 100, { kind: "range", start: 0, end: 99 }],
    ["bytes=5-5", 100, { kind: "range", start: 5, end: 5 }],
    ["bytes=100-", 100, { kind: "unsatisfiable" }],
    ["bytes=9-5", 100, { kind: "unsatisfiable" }],
    ["bytes=-0", 100, { kind: "unsatisfiable" }],
    ["bytes=-", 100, { kind: "unsatisfiable" }],
    ["bytes=0-1,5-6", 100, { kind: "unsatisfiable" }],
    ["items=0-1", 100, { kind: "unsatisfiable" }],
    ["bytes=abc", 100, { kind: "unsatisfiable" }],
    ["bytes=0-", 0, { kind: "unsatisfiable" }],
  ] as const)("%s of %d bytes", (header, size, expected) => {
    expect(rangeParse(header, size)).toEqual(expected);
  });

  test.prop([fc.nat(10_000), fc.nat(10_000), fc.integer({ min: 1, max: 10_000 })])(
    "a satisfiable range lies inside the file and is not empty",
    (a, b, size) => {
      const r = rangeParse(`bytes=${a}-${b}`, size);
      if (r.kind === "range") {
        expect(r.start).toBeGreaterThanOrEqual(0);
        expect(r.end).toBeLessThan(size);
        expect(r.start).toBeLessThanOrEqual(r.end);
      } else {
        expect(a >= size || b < a).toBe(true);
      }
    },
  );
});
