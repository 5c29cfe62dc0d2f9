/**
 * Golden cases for each verifier, the library's own examples first
 * (../shared/seeds/grpo-reward-function-library.txt): the format gate, exact match (a well-formed
 * wrong answer scores 0 on correctness), the schema reward (a dict schema applies to every row, not
 * key by key) and the length penalty (never below zero).
 */
import { describe, expect, it } from "vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { exactMatch, formatGate, lengthPenalty } from "../../test/verifierFixtures.ts";
import { verifierFieldAt, verifierFieldPaths } from "./fields.ts";
import { jsonSchemaCheck, jsonSchemaCompile } from "./jsonSchema.ts";
import { lengthCount, lengthPenalize } from "./length.ts";
import {
  answerEquals,
  answerExtract,
  answerGolds,
  answerNumber,
  formatGatePasses,
} from "./match.ts";
import { verifierInput, verifierScore, verifierTally, type VerifierInput } from "./run.ts";
import {
  ANSWER_NORMALIZATION_DEFAULT,
  FORMAT_PRESET_REASONING_ANSWER,
  VERIFIER_SPEC_EMPTY,
  verifierEmitted,
  verifierProblemText,
  verifierRegexProblem,
  verifierSpecProblems,
  verifierVersion,
  type Verifier,
  type VerifierSpec,
} from "./spec.ts";

const PRESET = new RegExp(
  FORMAT_PRESET_REASONING_ANSWER.pattern,
  FORMAT_PRESET_REASONING_ANSWER.flags,
);

const spec = (...verifiers: Verifier[]): VerifierSpec => ({ ...VERIFIER_SPEC_EMPTY, verifiers });
const input = (
  text: string,
  fields: Record<string, unknown> = {},
  components = {},
): VerifierInput => ({
  text,
  fields,
  components,
  verdicts: {},
});

const format = formatGate();
const correctness = exactMatch("correctness", 2, "answer");

describe("format gate (the library's format_reward)", () => {
  it.each([
    ["<reasoning>6 x 7</reasoning>\n<answer>42</answer>", true],
    ["  <reasoning>a\nb</reasoning><answer>42</answer>\n", true], // stripped, DOTALL
    ["<reasoning>r</reasoning> <answer>41</answer>", true], // a wrong answer is still well formed
    ["42", false],
    ["<answer>42</answer>", false],
    ["<reasoning>r</reasoning><answer>42</answer> trailing", false],
    ["preamble <reasoning>r</reasoning><answer>42</answer>", false],
  ])("%j -> %s", (text, ok) => {
    expect(formatGatePasses(text, PRESET)).toBe(ok);
  });

  it("a pattern without anchors is searched, as the docs say", () => {
    expect(formatGatePasses("the order #W123 is here", /#W\d+/)).toBe(true);
  });
});

describe("exact match (the library's correctness_reward)", () => {
  it("extracts the <answer> block, or the first capture group, or the whole match", () => {
    expect(answerExtract("<answer> 42 </answer>", /<answer>(.*?)<\/answer>/s)).toBe(" 42 ");
    expect(
      answerExtract("x <answer>a\nb</answer> <answer>c</answer>", /<answer>(.*?)<\/answer>/s),
    ).toBe("a\nb");
    expect(answerExtract("order #W42 and #W7", /#W\d+/)).toBe("#W42");
    expect(answerExtract("no block", /<answer>(.*?)<\/answer>/s)).toBeNull();
    expect(answerExtract("ab", /a(x)?b/)).toBeNull(); // the group did not take part
  });

  it("normalises as documented: trim by default; case, whitespace and numbers on request", () => {
    const d = ANSWER_NORMALIZATION_DEFAULT;
    expect(answerEquals(" 42 ", "42", d)).toBe(true);
    expect(answerEquals("Paris", "paris", d)).toBe(false);
    expect(answerEquals("Paris", "paris", { ...d, ignoreCase: true })).toBe(true);
    expect(answerEquals("a  b\nc", "a b c", d)).toBe(false);
    expect(answerEquals("a  b\nc", "a b c", { ...d, collapseWhitespace: true })).toBe(true);
    expect(answerEquals("42.0", "42", d)).toBe(false);
    expect(answerEquals("42.0", "42", { ...d, numeric: true })).toBe(true);
    expect(answerEquals("1,000", "1e3", { ...d, numeric: true })).toBe(true);
    expect(answerEquals("abc", "abc", { ...d, numeric: true })).toBe(true);
    expect(answerEquals("0x10", "16", { ...d, numeric: true })).toBe(false);
  });

  it("reads plain decimals only", () => {
    expect(answerNumber("-0.50")).toBe(-0.5);
    expect(answerNumber(".5")).toBe(0.5);
    expect(answerNumber("12,345.6")).toBe(12345.6);
    for (const t of ["", "e5", "1,00", "0x10", "Infinity", "4 2", "1."])
      expect(answerNumber(t)).toBeNull();
  });

  it("takes text, numbers and booleans as ground truth, and lists of them", () => {
    expect(answerGolds("42")).toEqual(["42"]);
    expect(answerGolds(42)).toEqual(["42"]);
    expect(answerGolds(true)).toEqual(["true"]);
    expect(answerGolds(["a", 1])).toEqual(["a", "1"]);
    for (const x of [undefined, null, {}, [], [{}], NaN]) expect(answerGolds(x)).toBeNull();
  });

  it("scores 2.0 (weight 2) for the right answer and 0 for a well-formed wrong one, which passes the format", () => {
    const run = verifierScore(spec(format, correctness), [
      input("<reasoning>6 x 7</reasoning>\n<answer> 42 </answer>", { answer: "42" }),
      input("<reasoning>6 x 7</reasoning>\n<answer>41</answer>", { answer: "42" }),
      input("42", { answer: "42" }),
    ]);
    expect(run.names).toEqual(["format", "correctness"]);
    expect(run.outcomes.map((row) => row.map((o) => o.value))).toEqual([
      [1, 2],
      [1, 0],
      [0, 0],
    ]);
    expect(run.outcomes[1]![1]).toEqual({ value: 0, pass: false, note: '"41" is not "42"' });
    expect(run.outcomes[2]![1]!.note).toBe("no match for <answer>(.*?)</answer>");
  });

  it("does not apply (null, never 0) where a row has no ground truth", () => {
    const run = verifierScore(spec(correctness), [
      input("<answer>42</answer>", {}),
      input("<answer>42</answer>", { answer: { nested: 1 } }),
    ]);
    expect(run.outcomes.map((r) => r[0])).toEqual([
      { value: null, pass: null, note: 'no ground truth at "answer"' },
      { value: null, pass: null, note: 'the ground truth at "answer" is not text' },
    ]);
  });

  it("reads the ground truth from a metadata path of the rollout", () => {
    const s = spec({ ...correctness, field: "reward_model.ground_truth" });
    const rollout = testRollout({
      completion: "<answer>7</answer>",
      meta: { reward_model: { ground_truth: 7 } },
    });
    const run = verifierScore(s, [verifierInput(rollout, s)]);
    expect(run.outcomes[0]![0]!.value).toBe(2);
  });

  it("uses its own pattern and flags when given", () => {
    const s = spec({ ...correctness, weight: 1, pattern: "order #(W\\d+)", flags: "i" });
    const run = verifierScore(s, [
      input("I cancelled ORDER #W123.", { answer: "W123" }),
      input("I cancelled order #W999.", { answer: "W123" }),
    ]);
    expect(run.outcomes.map((r) => r[0]!.value)).toEqual([1, 0]);
  });
});

describe("JSON schema (the library's schema_reward)", () => {
  const schema = {
    type: "object",
    properties: { name: { type: "string" }, age: { type: "integer" } },
    required: ["name", "age"],
  };
  const jsonVerifier: Verifier = {
    kind: "json-schema",
    name: "schema",
    enabled: true,
    weight: 1,
    schema: { from: "inline", schema },
    draft: "2020-12",
  };

  it("applies a dict schema to every row, not key by key (three keys, three rows)", () => {
    expect(Object.keys(schema)).toHaveLength(3);
    const run = verifierScore(spec(jsonVerifier), [
      input('{"name": "a", "age": 3}'),
      input('{"name": "b", "age": 4}'),
      input('{"name": "c", "age": 5}'),
    ]);
    expect(run.outcomes.map((r) => r[0]!.value)).toEqual([1, 1, 1]);
  });

  it("scores 0 for text that does not parse or does not validate, with the reason", () => {
    const run = verifierScore(spec(jsonVerifier), [
      input('{"name": "a", "age": "three"}'),
      input('{"name": "a"}'),
      input("name: a"),
      input('```json\n{"name": "a", "age": 3}\n```'),
    ]);
    expect(run.outcomes.map((r) => r[0]!.value)).toEqual([0, 0, 0, 0]);
    expect(run.outcomes[0]![0]!.note).toMatch(/^\/age: .*integer/);
    expect(run.outcomes[1]![0]!.note).toMatch(/required property "age"/);
    expect(run.outcomes[2]![0]!.note).toMatch(/^not JSON: /);
  });

  it("takes each row's own schema from a field: an object, or JSON text of one", () => {
    const perRow: Verifier = { ...jsonVerifier, schema: { from: "field", field: "output_schema" } };
    const run = verifierScore(spec(perRow), [
      input("3", { output_schema: { type: "integer" } }),
      input("3", { output_schema: '{"type": "string"}' }),
      input('"x"', { output_schema: { type: "string", minLength: 1 } }),
      input("3", {}),
      input("3", { output_schema: "{not json" }),
      input("3", { output_schema: [1, 2] }),
    ]);
    expect(run.outcomes.map((r) => r[0]!.value)).toEqual([1, 0, 1, null, null, null]);
    expect(run.outcomes[3]![0]!.note).toBe('no schema at "output_schema"');
    expect(run.outcomes[4]![0]!.note).toMatch(/schema text is not JSON/);
    expect(run.outcomes[5]![0]!.note).toMatch(/not an array/);
  });

  it("boolean schemas and drafts", () => {
    expect(jsonSchemaCompile(true, "7").ok).toBe(true);
    const never = jsonSchemaCompile(false, "2020-12");
    expect(never.ok && jsonSchemaCheck("1", never.validate).valid).toBe(false);
    // draft 4's exclusiveMaximum is a boolean modifier of maximum
    const d4 = jsonSchemaCompile({ maximum: 3, exclusiveMaximum: true }, "4");
    expect(d4.ok && jsonSchemaCheck("3", d4.validate).valid).toBe(false);
    expect(d4.ok && jsonSchemaCheck("2", d4.validate).valid).toBe(true);
  });

  it("an unresolvable $ref counts as invalid with the validator's message", () => {
    const c = jsonSchemaCompile({ $ref: "#/nowhere" }, "2020-12");
    expect(c.ok).toBe(true);
    const verdict = c.ok ? jsonSchemaCheck("1", c.validate) : null;
    expect(verdict?.valid).toBe(false);
    expect(verdict?.note).toMatch(/^the schema could not be applied: .*nowhere/);
  });
});

describe("length penalty (the library's with_length_penalty)", () => {
  it("counts words as Python's split() does, or code points", () => {
    expect(lengthCount("  a b\n\tc  ", "words")).toBe(3);
    expect(lengthCount("", "words")).toBe(0);
    expect(lengthCount("a😀b", "characters")).toBe(3);
  });

  it("subtracts 0.001 per token past 512, capped at the reward", () => {
    expect(lengthPenalize(2, 512, 512, 0.001)).toBe(2);
    expect(lengthPenalize(2, 600, 512, 0.001)).toBeCloseTo(1.912, 12);
    expect(lengthPenalize(2, 5000, 512, 0.001)).toBe(0); // 4.488 would go negative: capped
    expect(lengthPenalize(0, 5000, 512, 0.001)).toBe(0); // a wrong answer stays 0
    expect(lengthPenalize(-1, 5000, 512, 0.001)).toBe(-1); // never lifts a negative reward
  });

  const words = (n: number): string => Array.from({ length: n }, () => "w").join(" ");

  it("wraps a verifier: replaces it, and never makes a correct reward negative", () => {
    const penalty = lengthPenalty("correctness_len", "correctness", 4, 0.5);
    const s = spec(correctness, penalty);
    expect(verifierEmitted(s).map((v) => v.name)).toEqual(["correctness_len"]);
    const run = verifierScore(s, [
      input("<answer>42</answer>", { answer: "42" }), // 1 word
      input(`<answer>42</answer> ${words(5)}`, { answer: "42" }), // 6 words: 2 - 1
      input(`<answer>42</answer> ${words(99)}`, { answer: "42" }), // capped at 2
      input(`<answer>41</answer> ${words(99)}`, { answer: "42" }), // 0 stays 0
      input("<answer>42</answer>", {}), // no ground truth: nothing to penalise
    ]);
    expect(run.names).toEqual(["correctness", "correctness_len"]);
    expect(run.outcomes.map((r) => r[1]!.value)).toEqual([2, 1, 0, 0, null]);
    expect(run.outcomes.map((r) => r[1]!.pass)).toEqual([true, true, false, false, null]);
    expect(run.outcomes[1]![1]!.note).toBe("6 words, 2 past 4");
  });

  it("wraps a component of the file, and reads a disabled verifier as its input", () => {
    const penalty = lengthPenalty("quality_len", "quality", 1, 0.25);
    const run = verifierScore(spec(penalty), [
      input("a b c", {}, { quality: 1 }),
      input("a", {}, { quality: null }),
    ]);
    expect(run.outcomes.map((r) => r[0]!.value)).toEqual([0.5, null]);
    const disabledInner = spec({ ...format, enabled: false }, { ...penalty, wraps: "format" });
    expect(verifierScore(disabledInner, [input("x y")]).names).toEqual(["format", "quality_len"]);
  });
});

describe("spec checks", () => {
  it("flags bad patterns and flags", () => {
    expect(verifierRegexProblem("a(", "")).toMatch(/Invalid regular expression|Unterminated/);
    expect(verifierRegexProblem("a", "g")).toBe('flag "g" is not one of imsu');
    expect(verifierRegexProblem("a", "ii")).toBe('flag "i" is repeated');
    expect(verifierRegexProblem("a", "isu")).toBeNull();
  });

  it("names every problem with the verifier", () => {
    const s = spec(
      format,
      { ...format },
      { ...correctness, field: " " },
      { ...correctness, name: "resolved" },
      {
        kind: "length-penalty",
        name: "lp",
        enabled: true,
        weight: 1,
        wraps: "lp",
        target: 1,
        penaltyPerUnit: 0,
        unit: "words",
      },
      {
        kind: "length-penalty",
        name: "lp2",
        enabled: true,
        weight: 1,
        wraps: "nothing",
        target: -1,
        penaltyPerUnit: 0,
        unit: "words",
      },
      {
        kind: "length-penalty",
        name: "lp3",
        enabled: true,
        weight: 1,
        wraps: "lp2",
        target: 1,
        penaltyPerUnit: 0,
        unit: "words",
      },
      {
        kind: "json-schema",
        name: "js",
        enabled: true,
        weight: 1,
        schema: { from: "inline", schema: [] },
        draft: "7",
      },
      { ...format, name: "" },
    );
    const problems = verifierSpecProblems(s, ["resolved"]);
    expect(problems.map((p) => [p.index, p.field])).toEqual([
      [1, "name"],
      [2, "field"],
      [3, "name"],
      [4, "wraps"],
      [5, "target"],
      [5, "wraps"],
      [6, "wraps"],
      [7, "schema.schema"],
      [8, "name"],
    ]);
    expect(problems.map((p) => verifierProblemText(s, p))).toEqual([
      'verifier 2 ("format"): the name is used twice',
      'verifier 3 ("correctness"): pick the ground-truth field',
      'verifier 4 ("resolved"): the file already has a reward component of that name',
      'verifier 5 ("lp"): a length penalty cannot wrap itself',
      'verifier 6 ("lp2"): the target length must be a number >= 0',
      'verifier 6 ("lp2"): wraps "nothing", which is neither a verifier nor a component',
      'verifier 7 ("lp3"): wraps another length penalty ("lp2"); wrap its input instead',
      'verifier 8 ("js"): the schema must be a JSON object (or true or false)',
      "verifier 9: has no name",
    ]);
    // Read on its own, a spec cannot know the file's components.
    expect(verifierSpecProblems(spec({ ...correctness, name: "resolved" }), null)).toEqual([]);
  });

  it("two enabled penalties cannot wrap one component", () => {
    const lp = (name: string): Verifier => ({
      kind: "length-penalty",
      name,
      enabled: true,
      weight: 1,
      wraps: "correctness",
      target: 1,
      penaltyPerUnit: 0,
      unit: "words",
    });
    expect(verifierSpecProblems(spec(correctness, lp("a"), lp("b")), [])).toEqual([
      { index: 2, field: "wraps", message: '"correctness" is already wrapped by "a"' },
    ]);
  });
});

describe("metadata paths", () => {
  it("looks up dotted paths, array indices and dotted keys", () => {
    const meta = { a: { b: [1, { c: "x" }] }, "d.e": 2 };
    expect(verifierFieldAt(meta, "a.b[1].c")).toBe("x");
    expect(verifierFieldAt(meta, "a.b.0")).toBe(1);
    expect(verifierFieldAt(meta, "d.e")).toBe(2);
    expect(verifierFieldAt(meta, "a.z")).toBeUndefined();
    expect(verifierFieldAt(meta, "")).toBeUndefined();
  });

  it("lists the paths a picker offers: nested objects dotted, arrays as leaves", () => {
    expect(
      verifierFieldPaths([
        { gold: "1", rm: { gt: "2", deep: { x: 1 } } },
        { extra: [1], gold: "3" },
      ]),
    ).toEqual(["gold", "rm", "rm.gt", "rm.deep", "rm.deep.x", "extra"]);
    expect(verifierFieldPaths([{ a: 1, b: 2, c: 3 }], 2)).toEqual(["a", "b"]);
  });
});

describe("verifierInput", () => {
  it("reads the completion, or the transcript's final assistant text under the spec's rule", () => {
    const chat = testRollout({
      completion: null,
      messages: [
        { role: "assistant", content: " first ", toolCalls: [], toolCallId: null, name: null },
        { role: "tool", content: "t", toolCalls: [], toolCallId: null, name: null },
      ],
      meta: { answer: "1" },
      rewards: { q: 1 },
    });
    const s = spec(correctness);
    expect(verifierInput(chat, s)).toEqual({
      text: "first",
      fields: { answer: "1" },
      components: { q: 1 },
      verdicts: {},
    });
    expect(verifierInput(chat, { ...s, text: "benchmax" }).text).toBe("");
  });
});

describe("verifierTally", () => {
  it("counts passes, failures and rows a verifier does not apply to, with the first reason", () => {
    const run = verifierScore(spec(format, correctness), [
      input("<reasoning>r</reasoning><answer>42</answer>", { answer: "42" }),
      input("<reasoning>r</reasoning><answer>41</answer>", {}),
      input("x", { answer: "42" }),
    ]);
    expect(verifierTally(run)).toEqual([
      { name: "format", pass: 2, fail: 1, notApplicable: 0, firstNote: "" },
      {
        name: "correctness",
        pass: 1,
        fail: 1,
        notApplicable: 1,
        firstNote: 'no ground truth at "answer"',
      },
    ]);
  });
});

describe("verifierVersion", () => {
  it("changes with what decides verdicts, not with the weight or on/off", () => {
    const s = spec(format, correctness);
    const v = verifierVersion(s, "format");
    expect(v).toMatch(/^v[0-9a-f]{8}$/);
    expect(
      verifierVersion(spec({ ...format, weight: 3, enabled: false }, correctness), "format"),
    ).toBe(v);
    expect(verifierVersion(spec({ ...format, pattern: "^x$" }, correctness), "format")).not.toBe(v);
    expect(verifierVersion({ ...s, text: "all-assistant" }, "format")).not.toBe(v);
    expect(verifierVersion(s, "correctness")).not.toBe(v);
  });
});
