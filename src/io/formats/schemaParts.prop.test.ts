/**
 * describeValue writes at most 41 characters of JSON however large or deep the value (found by
 * fuzzing: JSON.stringify of a value nested 20,000 levels deep overflowed the stack inside an error
 * message). It must still read exactly as JSON.stringify's text, cut at 40 characters.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { describeValue } from "./schemaParts.ts";

function reference(x: unknown): string {
  const text = JSON.stringify(x) ?? typeof x;
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

describe("describeValue", () => {
  test.prop([fc.jsonValue({ maxDepth: 4 })], { numRuns: 500 })(
    "is JSON.stringify's text cut at 40 characters",
    (value) => {
      expect(describeValue(value)).toBe(reference(value));
    },
  );
  test.prop(
    [
      fc.oneof(
        fc.constantFrom(NaN, Infinity, -0, 1e21, "é😀".repeat(30), [undefined], { a: undefined }),
        fc.string({ unit: "binary", maxLength: 60 }),
        fc.array(fc.oneof(fc.double(), fc.string({ unit: "grapheme", maxLength: 20 }))),
      ),
    ],
    { numRuns: 300 },
  )("agrees on non-finite numbers, surrogates and undefined members", (value) => {
    expect(describeValue(value)).toBe(reference(value));
  });
  it("previews a deeply nested or huge value without serialising it", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(describeValue(deep)).toBe(`${"[".repeat(40)}…`);
    expect(describeValue({ big: "x".repeat(10_000_000) })).toBe(`{"big":"${"x".repeat(32)}…`);
    expect(describeValue(undefined)).toBe("nothing");
    expect(describeValue(10n)).toBe("10");
  });
});
