/**
 * The reward spec file: what the studio's Verifiers panel exports and `rollout-studio analyze
 * --verifiers spec.json` reads. Validated here once, defaults filled in; after this boundary the
 * shape is core's `VerifierSpec`. Unknown keys are errors (a misspelt "weigth" must not be ignored).
 *
 * ```json
 * { "version": 1, "text": "final-assistant", "loggedReward": "auto",
 *   "verifiers": [
 *     { "kind": "format", "name": "format", "pattern": "^<reasoning>.*?</reasoning>\\s*<answer>.*?</answer>$", "flags": "s" },
 *     { "kind": "exact-match", "name": "correct", "field": "answer", "weight": 2 },
 *     { "kind": "json-schema", "name": "schema", "schema": { "from": "field", "field": "output_schema" } },
 *     { "kind": "length-penalty", "name": "correct_len", "wraps": "correct", "target": 512 },
 *     { "kind": "judge", "name": "judge", "mode": "rubric", "run": null } ] }
 * ```
 */
import { z } from "zod";
import {
  COMPLETION_RULES,
  ANSWER_NORMALIZATION_DEFAULT,
  JSON_SCHEMA_DRAFTS,
  JUDGE_VERIFIER_DEFAULT,
  JUDGE_VERIFIER_MODES,
  LENGTH_PENALTY_DEFAULT,
  verifierRegexProblem,
  verifierSpecProblems,
  type Verifier,
  type VerifierSpec,
} from "../../core/index.ts";
import { fieldPath, zodIssues } from "../formats/zodIssues.ts";
import type { ParseIssue, Result } from "../issues.ts";

const name = z.string().refine((s) => s.trim() !== "", "a verifier needs a name");
const common = {
  name,
  enabled: z.boolean().default(true),
  weight: z.number().refine(Number.isFinite, "expected a finite number").default(1),
};
const flags = z.string().default("");

/** A pattern and its flags must compile together; the problem is reported on the pattern. */
function checkPattern(v: { pattern: string | null; flags: string }, ctx: z.RefinementCtx): void {
  if (v.pattern === null) return;
  const problem = verifierRegexProblem(v.pattern, v.flags);
  if (problem !== null) ctx.addIssue({ code: "custom", path: ["pattern"], message: problem });
}

const formatSchema = z
  .strictObject({ kind: z.literal("format"), ...common, pattern: z.string(), flags })
  .superRefine(checkPattern);

const normalizeSchema = z
  .strictObject({
    trim: z.boolean().default(ANSWER_NORMALIZATION_DEFAULT.trim),
    ignoreCase: z.boolean().default(ANSWER_NORMALIZATION_DEFAULT.ignoreCase),
    collapseWhitespace: z.boolean().default(ANSWER_NORMALIZATION_DEFAULT.collapseWhitespace),
    numeric: z.boolean().default(ANSWER_NORMALIZATION_DEFAULT.numeric),
  })
  .default(ANSWER_NORMALIZATION_DEFAULT);

const exactSchema = z
  .strictObject({
    kind: z.literal("exact-match"),
    ...common,
    field: z.string().refine((s) => s.trim() !== "", "name the ground-truth field"),
    pattern: z.string().nullable().default(null),
    flags,
    normalize: normalizeSchema,
  })
  .superRefine(checkPattern);

const schemaSourceSchema = z.discriminatedUnion("from", [
  z.strictObject({
    from: z.literal("inline"),
    schema: z.union([z.boolean(), z.record(z.string(), z.unknown())], {
      error: "a JSON schema is an object (or true or false)",
    }),
  }),
  z.strictObject({
    from: z.literal("field"),
    field: z.string().refine((s) => s.trim() !== "", "name the field that holds each row's schema"),
  }),
]);

const jsonSchemaSchema = z.strictObject({
  kind: z.literal("json-schema"),
  ...common,
  schema: schemaSourceSchema,
  draft: z.enum(JSON_SCHEMA_DRAFTS).default("2020-12"),
});

const nonNegative = z
  .number()
  .refine((x) => Number.isFinite(x) && x >= 0, "expected a number >= 0");
const lengthSchema = z.strictObject({
  kind: z.literal("length-penalty"),
  ...common,
  wraps: z.string().refine((s) => s.trim() !== "", "name the component it wraps"),
  target: nonNegative.default(LENGTH_PENALTY_DEFAULT.target),
  penaltyPerUnit: nonNegative.default(LENGTH_PENALTY_DEFAULT.penaltyPerUnit),
  unit: z.enum(["words", "characters"]).default(LENGTH_PENALTY_DEFAULT.unit),
});

const judgeSchema = z.strictObject({
  kind: z.literal("judge"),
  ...common,
  mode: z.enum(JUDGE_VERIFIER_MODES).default(JUDGE_VERIFIER_DEFAULT.mode),
  run: z
    .string()
    .refine((s) => s.trim() !== "", "name the judge run, or null for the newest run of the mode")
    .nullable()
    .default(JUDGE_VERIFIER_DEFAULT.run),
  passThreshold: z
    .number()
    .refine(Number.isFinite, "expected a finite number")
    .default(JUDGE_VERIFIER_DEFAULT.passThreshold),
  rubricPassScore: z
    .number()
    .refine((x) => x >= 0 && x <= 1, "expected a number in [0, 1]")
    .default(JUDGE_VERIFIER_DEFAULT.rubricPassScore),
});

const verifierSchema = z.discriminatedUnion("kind", [
  formatSchema,
  exactSchema,
  jsonSchemaSchema,
  lengthSchema,
  judgeSchema,
]);

const specSchema = z.strictObject({
  version: z.literal(1, { error: "expected version 1" }),
  text: z.enum(COMPLETION_RULES).default("final-assistant"),
  loggedReward: z.enum(["auto", "multiply", "keep", "drop"]).default("auto"),
  verifiers: z.array(verifierSchema),
});

/** A parsed verifier as core's type (zod's output type keeps readonly-ness loose). */
function verifierFromParsed(v: z.infer<typeof verifierSchema>): Verifier {
  switch (v.kind) {
    case "format":
      return { ...v };
    case "exact-match":
      return { ...v, normalize: { ...v.normalize } };
    case "json-schema":
      return {
        ...v,
        schema:
          v.schema.from === "inline"
            ? { from: "inline", schema: v.schema.schema }
            : { from: "field", field: v.schema.field },
      };
    case "length-penalty":
    case "judge":
      return { ...v };
  }
}

/**
 * A spec from a parsed JSON value: every problem as an issue naming the file and the field
 * (`verifiers[1].pattern`), including the cross-verifier ones (duplicate names, what a length
 * penalty wraps).
 */
export function verifierSpecFromUnknown(file: string, value: unknown): Result<VerifierSpec> {
  const parsed = specSchema.safeParse(value);
  if (!parsed.success) return { ok: false, issues: zodIssues({ file, line: 0 }, parsed.error) };
  const spec: VerifierSpec = {
    version: 1,
    text: parsed.data.text,
    loggedReward: parsed.data.loggedReward,
    verifiers: parsed.data.verifiers.map(verifierFromParsed),
  };
  const problems = verifierSpecProblems(spec, null);
  if (problems.length > 0)
    return {
      ok: false,
      issues: problems.map((p): ParseIssue => ({
        file,
        line: 0,
        field: fieldPath(["verifiers", p.index, ...p.field.split(".")]),
        message: p.message,
      })),
    };
  return { ok: true, value: spec };
}

/** A spec from the text of a spec file. */
export function verifierSpecParse(file: string, text: string): Result<VerifierSpec> {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, "")) as unknown;
  } catch (e) {
    return {
      ok: false,
      issues: [
        { file, line: 0, message: `not JSON: ${e instanceof Error ? e.message : String(e)}` },
      ],
    };
  }
  return verifierSpecFromUnknown(file, value);
}

/** The spec file's text: what the studio exports and the CLI reads back unchanged. */
export function verifierSpecToJson(spec: VerifierSpec): string {
  return `${JSON.stringify(spec, null, 2)}\n`;
}
