/**
 * Running a spec's verifiers over rollouts. Split in two so the studio can do the heavy part in a
 * worker: `verifierInput` picks what a rollout's verifiers read (its text, the metadata fields the
 * spec names, its reward components), which is small and structured-cloneable; `verifierScore`
 * scores those inputs. The CLI calls both in one go through `verifierApply` (apply.ts).
 */
import { rolloutText } from "../analysis/text.ts";
import type { JudgeRun } from "../judge/runs.ts";
import type { RewardComponents, Rollout, RolloutGroup } from "../types.ts";
import { verifierRolloutFieldAt } from "./fields.ts";
import { verifierJudgeVerdicts, type JudgeVerdictInput } from "./judge.ts";
import { jsonSchemaCheck, jsonSchemaCompile, type CompiledSchema } from "./jsonSchema.ts";
import { lengthCount, lengthPenalize } from "./length.ts";
import { answerEquals, answerExtract, answerGolds, formatGatePasses } from "./match.ts";
import {
  ANSWER_PATTERN_DEFAULT,
  type JsonSchemaVerifier,
  type Verifier,
  type VerifierSpec,
} from "./spec.ts";

/** What a rollout's verifiers read. */
export interface VerifierInput {
  /** The completion, or the transcript's text under the spec's rule; stripped. */
  readonly text: string;
  /**
   * The value at each path the spec reads: the metadata's, else the format's own field (`answer`;
   * fields.ts `verifierRolloutFieldAt`); undefined when missing.
   */
  readonly fields: Readonly<Record<string, unknown>>;
  /** The file's reward components, which a length penalty may wrap. */
  readonly components: RewardComponents;
  /** Each judge verifier's verdict on this rollout, by verifier name (./judge.ts). */
  readonly verdicts: Readonly<Record<string, JudgeVerdictInput>>;
}

/** One verifier on one rollout. */
export interface VerifierOutcome {
  /** weight x score; null when the verifier does not apply (no ground truth, no schema, ...). */
  readonly value: number | null;
  /** The verdict a calibration compares with human labels; null when it does not apply. */
  readonly pass: boolean | null;
  /** Why, for inspection ("no match for <answer>(.*?)</answer>", "/age: ..."); "" when nothing to say. */
  readonly note: string;
}

/** Every evaluated verifier on every input. */
export interface VerifierRun {
  /** The verifiers evaluated, in spec order: the enabled ones and the inputs of enabled penalties. */
  readonly names: readonly string[];
  /** outcomes[row][k] is verifier names[k] on input row. */
  readonly outcomes: readonly (readonly VerifierOutcome[])[];
}

/** The metadata paths a spec reads. */
export function verifierFieldsRead(spec: VerifierSpec): string[] {
  const paths = new Set<string>();
  for (const v of verifierEvaluated(spec)) {
    if (v.kind === "exact-match") paths.add(v.field);
    if (v.kind === "json-schema" && v.schema.from === "field") paths.add(v.schema.field);
  }
  return [...paths];
}

/** The verifiers a run evaluates, in spec order: enabled, or wrapped by an enabled length penalty. */
export function verifierEvaluated(spec: VerifierSpec): Verifier[] {
  const wrapped = new Set(
    spec.verifiers.flatMap((v) => (v.enabled && v.kind === "length-penalty" ? [v.wraps] : [])),
  );
  return spec.verifiers.filter((v) => v.enabled || wrapped.has(v.name));
}

/**
 * What a rollout's verifiers read under the spec.
 *
 * @param verdicts its judge verifiers' verdicts (see {@link verifierGroupInputs}, which computes
 *   them for a whole group); none for a spec without judge verifiers
 */
export function verifierInput(
  rollout: Rollout,
  spec: VerifierSpec,
  paths: readonly string[] = verifierFieldsRead(spec),
  verdicts: Readonly<Record<string, JudgeVerdictInput>> = {},
): VerifierInput {
  const fields: Record<string, unknown> = {};
  for (const path of paths) fields[path] = verifierRolloutFieldAt(rollout, path);
  return { text: rolloutText(rollout, spec.text), fields, components: rollout.rewards, verdicts };
}

/**
 * The inputs of a group's rollouts, in rollout order, with their judge verdicts from `judgeRuns`
 * (the annotations' runs): what the studio's sync and the CLI both build before scoring.
 */
export function verifierGroupInputs(
  group: RolloutGroup,
  spec: VerifierSpec,
  judgeRuns: readonly JudgeRun[],
  paths: readonly string[] = verifierFieldsRead(spec),
): VerifierInput[] {
  const verdicts = verifierJudgeVerdicts(spec, group, judgeRuns);
  return group.rollouts.map((r, i) => verifierInput(r, spec, paths, verdicts[i]));
}

const NOT_APPLICABLE = (note: string): VerifierOutcome => ({ value: null, pass: null, note });

/** A binary score as an outcome: weight x (1 or 0). */
function binary(weight: number, pass: boolean, note: string): VerifierOutcome {
  return { value: pass ? weight : 0, pass, note };
}

type Scorer = (input: VerifierInput, done: ReadonlyMap<string, VerifierOutcome>) => VerifierOutcome;

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 60 ? `${flat.slice(0, 60)}…` : flat;
}

function jsonSchemaScorer(v: JsonSchemaVerifier): Scorer {
  const source = v.schema;
  if (source.from === "inline") {
    // One schema for every row: compiled once, never iterated key by key.
    const compiled = jsonSchemaCompile(source.schema, v.draft);
    return (input) => {
      if (!compiled.ok) return NOT_APPLICABLE(compiled.problem);
      const verdict = jsonSchemaCheck(input.text, compiled.validate);
      return binary(v.weight, verdict.valid, verdict.note);
    };
  }
  // Rows often share a schema: compile each distinct one once.
  const cache = new Map<string, CompiledSchema>();
  return (input) => {
    const raw = input.fields[source.field];
    if (raw === undefined || raw === null) return NOT_APPLICABLE(`no schema at "${source.field}"`);
    const key = typeof raw === "string" ? raw : JSON.stringify(raw);
    let compiled = cache.get(key);
    if (compiled === undefined) {
      compiled = jsonSchemaCompile(raw, v.draft);
      cache.set(key, compiled);
    }
    if (!compiled.ok) return NOT_APPLICABLE(`"${source.field}": ${compiled.problem}`);
    const verdict = jsonSchemaCheck(input.text, compiled.validate);
    return binary(v.weight, verdict.valid, verdict.note);
  };
}

function scorer(v: Verifier): Scorer {
  switch (v.kind) {
    case "format": {
      const regex = new RegExp(v.pattern, v.flags);
      return (input) => {
        const ok = formatGatePasses(input.text, regex);
        return binary(v.weight, ok, ok ? "" : "the format does not match");
      };
    }
    case "exact-match": {
      const source = v.pattern ?? ANSWER_PATTERN_DEFAULT.pattern;
      const regex = new RegExp(source, v.pattern === null ? ANSWER_PATTERN_DEFAULT.flags : v.flags);
      return (input) => {
        const golds = answerGolds(input.fields[v.field]);
        if (golds === null) {
          const raw = input.fields[v.field];
          return NOT_APPLICABLE(
            raw === undefined
              ? `no ground truth at "${v.field}"`
              : `the ground truth at "${v.field}" is not text`,
          );
        }
        const predicted = answerExtract(input.text, regex);
        if (predicted === null) return binary(v.weight, false, `no match for ${source}`);
        const ok = golds.some((g) => answerEquals(predicted, g, v.normalize));
        return binary(
          v.weight,
          ok,
          ok ? "" : `"${preview(predicted)}" is not "${preview(golds.join('" or "'))}"`,
        );
      };
    }
    case "json-schema":
      return jsonSchemaScorer(v);
    case "judge":
      return (input) => {
        const given = Object.hasOwn(input.verdicts, v.name) ? input.verdicts[v.name] : undefined;
        if (given === undefined)
          return NOT_APPLICABLE("no judge verdict was read for this rollout");
        if (given.verdict === null) return NOT_APPLICABLE(given.note);
        return binary(v.weight, given.verdict === "pass", given.note);
      };
    case "length-penalty":
      return (input, done) => {
        const inner = done.get(v.wraps);
        const base = inner !== undefined ? inner.value : (input.components[v.wraps] ?? null);
        if (base === null || Number.isNaN(base))
          return NOT_APPLICABLE(inner !== undefined ? inner.note : `no component "${v.wraps}"`);
        const length = lengthCount(input.text, v.unit);
        const penalised = lengthPenalize(base, length, v.target, v.penaltyPerUnit);
        const over = length - v.target;
        return {
          value: v.weight * penalised,
          pass: penalised > 0,
          note: over > 0 ? `${length} ${v.unit}, ${over} past ${v.target}` : "",
        };
      };
  }
}

/**
 * Score inputs with a spec's verifiers. Length penalties read the outcome of the verifier they wrap
 * (computed first, whatever its place in the spec), or the file's component of that name.
 * Deterministic, and every pattern and schema is compiled once per call.
 *
 * @throws SyntaxError for a pattern that does not compile (the spec parser rejects those first)
 */
export function verifierScore(spec: VerifierSpec, inputs: readonly VerifierInput[]): VerifierRun {
  const evaluated = verifierEvaluated(spec);
  // Inputs of penalties before the penalties themselves.
  const order = [
    ...evaluated.filter((v) => v.kind !== "length-penalty"),
    ...evaluated.filter((v) => v.kind === "length-penalty"),
  ];
  const scorers = order.map((v) => [v.name, scorer(v)] as const);
  const outcomes = inputs.map((input) => {
    const done = new Map<string, VerifierOutcome>();
    for (const [name, score] of scorers) done.set(name, score(input, done));
    return evaluated.map((v) => done.get(v.name)!);
  });
  return { names: evaluated.map((v) => v.name), outcomes };
}

/** How one verifier came out over a run. */
export interface VerifierTally {
  readonly name: string;
  readonly pass: number;
  readonly fail: number;
  /** Rows it does not apply to (value null). */
  readonly notApplicable: number;
  /** The first row it did not apply to, and why, for the message that says so. */
  readonly firstNote: string;
}

/** Pass, fail and not-applicable counts per verifier of a run, in run order. */
export function verifierTally(run: VerifierRun): VerifierTally[] {
  return run.names.map((name, k) => {
    let pass = 0;
    let fail = 0;
    let notApplicable = 0;
    let firstNote = "";
    for (const row of run.outcomes) {
      const o = row[k];
      if (o === undefined || o.pass === null) {
        notApplicable++;
        if (firstNote === "") firstNote = o?.note ?? "";
      } else if (o.pass) pass++;
      else fail++;
    }
    return { name, pass, fail, notApplicable, firstNote };
  });
}
