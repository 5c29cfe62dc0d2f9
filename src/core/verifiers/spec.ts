/**
 * The reward spec: the verifiers the user configured, which the studio runs in a worker and the
 * CLI applies with `analyze --verifiers spec.json`. Each enabled verifier adds one named reward
 * component to every rollout (src/core/verifiers/apply.ts). The JSON form is parsed and filled with
 * defaults by src/io/verifiers/specFile.ts; after that boundary the shapes here are trusted.
 *
 * Scores follow the GRPO reward-function library (../shared/seeds/grpo-reward-function-library.txt):
 * a format gate, exact match of the extracted answer, JSON-schema validation, and a length-penalty
 * wrapper. A component's value is `weight x score`, as a TRL reward function returns its own scale
 * (the library's correctness reward returns 2.0 on a match: exact match with weight 2). The rubric
 * judge is one more binary verifier: a judge run's stored pass/fail verdicts (./judge.ts); the
 * verifier never calls an endpoint, the Judge panel and `rollout-studio judge` make the runs.
 */
import type { CompletionRule } from "../analysis/text.ts";
import type { LoggedRewardRule } from "./combine.ts";
import {
  JUDGE_VERDICT_DEFAULTS,
  judgeRunLatest,
  type JudgeMode,
  type JudgeRun,
} from "../judge/runs.ts";

/** Regular-expression flags a pattern may carry: no `g` or `y`, whose `lastIndex` makes tests stateful. */
export const VERIFIER_REGEX_FLAGS = "imsu";

interface VerifierCommon {
  /** The reward component's name; unique in the spec, and no component of the file may have it. */
  readonly name: string;
  /** Off: the verifier adds no component (a length penalty may still read it as its input). */
  readonly enabled: boolean;
  /** The component's value is weight x score; any finite number. */
  readonly weight: number;
}

/** 1 when the pattern matches the (stripped) completion, else 0: the library's `format_reward`. */
export interface FormatGateVerifier extends VerifierCommon {
  readonly kind: "format";
  /** Searched in the text; anchor it with ^ and $ to require the whole text (the preset does). */
  readonly pattern: string;
  /** Any of {@link VERIFIER_REGEX_FLAGS}. */
  readonly flags: string;
}

/** How an extracted answer and the ground truth are made comparable. */
export interface AnswerNormalization {
  /** Strip surrounding whitespace from both (the library's `.strip()`). Default on. */
  readonly trim: boolean;
  /** Compare lower-cased. Default off. */
  readonly ignoreCase: boolean;
  /** Collapse every run of whitespace to one space. Default off. */
  readonly collapseWhitespace: boolean;
  /**
   * When both sides read as plain decimal numbers (thousands commas allowed: "1,000", "1e3",
   * "-0.50"), compare them as numbers, so "42.0" equals "42". Default off.
   */
  readonly numeric: boolean;
}

export const ANSWER_NORMALIZATION_DEFAULT: AnswerNormalization = {
  trim: true,
  ignoreCase: false,
  collapseWhitespace: false,
  numeric: false,
};

/**
 * 1 when the answer extracted from the completion equals the ground truth, else 0: the library's
 * `correctness_reward`. A well-formed wrong answer scores 0. A rollout without a ground truth gets
 * no value (null, "not applicable"), never 0.
 */
export interface ExactMatchVerifier extends VerifierCommon {
  readonly kind: "exact-match";
  /**
   * Where the ground truth is: a path into the rollout's metadata (the loaders keep every source
   * field they do not map there), e.g. "answer", "gts" or "reward_model.ground_truth". A string,
   * a number or a boolean, or an array of them (any one matches).
   */
  readonly field: string;
  /** The answer is the pattern's first capture group (else the whole match); null: `<answer>(.*?)</answer>`. */
  readonly pattern: string | null;
  readonly flags: string;
  readonly normalize: AnswerNormalization;
}

/** The JSON-schema drafts the validator implements. */
export const JSON_SCHEMA_DRAFTS = ["4", "7", "2019-09", "2020-12"] as const;
export type JsonSchemaDraft = (typeof JSON_SCHEMA_DRAFTS)[number];

/** Where a JSON-schema verifier's schema comes from. */
export type SchemaSource =
  /** One schema (an object, or true/false) for every row; it is never iterated key by key. */
  | { readonly from: "inline"; readonly schema: unknown }
  /** Each row's own schema from a metadata path (an object, or JSON text of one). */
  | { readonly from: "field"; readonly field: string };

/** 1 when the completion parses as JSON and validates against the schema, else 0: `schema_reward`. */
export interface JsonSchemaVerifier extends VerifierCommon {
  readonly kind: "json-schema";
  readonly schema: SchemaSource;
  readonly draft: JsonSchemaDraft;
}

export type LengthUnit = "words" | "characters";

/**
 * `with_length_penalty`: another component, less `penaltyPerUnit` for every unit of length past
 * `target`, the penalty capped at the component's own value so a reward of 0 or more never goes
 * below 0 (a negative reward is left as it is). It replaces the component it wraps, as
 * `with_length_penalty(fn)` replaces `fn` in TRL's reward list.
 */
export interface LengthPenaltyVerifier extends VerifierCommon {
  readonly kind: "length-penalty";
  /** Another verifier's name, or a reward component of the file. */
  readonly wraps: string;
  /** Length allowed before the penalty starts, in `unit`s (the library's default: 512). */
  readonly target: number;
  /** Penalty per unit past the target (the library's default: 0.001). */
  readonly penaltyPerUnit: number;
  /** Words (whitespace-separated, the library's proxy for tokens) or characters (code points). */
  readonly unit: LengthUnit;
}

/** Judge modes whose runs give a pass/fail per rollout (`judgeRunVerdicts`), the rubric judge first. */
export const JUDGE_VERIFIER_MODES = [
  "rubric",
  "gar",
  "pairwise",
] as const satisfies readonly JudgeMode[];
export type JudgeVerifierMode = (typeof JUDGE_VERIFIER_MODES)[number];

/**
 * A judge run's verdict as a binary reward: 1 when the judge passes the rollout, 0 when it fails
 * it, null (not applicable, with a note) when the run has no verdict for it (its group not judged
 * or failed, its own request failed). The verdict is `judgeRunVerdicts` on the file's own reward
 * (logged, or the unweighted sum of its components), exactly what calibration compares for the
 * run itself: a rollout below `passThreshold` is a fail whatever the judge said; a rubric run
 * passes a pass whose solution x behavior is at least `rubricPassScore`.
 */
export interface JudgeVerifier extends VerifierCommon {
  readonly kind: "judge";
  readonly mode: JudgeVerifierMode;
  /** The run's id; null: the newest run of `mode` (`judgeRunLatest`), so a new run re-scores. */
  readonly run: string | null;
  /** A reward >= this is a pass before the judge is asked (default 0.5, the analysis default). */
  readonly passThreshold: number;
  /** rubric runs: solution x behavior needed for a pass (default 0.5). */
  readonly rubricPassScore: number;
}

/** The judge verifier's defaults: `judgeRunVerdicts`' own. */
export const JUDGE_VERIFIER_DEFAULT = {
  mode: "rubric",
  run: null,
  passThreshold: JUDGE_VERDICT_DEFAULTS.passThreshold,
  rubricPassScore: JUDGE_VERDICT_DEFAULTS.rubricPassScore,
} as const satisfies Pick<JudgeVerifier, "mode" | "run" | "passThreshold" | "rubricPassScore">;

export type Verifier =
  | FormatGateVerifier
  | ExactMatchVerifier
  | JsonSchemaVerifier
  | LengthPenaltyVerifier
  | JudgeVerifier;

export type VerifierKind = Verifier["kind"];

export const VERIFIER_KINDS: readonly VerifierKind[] = [
  "format",
  "exact-match",
  "json-schema",
  "length-penalty",
  "judge",
];

export interface VerifierSpec {
  readonly version: 1;
  /** Which text of a chat transcript the verifiers read; a plain completion is read as it is. */
  readonly text: CompletionRule;
  /**
   * How the logged reward and the verifiers' components make the total (./combine.ts): "multiply"
   * (the logged reward times the components: a 0/1 reward stays 0/1), "keep" (plus the
   * components, a re-score on top of the file), "drop" (the components alone; the file's are not
   * used), or "auto" (the default: multiply when every logged reward is 0 or 1, else keep).
   */
  readonly loggedReward: LoggedRewardRule;
  readonly verifiers: readonly Verifier[];
}

export const VERIFIER_SPEC_EMPTY: VerifierSpec = {
  version: 1,
  text: "final-assistant",
  loggedReward: "auto",
  verifiers: [],
};

/** The library's format: `^<reasoning>.*?</reasoning>\s*<answer>.*?</answer>$` with DOTALL. */
export const FORMAT_PRESET_REASONING_ANSWER = {
  pattern: "^<reasoning>.*?</reasoning>\\s*<answer>.*?</answer>$",
  flags: "s",
} as const;

/** The library's answer extraction: `<answer>(.*?)</answer>` with DOTALL. */
export const ANSWER_PATTERN_DEFAULT = { pattern: "<answer>(.*?)</answer>", flags: "s" } as const;

/** The library's `with_length_penalty` defaults. */
export const LENGTH_PENALTY_DEFAULT = {
  target: 512,
  penaltyPerUnit: 0.001,
  unit: "words",
} as const satisfies Pick<LengthPenaltyVerifier, "target" | "penaltyPerUnit" | "unit">;

/**
 * The problem with a regular expression's source and flags, or null when it compiles. Flags outside
 * {@link VERIFIER_REGEX_FLAGS} (or repeated) are a problem too.
 */
export function verifierRegexProblem(pattern: string, flags: string): string | null {
  for (const [i, f] of [...flags].entries()) {
    if (!VERIFIER_REGEX_FLAGS.includes(f))
      return `flag "${f}" is not one of ${VERIFIER_REGEX_FLAGS}`;
    if (flags.indexOf(f) !== i) return `flag "${f}" is repeated`;
  }
  try {
    new RegExp(pattern, flags);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** The verifiers that add a component: enabled, and not the input of an enabled length penalty. */
export function verifierEmitted(spec: VerifierSpec): Verifier[] {
  const wrapped = new Set(
    spec.verifiers.flatMap((v) => (v.enabled && v.kind === "length-penalty" ? [v.wraps] : [])),
  );
  return spec.verifiers.filter((v) => v.enabled && !wrapped.has(v.name));
}

/** True when the spec changes anything: some verifier is enabled, or the logged reward is dropped. */
export function verifierSpecActive(spec: VerifierSpec): boolean {
  return spec.loggedReward === "drop" || spec.verifiers.some((v) => v.enabled);
}

/** One thing wrong with a spec: which verifier (0-based), which of its fields, and what. */
export interface VerifierProblem {
  readonly index: number;
  /** The verifier's field ("name", "pattern", "wraps", "schema.field", ...). */
  readonly field: string;
  readonly message: string;
}

/** A problem as one line: `verifier 2 ("fmt"): the name is used twice`. */
export function verifierProblemText(spec: VerifierSpec, problem: VerifierProblem): string {
  const name = spec.verifiers[problem.index]?.name ?? "";
  return `verifier ${problem.index + 1}${name.trim() === "" ? "" : ` ("${name}")`}: ${problem.message}`;
}

/**
 * Everything that makes a spec unusable: a missing or duplicate name, a bad pattern, an empty
 * field, a length penalty that wraps nothing known, itself, another length penalty, or a component
 * another penalty wraps; a verifier named like a component of the file; a judge verifier whose run
 * is not there ("run the judge first"). The io parser reports these with the file and field; the
 * studio and the CLI check them again against the loaded components and the judge runs.
 *
 * @param fileComponents the reward component names of the loaded rollouts; null when unknown
 *   (a spec read on its own), which skips the checks against them
 * @param judgeRuns the annotations' judge runs; null when unknown, which skips the check that a
 *   judge verifier has its run (only verifiers that are evaluated need one)
 */
export function verifierSpecProblems(
  spec: VerifierSpec,
  fileComponents: readonly string[] | null,
  judgeRuns: readonly JudgeRun[] | null = null,
): VerifierProblem[] {
  const problems: VerifierProblem[] = [];
  const names = new Set<string>();
  const file = new Set(fileComponents ?? []);
  const byName = new Map(spec.verifiers.map((v) => [v.name, v]));
  const wrappedBy = new Map<string, string>();
  const evaluated = new Set(
    spec.verifiers.flatMap((v) =>
      v.enabled ? (v.kind === "length-penalty" ? [v.name, v.wraps] : [v.name]) : [],
    ),
  );
  spec.verifiers.forEach((v, index) => {
    const add = (field: string, message: string): void => {
      problems.push({ index, field, message });
    };
    if (v.name.trim() === "") add("name", "has no name");
    else if (names.has(v.name)) add("name", "the name is used twice");
    else if (file.has(v.name)) add("name", "the file already has a reward component of that name");
    names.add(v.name);
    if (!Number.isFinite(v.weight)) add("weight", "the weight must be a finite number");
    if (v.kind === "format" || (v.kind === "exact-match" && v.pattern !== null)) {
      const problem = verifierRegexProblem(v.pattern ?? "", v.flags);
      if (problem !== null) add("pattern", `the pattern is invalid: ${problem}`);
    }
    if (v.kind === "exact-match" && v.field.trim() === "")
      add("field", "pick the ground-truth field");
    if (v.kind === "json-schema") {
      if (v.schema.from === "field" && v.schema.field.trim() === "")
        add("schema.field", "pick the field that holds each row's schema");
      if (v.schema.from === "inline" && !isSchemaShape(v.schema.schema))
        add("schema.schema", "the schema must be a JSON object (or true or false)");
    }
    if (v.kind === "judge") {
      if (!(JUDGE_VERIFIER_MODES as readonly string[]).includes(v.mode))
        add("mode", `the mode must be one of ${JUDGE_VERIFIER_MODES.join(", ")}`);
      if (v.run !== null && v.run.trim() === "")
        add("run", "name the judge run, or null for the newest run of the mode");
      if (!Number.isFinite(v.passThreshold))
        add("passThreshold", "the pass threshold must be a finite number");
      if (!(v.rubricPassScore >= 0 && v.rubricPassScore <= 1))
        add("rubricPassScore", "the rubric pass score must be in [0, 1]");
      if (judgeRuns !== null && evaluated.has(v.name)) {
        const problem = verifierJudgeRunProblem(v, judgeRuns);
        if (problem !== null) add("run", problem);
      }
    }
    if (v.kind === "length-penalty") {
      if (!(v.target >= 0) || !Number.isFinite(v.target))
        add("target", "the target length must be a number >= 0");
      if (!(v.penaltyPerUnit >= 0) || !Number.isFinite(v.penaltyPerUnit))
        add("penaltyPerUnit", "the penalty per unit must be a number >= 0");
      const inner = byName.get(v.wraps);
      if (v.wraps === v.name) add("wraps", "a length penalty cannot wrap itself");
      else if (inner?.kind === "length-penalty")
        add("wraps", `wraps another length penalty ("${v.wraps}"); wrap its input instead`);
      else if (v.wraps.trim() === "") add("wraps", "pick the component it wraps");
      else if (inner === undefined && fileComponents !== null && !file.has(v.wraps))
        add("wraps", `wraps "${v.wraps}", which is neither a verifier nor a component`);
      if (v.enabled) {
        const other = wrappedBy.get(v.wraps);
        if (other !== undefined) add("wraps", `"${v.wraps}" is already wrapped by "${other}"`);
        else wrappedBy.set(v.wraps, v.name);
      }
    }
  });
  return problems;
}

/**
 * The judge run a judge verifier reads: the run of its id, or the newest run of its mode; null
 * when there is none, or the named run is of another mode (`verifierJudgeRunProblem` says which).
 */
export function verifierJudgeRun(v: JudgeVerifier, runs: readonly JudgeRun[]): JudgeRun | null {
  if (v.run === null) return judgeRunLatest(runs, v.mode);
  const run = runs.find((r) => r.info.id === v.run);
  return run !== undefined && run.info.mode === v.mode ? run : null;
}

/** Why a judge verifier has no run to read ("run the judge first"), or null when it has one. */
export function verifierJudgeRunProblem(
  v: JudgeVerifier,
  runs: readonly JudgeRun[],
): string | null {
  if (v.run === null)
    return judgeRunLatest(runs, v.mode) === null
      ? `there is no ${v.mode} judge run yet: run the judge first (the LLM judge panel, or rollout-studio judge --mode ${v.mode})`
      : null;
  const run = runs.find((r) => r.info.id === v.run);
  if (run === undefined)
    return `there is no judge run "${v.run}" (${runs.length === 0 ? "no runs yet: run the judge first" : `runs: ${runs.map((r) => r.info.id).join(", ")}`})`;
  if (run.info.mode !== v.mode)
    return `judge run "${v.run}" is a ${run.info.mode} run, not a ${v.mode} run`;
  return null;
}

function isSchemaShape(x: unknown): boolean {
  return typeof x === "boolean" || (typeof x === "object" && x !== null && !Array.isArray(x));
}

/**
 * A short version of one verifier's configuration and the text rule it reads, `v` + 8 hex digits
 * (FNV-1a of the JSON): calibration records it like a judge's prompt version, so changing a pattern
 * or a schema reads as a new judge. The weight and on/off do not change verdicts and are left out.
 * A judge verifier's version also covers the run it reads (its id and prompt version): with `run`
 * null, a newer run of its mode is a new version.
 *
 * @param judgeRuns the runs a judge verifier resolves its run among (the annotations')
 */
export function verifierVersion(
  spec: VerifierSpec,
  name: string,
  judgeRuns: readonly JudgeRun[] = [],
): string {
  const v = spec.verifiers.find((x) => x.name === name);
  // JSON leaves undefined out: the weight and on/off do not count.
  const bare = (x: Verifier | undefined) => {
    if (x === undefined) return null;
    const config = { ...x, weight: undefined, enabled: undefined };
    if (x.kind !== "judge") return config;
    const run = verifierJudgeRun(x, judgeRuns);
    return { ...config, reads: run === null ? null : [run.info.id, run.info.promptVersion] };
  };
  const config = bare(v);
  const innerConfig = bare(
    v?.kind === "length-penalty" ? spec.verifiers.find((x) => x.name === v.wraps) : undefined,
  );
  const text = JSON.stringify({ text: spec.text, config, inner: innerConfig });
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `v${hash.toString(16).padStart(8, "0")}`;
}
