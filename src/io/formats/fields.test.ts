/**
 * Covers: the helpers the format readers share (field paths, numeric cells, union error messages,
 * the prompt hash, omitKeys against Object.fromEntries) and Inspect's score conversion, as example tables.
 */
import { fc, test as propTest } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldAt, numericCell, omitKeys, rewardCell, schemaIssues } from "./fields.ts";
import { sha256Hex, shortHash } from "./hash.ts";
import { inspectScoreValue } from "./inspect.ts";
import { messagesSchema } from "./messages.ts";
import { idLike } from "./schemaParts.ts";

const ref = { file: "f.jsonl", line: 3 };

describe("fieldAt", () => {
  const row = { "a.b": 1, a: { b: 2, list: [{ c: 3 }] }, zero: 0 };
  it.each([
    ["a.b", 1], // a key with a dot wins over the path
    ["a.list[0].c", 3],
    ["a.list.0.c", 3],
    ["zero", 0],
    ["a.missing", undefined],
    ["a.list[5].c", undefined],
    ["zero.x", undefined],
  ])("%s", (path, value) => {
    expect(fieldAt(row, path)).toEqual(value);
  });
});

describe("numericCell and rewardCell", () => {
  it.each([
    [1.5, { kind: "number", value: 1.5 }],
    ["-2e-3", { kind: "number", value: -0.002 }],
    [" 7 ", { kind: "number", value: 7 }],
    [NaN, { kind: "missing" }],
    [null, { kind: "missing" }],
    ["", { kind: "missing" }],
    ["NaN", { kind: "missing" }],
    ["None", { kind: "missing" }],
    [Infinity, { kind: "infinite" }],
    ["-inf", { kind: "infinite" }],
    ["high", { kind: "other" }],
    [true, { kind: "other" }],
  ])("%j", (value, cell) => {
    expect(numericCell(value)).toEqual(cell);
  });
  it("names the field and shows the value it rejects", () => {
    expect(rewardCell(ref, "r", Infinity)).toEqual({
      ok: false,
      issue: {
        ...ref,
        field: "r",
        message: "expected a finite number (or empty/NaN for none), got Infinity",
      },
    });
    expect(rewardCell(ref, "r", "x")).toMatchObject({
      issue: { message: 'expected a number (or empty/NaN for none), got "x"' },
    });
  });
});

describe("schemaIssues", () => {
  it("reports a failed union by the branch that got furthest", () => {
    const parsed = messagesSchema.safeParse([
      { role: "assistant", tool_calls: [{ id: "c", function: { arguments: "{}" } }] },
    ]);
    expect(schemaIssues(ref, parsed.error!)).toEqual([
      { ...ref, field: "[0].tool_calls[0].function.name", message: "is required (string)" },
    ]);
  });
  it("lists what a union wanted when every branch failed on the value itself", () => {
    const parsed = messagesSchema.safeParse([{ role: "user", content: 5 }]);
    expect(schemaIssues(ref, parsed.error!, "messages")).toEqual([
      {
        ...ref,
        field: "messages[0].content",
        message: "Invalid input: expected string, null or array, received number",
      },
    ]);
  });
  it("keeps a union's own message", () => {
    const parsed = z.object({ id: idLike }).safeParse({ id: [] });
    expect(schemaIssues(ref, parsed.error!)[0]!.message).toBe(
      "expected a non-empty string or an integer, got []",
    );
  });
});

describe("hashes", () => {
  it("match SHA-256 test vectors", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    // Two blocks, and UTF-8 text.
    expect(sha256Hex("a".repeat(64))).toBe(
      "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
    );
    expect(sha256Hex("é ✓")).toBe(
      "086a17ec1cb4f336b148c38dfa8e349285c17c994b282b79631088d801c42005",
    );
  });
  it("shortHash is whileai's 12-hex task id", () => {
    // python: hashlib.sha256("Cancel my subscription.".encode()).hexdigest()[:12]
    expect(shortHash("Cancel my subscription.")).toBe("0c5ec4576848");
  });
});

describe("inspectScoreValue (Inspect's value_to_float)", () => {
  it.each([
    ["C", 1],
    ["P", 0.5],
    ["I", 0],
    ["N", 0],
    [true, 1],
    [false, 0],
    [0.25, 0.25],
    ["yes", 1],
    ["TRUE", 1],
    ["No", 0],
    ["false", 0],
    ["0.75", 0.75],
    ["3", 3],
    ["-1", null], // Inspect's isnumeric() rejects a sign
    ["c", null], // the letters are case-sensitive
    ["maybe", null],
    [null, null],
    [NaN, null],
    [{ a: 1 }, null],
  ])("%j -> %j", (value, number) => {
    expect(inspectScoreValue(value)).toBe(number);
  });
});

describe("omitKeys", () => {
  const reference = (record: Record<string, unknown>, keys: readonly string[]) =>
    Object.fromEntries(Object.entries(record).filter(([k]) => !keys.includes(k)));
  const key = fc.constantFrom("a", "b", "input", "output", "__proto__", "constructor", "0", "");

  propTest.prop([fc.dictionary(key, fc.jsonValue()), fc.array(key, { maxLength: 4 })])(
    "keeps the other own keys, in order, as Object.fromEntries does",
    (dict, keys) => {
      // Through JSON.parse, so "__proto__" is an own key as in a parsed row.
      const record = JSON.parse(JSON.stringify(dict)) as Record<string, unknown>;
      const out = omitKeys(record, keys);
      expect(Object.keys(out)).toEqual(Object.keys(reference(record, keys)));
      expect(out).toStrictEqual(reference(record, keys));
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      expect(omitKeys(record, new Set(keys))).toStrictEqual(out);
    },
  );
});
