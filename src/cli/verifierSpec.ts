/**
 * `analyze --verifiers SPEC.json`: read the reward spec, run it over the loaded rollouts with the
 * same core code as the studio's worker (core `verifierApply`), and report what each verifier did.
 */
import { resolve } from "node:path";
import {
  rewardComponentNames,
  verifierApply,
  verifierFlipLines,
  verifierFlips,
  verifierLayout,
  verifierReadsJudgeRuns,
  verifierSpecProblems,
  verifierTally,
  type JudgeRun,
  type LoggedRewardResolution,
  type VerifierFlipReport,
  type VerifierRun,
  type VerifierSpec,
} from "../core/index.ts";
import { formatIssue, LoadError, verifierSpecParse, type FormatOptions } from "../io/index.ts";
import type { analysisJson } from "./json.ts";
import type { CliIo } from "./io.ts";
import { indexThreshold, loadRunForCli, type CliLoad } from "./loadForCli.ts";
import { readBytes } from "./readBytes.ts";
import { UsageError } from "./settings.ts";

/** A load with the verifiers' components added, and what they said about each rollout. */
export interface VerifiedLoad {
  readonly loaded: CliLoad;
  readonly spec: VerifierSpec;
  readonly run: VerifierRun;
  /** Rollout ids in run order (group order, then rollout order). */
  readonly ids: readonly string[];
  /** The logged-reward rule applied (`auto` resolved on FILE), and why. */
  readonly resolution: LoggedRewardResolution;
  /** Who passes differently with the spec (under the request's pass rule); null without one. */
  readonly flips: VerifierFlipReport | null;
}

/** The settings the pass rule reads: the pass threshold and the reward weights. */
export interface PassRule {
  readonly passThreshold: number;
  readonly rewardWeights: Readonly<Record<string, number>> | null;
}

/**
 * The spec in a file; every problem is printed as `file: field: message`.
 *
 * @throws LoadError when the file is missing or invalid
 */
export function readVerifierSpec(path: string, io: CliIo): VerifierSpec {
  const text = new TextDecoder().decode(readBytes(resolve(io.cwd, path), "reward spec"));
  const parsed = verifierSpecParse(path, text);
  if (!parsed.ok) {
    for (const issue of parsed.issues) io.stderr(`${formatIssue(issue)}\n`);
    throw new LoadError(path, "the reward spec is invalid");
  }
  return parsed.value;
}

/**
 * Apply the spec to the loaded groups.
 *
 * @param judgeRuns the --annotations file's judge runs, which judge verifiers read
 * @throws LoadError when the spec does not fit the data (a verifier named like one of the file's
 *   components, a length penalty wrapping a component the file does not have, a judge verifier
 *   whose run the annotations do not hold)
 */
export function applyVerifierSpec(
  loaded: CliLoad,
  spec: VerifierSpec,
  specFile: string,
  io: CliIo,
  judgeRuns: readonly JudgeRun[] = [],
  passRule: PassRule | null = null,
): VerifiedLoad {
  const problems = verifierSpecProblems(spec, rewardComponentNames(loaded.groups), judgeRuns);
  if (problems.length > 0) {
    for (const p of problems)
      io.stderr(
        `${formatIssue({ file: specFile, line: 0, field: `verifiers[${p.index}].${p.field}`, message: p.message })}\n`,
      );
    throw new LoadError(specFile, `the reward spec does not fit ${loaded.file}`);
  }
  const applied = verifierApply(loaded.groups, spec, judgeRuns);
  if (!applied.ok) throw new LoadError(specFile, applied.problems.join("; "));
  const flips =
    passRule === null
      ? null
      : verifierFlips(
          loaded.groups,
          applied.groups,
          passRule,
          verifierLayout(spec, applied.resolution.rule).emitted,
          applied.resolution.rule,
        );
  return {
    loaded: { ...loaded, groups: applied.groups },
    spec,
    run: applied.run,
    ids: loaded.groups.flatMap((g) => g.rollouts.map((r) => r.id)),
    resolution: applied.resolution,
    flips,
  };
}

/** What a command loads: FILE read as its flags say, and the reward spec of --verifiers, if given. */
export interface CliLoadRequest {
  /** The PATHs' name in messages. */
  readonly file: string;
  /** The PATHs (one file, several, a folder, globs); [file] when not given. */
  readonly paths?: readonly string[];
  /** undefined: detect it. */
  readonly format: string | undefined;
  readonly mapping: FormatOptions | undefined;
  /** The --verifiers SPEC.json value; undefined without the flag. */
  readonly verifiers: string | undefined;
  /** The --annotations file's judge runs, which judge verifiers read; null without the flag. */
  readonly judgeRuns: readonly JudgeRun[] | null;
  /**
   * The pass rule in force: with it, who passes differently once the spec is applied goes to
   * stderr (and into VerifiedLoad.flips) before anything is written.
   */
  readonly passRule?: PassRule;
}

/** A load, and with --verifiers the spec applied to it (`loaded` is then the augmented load). */
export interface CliLoadVerified {
  readonly loaded: CliLoad;
  readonly verified: VerifiedLoad | null;
}

/**
 * Load FILE and, with --verifiers, apply the reward spec to it, as every command that takes the
 * flag does (analyze, export): the spec is read first, so a bad spec is refused before a long
 * load, then applied with core's `verifierApply`, the studio's code.
 *
 * A judge verifier reads its run from the --annotations file: without the flag the spec is refused
 * (a usage error), and without the run it is refused like any spec that does not fit the data
 * ("run the judge first"); it never scores a whole column null in silence.
 *
 * @throws LoadError for a missing or unreadable FILE, or a spec that is invalid or does not fit it
 * @throws UsageError for a spec with a judge verifier and no --annotations
 */
export async function loadWithVerifiers(
  io: CliIo,
  request: CliLoadRequest,
): Promise<CliLoadVerified> {
  const specFile = request.verifiers;
  const spec = specFile === undefined ? null : readVerifierSpec(specFile, io);
  if (spec !== null && request.judgeRuns === null && verifierReadsJudgeRuns(spec)) {
    const judges = spec.verifiers.flatMap((v, i) =>
      v.kind === "judge" ? [`verifiers[${i}] ("${v.name}")`] : [],
    );
    throw new UsageError(
      `${specFile}: ${judges.join(", ")} read${judges.length === 1 ? "s" : ""} a judge run: add --annotations A.json, the annotations file that holds the run (rollout-studio judge writes one)`,
    );
  }
  const raw = await loadRunForCli(
    io.cwd,
    request.paths ?? [request.file],
    request.format,
    request.mapping,
    indexThreshold(io.env ?? process.env),
  );
  if (spec === null || specFile === undefined) return { loaded: raw, verified: null };
  const verified = applyVerifierSpec(
    raw,
    spec,
    specFile,
    io,
    request.judgeRuns ?? [],
    request.passRule ?? null,
  );
  io.stderr(`${specFile}: ${verified.resolution.reason}\n`);
  if (verified.flips !== null)
    for (const line of verifierFlipLines(verified.flips)) io.stderr(`${specFile}: ${line}\n`);
  return { loaded: verified.loaded, verified };
}

/** The readable lines: one per verifier, with its counts and why it did not apply where it did not. */
export function verifierSummary(verified: VerifiedLoad): string {
  const rule = verified.resolution.rule;
  const emitted = new Set(verifierLayout(verified.spec, rule).emitted);
  const how =
    rule === "multiply"
      ? "multiplying the logged reward"
      : rule === "keep"
        ? "added to the logged reward"
        : "the logged reward dropped";
  const lines = ["", `verifiers (${how}${verified.resolution.auto ? ", auto" : ""}):`];
  for (const t of verifierTally(verified.run)) {
    const role = emitted.has(t.name) ? "component" : "input of a length penalty";
    lines.push(
      `  ${t.name} (${role}): ${t.pass} pass, ${t.fail} fail` +
        (t.notApplicable > 0 ? `, ${t.notApplicable} not applicable (e.g. ${t.firstNote})` : ""),
    );
  }
  if (verified.flips !== null)
    lines.push(...verifierFlipLines(verified.flips).map((l) => `  ${l}`));
  return `${lines.join("\n")}\n`;
}

type AnalysisJson = ReturnType<typeof analysisJson>;

/**
 * The --json document with the verifiers: a top-level `verifiers` (the spec's components and each
 * verifier's counts) and, on each rollout, `verifiers: { name: { value, pass, note? } }`.
 */
export function verifierJson(json: AnalysisJson, verified: VerifiedLoad) {
  const rows = new Map(verified.ids.map((id, i) => [id, verified.run.outcomes[i] ?? []]));
  const names = verified.run.names;
  return {
    ...json,
    verifiers: {
      components: verifierLayout(verified.spec, verified.resolution.rule).emitted,
      // The rule applied (`auto` resolved); the spec's own value is `loggedRewardRule`.
      loggedReward: verified.resolution.rule,
      loggedRewardRule: verified.spec.loggedReward,
      loggedRewardReason: verified.resolution.reason,
      ...(verified.flips === null
        ? {}
        : {
            flips: {
              passesBefore: verified.flips.passesBefore,
              passesAfter: verified.flips.passesAfter,
              groups: verified.flips.groups,
              rollouts: verified.flips.flips.map((f) => ({
                id: f.rolloutId,
                groupId: f.groupId,
                before: Number.isFinite(f.before) ? f.before : null,
                after: Number.isFinite(f.after) ? f.after : null,
                toPass: f.toPass,
                why: f.why,
              })),
            },
          }),
      tally: verifierTally(verified.run).map(({ firstNote: _, ...t }) => t),
    },
    groups: json.groups.map((g) => ({
      ...g,
      rollouts: g.rollouts.map((r) => ({
        ...r,
        verifiers: Object.fromEntries(
          (rows.get(r.id) ?? []).map((o, k) => [
            names[k]!,
            { value: o.value, pass: o.pass, ...(o.note === "" ? {} : { note: o.note }) },
          ]),
        ),
      })),
    })),
  };
}
