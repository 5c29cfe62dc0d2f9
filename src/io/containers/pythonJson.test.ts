import { describe, expect, it } from "vitest";
import { loadText } from "../formats/load.ts";
import { parseJsonLenient, rewritePythonTokens } from "./pythonJson.ts";

describe("Python's NaN and Infinity", () => {
  it("rewrites the tokens outside strings only", () => {
    expect(
      rewritePythonTokens('{"a": NaN, "b": -Infinity, "c": "NaN Infinity", "d": Infinity}'),
    ).toBe('{"a": "NaN", "b": "-Infinity", "c": "NaN Infinity", "d": "Infinity"}');
    expect(rewritePythonTokens('{"a": "NaN"}')).toBeNull();
    expect(rewritePythonTokens('{"NaNo": 1}')).toBeNull();
  });
  it("keeps the original error when the text is broken anyway", () => {
    const r = parseJsonLenient('{"a": NaN,');
    expect(r.ok).toBe(false);
  });
  it("a NaN or infinite native reward is an issue naming the field", async () => {
    const r = await loadText(
      "py.jsonl",
      '{"group_id":"g","completion":"a","reward":NaN}\n{"group_id":"g","completion":"b","reward":Infinity}\n{"group_id":"g","completion":"c","reward":1}\n',
    );
    expect(r.groups[0]!.rollouts.map((x) => x.reward)).toEqual([1]);
    expect(r.issues).toEqual([
      expect.objectContaining({
        line: 1,
        field: "reward",
        message: 'expected a finite number, got "NaN"',
      }),
      expect.objectContaining({
        line: 2,
        field: "reward",
        message: 'expected a finite number, got "Infinity"',
      }),
    ]);
  });
});
