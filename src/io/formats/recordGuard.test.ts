/** Covers: the record guard's depth limit and `__proto__` keys (found by fuzzing the loaders). */
import { describe, expect, it } from "vitest";
import { MAX_NESTING, recordGuardIssue } from "./recordGuard.ts";

const ref = { file: "f.jsonl", line: 3 };

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe("recordGuardIssue", () => {
  it("passes scalars, flat records and nesting up to the limit", () => {
    expect(recordGuardIssue(ref, "text")).toBeNull();
    expect(recordGuardIssue(ref, { a: 1, b: [1, { c: null }] })).toBeNull();
    // The record is level 1, so its field may nest MAX_NESTING - 1 arrays.
    expect(recordGuardIssue(ref, { a: nested(MAX_NESTING - 1) })).toBeNull();
  });
  it("reports nesting past the limit under the top-level field that holds it", () => {
    expect(recordGuardIssue(ref, { ok: 1, meta: nested(MAX_NESTING) })).toEqual({
      ...ref,
      field: "meta",
      message: `nests arrays and objects more than ${MAX_NESTING} levels deep; the record is skipped`,
    });
    expect(recordGuardIssue(ref, [0, nested(4)], 3)).toMatchObject({ field: "[1]" });
  });
  it("walks 100,000 levels without recursion", () => {
    let text = "";
    for (let i = 0; i < 100_000; i++) text += '{"a":';
    text += "1" + "}".repeat(100_000);
    expect(recordGuardIssue(ref, JSON.parse(text))).toMatchObject({ field: "a" });
  });
  it("reports a __proto__ key as JSON.parse makes it, at any depth", () => {
    expect(recordGuardIssue(ref, JSON.parse('{"__proto__": {"x": 1}}'))).toMatchObject({
      field: "__proto__",
      message: expect.stringContaining('"__proto__"') as string,
    });
    expect(recordGuardIssue(ref, JSON.parse('{"meta": [{"__proto__": 1}]}'))).toMatchObject({
      field: "meta",
    });
    // Inherited, not own: an ordinary object is fine.
    expect(recordGuardIssue(ref, { constructor: 1, toString: "x" })).toBeNull();
  });
  it("treats byte arrays (Parquet binary cells) as leaves", () => {
    expect(recordGuardIssue(ref, { blob: new Uint8Array(10) }, 1)).toBeNull();
  });
});
