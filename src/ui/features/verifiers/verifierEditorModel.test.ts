/** Covers: the verifier editor's view model (choices, labels, entries, and what each change makes). */
import { describe, expect, it } from "vitest";
import {
  FORMAT_PRESET_REASONING_ANSWER,
  JSON_SCHEMA_DRAFTS,
  VERIFIER_KINDS,
  VERIFIER_SPEC_EMPTY,
  judgeAccountingEmpty,
  type JudgeRunInfo,
  type Verifier,
} from "../../../core/index.ts";
import { verifierNew } from "./prepareVerifiers.ts";
import {
  EDITOR_TEXT,
  FORMAT_PRESET_TITLE,
  LENGTH_UNIT_CHOICES,
  NORMALIZE_OPTIONS,
  SCHEMA_DRAFT_CHOICES,
  SCHEMA_SOURCE_CHOICES,
  choicePicked,
  choicesOf,
  judgeRunMissing,
  numberEntry,
  schemaEntry,
  schemaText,
  verifierLegend,
  verifierProblemLine,
  withAnswerPattern,
  withFormatPreset,
  withJudgeMode,
  withJudgeRun,
  withNormalization,
  withSchemaSource,
  wrapsChoices,
  type FieldText,
} from "./verifierEditorModel.ts";

function ofKind<K extends Verifier["kind"]>(kind: K): Extract<Verifier, { kind: K }> {
  const v = verifierNew(kind, VERIFIER_SPEC_EMPTY, [], []);
  if (v.kind !== kind) throw new Error(`verifierNew gave ${v.kind}`);
  return v as Extract<Verifier, { kind: K }>;
}

describe("choices", () => {
  it("show their value unless given a label, and a raw value picks its option", () => {
    expect(choicesOf(["a", "b"])).toEqual([
      { value: "a", label: "a" },
      { value: "b", label: "b" },
    ]);
    const upper = choicesOf(["x", "y"] as const, (v) => v.toUpperCase());
    expect(upper.map((c) => c.label)).toEqual(["X", "Y"]);
    expect(choicePicked(upper, "y")).toBe("y");
    expect(choicePicked(upper, "Y")).toBeNull();
    expect(choicePicked(upper, "")).toBeNull();
  });

  it("offer every draft, both schema sources, both units", () => {
    expect(SCHEMA_DRAFT_CHOICES.map((c) => c.value)).toEqual([...JSON_SCHEMA_DRAFTS]);
    expect(SCHEMA_SOURCE_CHOICES).toEqual([
      { value: "inline", label: "one schema for every row" },
      { value: "field", label: "each row's field" },
    ]);
    expect(LENGTH_UNIT_CHOICES.map((c) => c.value)).toEqual(["words", "characters"]);
  });

  it("keep a length penalty's current wrap listed first when it is not a choice", () => {
    const choices = ["exact_match", "quality"];
    expect(wrapsChoices("quality", choices)).toEqual(choicesOf(choices));
    expect(wrapsChoices("gone", choices)).toEqual([
      { value: "gone", label: "gone" },
      ...choicesOf(choices),
    ]);
    expect(wrapsChoices("", [])).toEqual([{ value: "", label: "(pick one)" }]);
  });
});

describe("labels", () => {
  it("every kind has its fields' labels, the legend counts from 1", () => {
    for (const kind of VERIFIER_KINDS) {
      const texts: Readonly<Record<string, FieldText>> = EDITOR_TEXT[kind];
      const labels = Object.values(texts).map((t) => t.label);
      expect(labels.length).toBeGreaterThan(0);
      expect(labels.every((l) => l !== "")).toBe(true);
    }
    expect(verifierLegend(0, "format")).toBe("1. Format gate");
    expect(verifierLegend(2, "judge")).toBe("3. Rubric judge");
    expect(verifierProblemLine({ index: 0, field: "pattern", message: "does not compile" })).toBe(
      "pattern: does not compile",
    );
  });

  it("the normalisation options are the four AnswerNormalization keys", () => {
    expect(NORMALIZE_OPTIONS.map((o) => o.key)).toEqual([
      "trim",
      "ignoreCase",
      "collapseWhitespace",
      "numeric",
    ]);
    expect(NORMALIZE_OPTIONS.every((o) => o.hint !== undefined && o.hint !== "")).toBe(true);
  });
});

describe("entries", () => {
  it("a number entry that is empty, invalid or infinite reads as NaN", () => {
    expect(numberEntry(0.25)).toBe(0.25);
    expect(numberEntry(-3)).toBe(-3);
    expect(numberEntry(NaN)).toBeNaN();
    expect(numberEntry(Infinity)).toBeNaN();
  });

  it("schema text parses to the schema, or says why it is not JSON", () => {
    const schema = { type: "object", required: ["a"] };
    expect(schemaText(schema)).toBe(JSON.stringify(schema, null, 2));
    expect(schemaEntry(schemaText(schema))).toEqual({ ok: true, schema });
    expect(schemaEntry("true")).toEqual({ ok: true, schema: true });
    const bad = schemaEntry("{type:");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).not.toBe("");
  });
});

describe("changes", () => {
  it("the format preset sets the library's pattern and flags, nothing else", () => {
    const v = { ...ofKind("format"), name: "fmt", pattern: "x", flags: "" };
    expect(withFormatPreset(v)).toEqual({ ...v, ...FORMAT_PRESET_REASONING_ANSWER });
    expect(FORMAT_PRESET_TITLE).toBe(
      `${FORMAT_PRESET_REASONING_ANSWER.pattern} (flags ${FORMAT_PRESET_REASONING_ANSWER.flags})`,
    );
  });

  it("an empty answer pattern is the default (null); a normalisation option flips alone", () => {
    const v = ofKind("exact-match");
    expect(withAnswerPattern(v, "").pattern).toBeNull();
    expect(withAnswerPattern(v, "#(\\d+)").pattern).toBe("#(\\d+)");
    const next = withNormalization(v, "numeric", true);
    expect(next.normalize).toEqual({ ...v.normalize, numeric: true });
    expect(v.normalize.numeric).toBe(false);
  });

  it("a new schema source starts over, keeping the draft", () => {
    const v = { ...ofKind("json-schema"), draft: "7" as const };
    expect(withSchemaSource(v, "field")).toEqual({ ...v, schema: { from: "field", field: "" } });
    const fromField = { ...v, schema: { from: "field" as const, field: "meta.schema" } };
    expect(withSchemaSource(fromField, "inline")).toEqual({
      ...v,
      schema: { from: "inline", schema: { type: "object" } },
    });
  });

  it("a judge's new mode reads its newest run; the picker's empty choice is the newest", () => {
    const v = { ...ofKind("judge"), run: "rubric-1" };
    expect(withJudgeMode(v, "gar")).toEqual({ ...v, mode: "gar", run: null });
    expect(withJudgeRun(v, "")).toEqual({ ...v, run: null });
    expect(withJudgeRun(ofKind("judge"), "rubric-2").run).toBe("rubric-2");
  });
});

describe("judgeRunMissing", () => {
  const run: JudgeRunInfo = {
    id: "gar-1",
    mode: "gar",
    source: "heuristic",
    model: "heuristic",
    baseUrl: "",
    promptVersion: "v",
    startedAt: "2026-11-29T21:00:00.000Z",
    finishedAt: "",
    accounting: judgeAccountingEmpty(),
    costUsd: null,
    cancelled: false,
  };

  it("is null when a run of the mode is stored, else names the mode", () => {
    expect(judgeRunMissing([run], "gar")).toBeNull();
    expect(judgeRunMissing([run], "rubric")).toMatch(
      /^No rubric judge run yet: run the judge first/,
    );
    expect(judgeRunMissing([], "pairwise")).toContain("it never calls a judge.");
  });
});
