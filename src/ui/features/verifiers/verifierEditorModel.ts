/**
 * The verifier editor's view model: what each kind's form offers (labels, hints, choices), how an
 * entry reads (numbers, schema text), and the verifier each change makes. Pure; the editor and its
 * per-kind fields render what these return.
 */
import {
  FORMAT_PRESET_REASONING_ANSWER,
  JSON_SCHEMA_DRAFTS,
  JUDGE_VERIFIER_MODES,
  type AnswerNormalization,
  type ExactMatchVerifier,
  type FormatGateVerifier,
  type JsonSchemaVerifier,
  type JudgeRunInfo,
  type JudgeVerifier,
  type JudgeVerifierMode,
  type LengthUnit,
  type SchemaSource,
  type Verifier,
  type VerifierKind,
  type VerifierProblem,
} from "../../../core/index.ts";
import { VERIFIER_KIND_LABELS } from "./prepareVerifiers.ts";

/** A field's label and, when it has one, the hint its label shows on hover. */
export interface FieldText {
  readonly label: string;
  readonly hint?: string;
}

/** One option of a select: the value it stands for and what it shows. */
export interface Choice<T extends string> {
  readonly value: T;
  readonly label: string;
}

/** Options that show their own value, or `label(value)`. */
export function choicesOf<T extends string>(
  values: readonly T[],
  label: (value: T) => string = (value) => value,
): Choice<T>[] {
  return values.map((value) => ({ value, label: label(value) }));
}

/** The value of the option a select's raw value names, or null when no option has it. */
export function choicePicked<T extends string>(
  choices: readonly Choice<T>[],
  raw: string,
): T | null {
  return choices.find((c) => c.value === raw)?.value ?? null;
}

/** The labels and hints of every kind's fields, and of the fields every verifier has. */
export const EDITOR_TEXT = {
  common: {
    name: { label: "Name", hint: "the reward component's name" },
    weight: {
      label: "Weight",
      hint: "the component's value is weight x score (the library's correctness reward is exact match with weight 2)",
    },
  },
  format: {
    pattern: {
      label: "Pattern",
      hint: "searched in the stripped text; anchor with ^ and $ to require the whole text",
    },
    flags: {
      label: "Flags",
      hint: "any of i (case), m (multiline), s (dot matches newlines), u (Unicode)",
    },
  },
  "exact-match": {
    field: { label: "Ground truth field", hint: "a path into each rollout's metadata" },
    pattern: {
      label: "Answer pattern",
      hint: "the first capture group is the answer (else the whole match); empty: <answer>(.*?)</answer>",
    },
    flags: { label: "Flags" },
  },
  "json-schema": {
    source: { label: "Schema from" },
    draft: { label: "Draft" },
    field: {
      label: "Schema field",
      hint: "a metadata path holding a schema object, or JSON text of one",
    },
    inline: { label: "Schema (JSON, one for every row)" },
  },
  "length-penalty": {
    wraps: { label: "Wraps", hint: "the component it penalises and replaces" },
    target: { label: "Target length" },
    perUnit: { label: "Penalty per unit past it" },
    unit: { label: "Unit", hint: "words (the library's proxy for tokens) or characters" },
  },
  judge: {
    mode: {
      label: "Judge mode",
      hint: "whose verdicts: the rubric scorer (pass when solution x behavior reaches the score), the group grader (a hack fails) or the pairwise judge (wins at least half)",
    },
    run: {
      label: "Judge run",
      hint: "the stored run whose verdicts score the rollouts; the newest one follows new runs",
    },
    threshold: {
      label: "Pass threshold",
      hint: "a rollout whose file reward is below this is a fail whatever the judge says (as the judge's own calibration)",
    },
    rubricScore: {
      label: "Rubric pass score",
      hint: "solution x behavior needed for a pass, in [0, 1]",
    },
  },
} as const satisfies Record<"common" | VerifierKind, Record<string, FieldText>>;

/** The fieldset's legend: its place in the spec (from 1) and its kind. */
export function verifierLegend(index: number, kind: VerifierKind): string {
  return `${index + 1}. ${VERIFIER_KIND_LABELS[kind]}`;
}

/** How a problem of the verifier reads under it. */
export function verifierProblemLine(problem: VerifierProblem): string {
  return `${problem.field}: ${problem.message}`;
}

/** A number input's entry: an empty or invalid one reads as NaN, which the spec's checks report. */
export function numberEntry(valueAsNumber: number): number {
  return Number.isFinite(valueAsNumber) ? valueAsNumber : NaN;
}

/** What the format gate's preset button shows on hover: the pattern and flags it sets. */
export const FORMAT_PRESET_TITLE = `${FORMAT_PRESET_REASONING_ANSWER.pattern} (flags ${FORMAT_PRESET_REASONING_ANSWER.flags})`;

/** The format gate with the library's reasoning/answer pattern and flags. */
export function withFormatPreset(v: FormatGateVerifier): FormatGateVerifier {
  return { ...v, ...FORMAT_PRESET_REASONING_ANSWER };
}

/** Each normalisation option of exact match: its key, its checkbox's label and hint. */
export const NORMALIZE_OPTIONS: readonly (FieldText & {
  readonly key: keyof AnswerNormalization;
})[] = [
  {
    key: "trim",
    label: "trim",
    hint: "strip surrounding whitespace from both (the library's .strip())",
  },
  { key: "ignoreCase", label: "ignore case", hint: "compare lower-cased" },
  {
    key: "collapseWhitespace",
    label: "collapse spaces",
    hint: "every run of whitespace counts as one space",
  },
  {
    key: "numeric",
    label: "as numbers",
    hint: 'when both read as decimal numbers, compare them as numbers ("42.0" = "42")',
  },
];

/** Exact match with an answer pattern; an empty one is null (the `<answer>` default). */
export function withAnswerPattern(v: ExactMatchVerifier, text: string): ExactMatchVerifier {
  return { ...v, pattern: text === "" ? null : text };
}

/** Exact match with one normalisation option turned on or off. */
export function withNormalization(
  v: ExactMatchVerifier,
  key: keyof AnswerNormalization,
  on: boolean,
): ExactMatchVerifier {
  return { ...v, normalize: { ...v.normalize, [key]: on } };
}

/** Where a JSON-schema verifier's schema may come from. */
export const SCHEMA_SOURCE_CHOICES: readonly Choice<SchemaSource["from"]>[] = [
  { value: "inline", label: "one schema for every row" },
  { value: "field", label: "each row's field" },
];

/** The drafts the validator implements, by name. */
export const SCHEMA_DRAFT_CHOICES = choicesOf(JSON_SCHEMA_DRAFTS);

/**
 * A JSON-schema verifier whose schema comes from `from`, starting over: an empty field, or
 * `{"type": "object"}`.
 */
export function withSchemaSource(
  v: JsonSchemaVerifier,
  from: SchemaSource["from"],
): JsonSchemaVerifier {
  return {
    ...v,
    schema:
      from === "field"
        ? { from: "field", field: "" }
        : { from: "inline", schema: { type: "object" } },
  };
}

/** The inline schema as the text its editor starts with. */
export function schemaText(schema: unknown): string {
  return JSON.stringify(schema, null, 2);
}

/** The schema typed so far: the parsed value, or why it is not JSON (shown, never applied). */
export type SchemaEntry =
  { readonly ok: true; readonly schema: unknown } | { readonly ok: false; readonly error: string };

export function schemaEntry(text: string): SchemaEntry {
  try {
    return { ok: true, schema: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * What a length penalty may wrap, as options: the choices, after the current one when it is not
 * among them (a component that is gone, or nothing yet) so the select still shows it.
 */
export function wrapsChoices(wraps: string, choices: readonly string[]): Choice<string>[] {
  const offered = choicesOf(choices);
  return choices.includes(wraps)
    ? offered
    : [{ value: wraps, label: wraps || "(pick one)" }, ...offered];
}

/** What a length penalty counts. */
export const LENGTH_UNIT_CHOICES = choicesOf<LengthUnit>(["words", "characters"]);

/** The judge modes whose runs give a verdict per rollout, the rubric judge first. */
export const JUDGE_MODE_CHOICES = choicesOf(JUDGE_VERIFIER_MODES);

/** A judge verifier of another mode; its run goes back to the newest (a run belongs to one mode). */
export function withJudgeMode(v: JudgeVerifier, mode: JudgeVerifierMode): JudgeVerifier {
  return { ...v, mode, run: null };
}

/** A judge verifier reading the picked run; the picker's "" is null (the newest run of the mode). */
export function withJudgeRun(v: JudgeVerifier, value: string): JudgeVerifier {
  return { ...v, run: value === "" ? null : value };
}

/** Why a judge verifier cannot score yet (no stored run of its mode), or null when it can. */
export function judgeRunMissing(
  runs: readonly JudgeRunInfo[],
  mode: JudgeVerifierMode,
): string | null {
  if (runs.some((r) => r.mode === mode)) return null;
  return `No ${mode} judge run yet: run the judge first (the LLM judge panel, with an endpoint or the offline heuristic grader). This verifier reads stored runs; it never calls a judge.`;
}

/** What each kind's fields get: the verifier, and where its next version goes. */
export interface KindFieldsProps<V extends Verifier> {
  readonly verifier: V;
  readonly onChange: (next: V) => void;
}
