/**
 * `rollout-studio export FILE --annotations A.json --kind KIND --out F`: the studio's training
 * exports, headless. The files are byte for byte what the studio's Exports panel downloads for the
 * same data, annotations, settings and options: both call core's `exportBuild` (and io's
 * `annotationsToJson` for the annotations kind). With `--db URL --annotator NAME|gold` (issue 18)
 * the annotations are one person's, or the gold, from the team store (exportSource.ts): the same
 * version-1 document, so the same bytes as exporting that document from a file.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  ANALYSIS_SETTING_SCHEMA,
  settingsFlagHelp,
  ANALYSIS_DEFAULTS,
  annotationsResolve,
  COMPLETION_RULES,
  EXPORT_DEFAULTS,
  EXPORT_KINDS,
  ExportError,
  exportBuild,
  REWARD_MODES,
  REWARD_SOURCES,
  rewardSourceFits,
  type ExportInput,
  type ExportKind,
  type ExportOptions,
  type RewardMode,
  type RewardSource,
} from "../../core/index.ts";
import {
  annotationsToJson,
  FORMATS,
  formatIssue,
  LoadError,
  type ParseIssue,
} from "../../io/index.ts";
import { CatalogPathError } from "../../server/catalog.ts";
import { DbError } from "../../server/db/errors.ts";
import { commandArgs, GAR_FLAGS, MAPPING_FLAGS } from "../args.ts";
import { argsRedacted, DB_ENV } from "../dbFlag.ts";
import { EXIT, type CliIo } from "../io.ts";
import { settingsFromFlags, UsageError } from "../settings.ts";
import { loadWithVerifiers } from "../verifierSpec.ts";
import { formatFromFlags, mappingFromFlags, weightsFromFlags } from "./analyze.ts";
import { exportSourceFromFlags, exportSourceRead, type SourceRead } from "./exportSource.ts";

export const EXPORT_USAGE = `Usage: rollout-studio export PATH... --annotations A.json --kind KIND --out F [options]
       rollout-studio export PATH... --db URL --annotator NAME|gold --kind KIND --out F [options]

Write a training-ready file from a rollout dump and the studio's annotations file (the same bytes
the studio's Exports panel downloads), or one person's annotations or the gold from the team
store's database (the same bytes as that document exported to a file and given as --annotations).
PATH is a file, several files, a folder or globs: one run (see analyze --help).

  calibration   JSONL, one row per rollout with a human label or a judge verdict: prompt,
                completion, human label, judge verdict, split, rubric and prompt versions
  rubrics       JSON keyed by task id: each task's current {"solution": [...], "behavior": [...]},
                the mapping whileai's GroupwiseGrading takes as rubrics=
  rewards       JSONL per rollout: the original and the shaped reward (GAR equation 3 or GRS),
                with its source and settings; TRL with scale_rewards="none" reproduces equation 3
  dpo           JSONL preference pairs (prompt, chosen, rejected) from the human rankings
  annotations   the annotations file itself, validated and rewritten

A chat transcript's prompt and completion (chosen, rejected) are message lists in TRL's
conversational form, tool calls and tool results included; --text writes them as text instead.

Options:
  --annotations A.json          the studio's annotations export; or from the database, with
                                --annotator (exactly one of the two; with --annotations,
                                $${DB_ENV} is not read):
  --db URL                      the team store (postgres://USER:PASSWORD@HOST:PORT/DATABASE;
                                default $${DB_ENV}; its password is never printed)
  --annotator NAME|gold         whose annotations: a person's (a revoked one's too), or gold,
                                the leads' resolutions; --kind annotations writes that document
                                (annotator: NAME or gold)
  --dataset NAME                the dataset they are kept under (default: the first PATH's name,
                                as view PATH --db names it)
  --judge-from NAME             take the judge runs, rubrics and calibration splits from NAME's
                                document (the person who ran the judge; the gold holds none)
                                while the human labels, rankings and hacks stay --annotator's:
                                calibration of a judge against the gold (not with --kind
                                annotations)
  --kind KIND                   ${EXPORT_KINDS.join(", ")} (required)
  --out F                       the file to write; - writes to stdout (required)
  --verifiers SPEC.json         apply a reward spec (the studio's Verifiers export) first, as
                                analyze does: calibration, rewards and dpo then read the
                                rollouts with the verifiers' components and the totals they give
                                (what the studio's Exports panel writes with the spec applied);
                                a judge verifier reads its run from the annotations
                                (with --judge-from, from NAME's)
  --judge-run ID|newest|none    calibration: the judge run to compare (default none: no judge
                                until you name one; newest: the newest gar, rubric or pairwise
                                run); rewards with --source judge: the run to read (default: the
                                newest gar run, or the newest rubric run with --mode reward)
  --source human|judge          rewards: the human ranking (default) or a judge run
  --mode advantage|reward       rewards: GAR on the advantage (default) or GRS on the reward
                                (reward mode needs --source judge and a rubric run)
  --floor F                     rewards, reward mode: GRS floor on each score, in [0, 1) (default 0)
${settingsFlagHelp(ANALYSIS_SETTING_SCHEMA.filter((d) => d.flag.group === "gar" && d.key !== "completionRule"))}
  --text [final-assistant|benchmax|all-assistant]
                                write chat transcripts as text (the prompt as text, the
                                completion as the text judges read under this rule; default
                                final-assistant) instead of message lists
  --weight NAME=W               weight of a reward component in the total (repeatable)
  --format auto|FORMAT          read FILE as FORMAT, one of: ${FORMATS.map((f) => f.id).join(", ")}
  --group-key F --text-key F --reward-key F --id-key F
                                read FILE through a field mapping, as analyze does
  -h, --help                    show this help

Exit codes: 0 written; 1 nothing written (missing file, invalid annotations, annotation ids not in
the data, a judge run the annotations do not hold, a reward spec that is invalid or does not fit
FILE; a database that cannot be used, a dataset or person it does not have); 2 usage error (both
or neither of --annotations and --annotator, --annotator without a database, --db without
--annotator); 3 written, but some records of
FILE were rejected or an annotation was ignored. Problems are printed as \`file:line: field: message\`.
`;

function choice<T extends string>(
  name: string,
  value: string | undefined,
  options: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!(options as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${options.join(", ")}; got ${value}`);
  return value as T;
}

/** Export options from the flags. @throws UsageError for a bad value or a missing judge source */
export function exportOptionsFromFlags(values: {
  readonly "judge-run"?: string;
  readonly source?: string;
  readonly mode?: string;
  readonly floor?: string;
}): Omit<ExportOptions, "transcripts"> {
  const source = choice<RewardSource>(
    "source",
    values.source,
    REWARD_SOURCES,
    EXPORT_DEFAULTS.source,
  );
  const mode = choice<RewardMode>("mode", values.mode, REWARD_MODES, EXPORT_DEFAULTS.mode);
  if (!rewardSourceFits(source, mode))
    throw new UsageError("--mode reward reads a rubric run's scores: add --source judge");
  let floor = EXPORT_DEFAULTS.floor;
  if (values.floor !== undefined) {
    floor = values.floor.trim() === "" ? NaN : Number(values.floor);
    if (!(floor >= 0 && floor < 1))
      throw new UsageError(`--floor must be in [0, 1); got ${values.floor}`);
  }
  const run = values["judge-run"];
  if (run !== undefined && run.trim() === "") throw new UsageError("--judge-run needs a run id");
  return { source, mode, floor, judgeRunId: run ?? null };
}

/**
 * `--text` may stand alone: followed by nothing, another flag or FILE, it is `--text` with the
 * default completion rule.
 */
function bareTextFlag(argv: readonly string[]): string[] {
  return argv.map((arg, i) => {
    if (arg !== "--text") return arg;
    const next = argv[i + 1];
    return next !== undefined && (COMPLETION_RULES as readonly string[]).includes(next)
      ? arg
      : `--text=${ANALYSIS_DEFAULTS.completionRule}`;
  });
}

const EXPORT_FLAGS = {
  annotations: { type: "string" },
  db: { type: "string" },
  annotator: { type: "string" },
  dataset: { type: "string" },
  "judge-from": { type: "string" },
  verifiers: { type: "string" },
  kind: { type: "string" },
  out: { type: "string" },
  "judge-run": { type: "string" },
  source: { type: "string" },
  mode: { type: "string" },
  floor: { type: "string" },
  ...MAPPING_FLAGS,
  ...GAR_FLAGS,
  // Also the text rule of GAR_FLAGS: named here, as export reads it itself (transcripts as text).
  text: { type: "string" },
} as const;

/** `export`'s arguments; null after --help. @throws UsageError (a URL in it shown redacted) */
function exportArgs(argv: readonly string[], io: CliIo) {
  try {
    return commandArgs("export", bareTextFlag(argv), EXPORT_FLAGS, EXPORT_USAGE, io);
  } catch (e) {
    // parseArgs quotes what it was given: a --db value would be echoed with its password.
    if (e instanceof UsageError) throw new UsageError(argsRedacted(e.message, argv));
    throw e;
  }
}

/** The export's text and rows, and how many splits it gave that the annotations did not hold. */
function exportText(
  kind: ExportKind,
  input: ExportInput,
  options: ExportOptions,
  label: string,
): { readonly text: string; readonly rows: number; readonly newSplits: number } {
  const { annotations } = input;
  if (kind === "annotations")
    return {
      text: annotationsToJson(annotations),
      rows: Object.keys(annotations.groups).length,
      newSplits: 0,
    };
  try {
    const result = exportBuild(kind, input, options);
    return {
      text: result.text,
      rows: result.rows,
      newSplits:
        Object.keys(result.calibration.assignments).length -
        Object.keys(annotations.calibration.assignments).length,
    };
  } catch (e) {
    if (e instanceof ExportError) throw new LoadError(label, `${e.field}: ${e.message}`);
    throw e;
  }
}

function writeOut(io: CliIo, out: string, text: string): void {
  if (out === "-") {
    io.stdout(text);
    return;
  }
  try {
    writeFileSync(resolve(io.cwd, out), text);
  } catch (e) {
    throw new LoadError(
      out,
      `cannot write the export: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/** Run `export` with the arguments after the command name. */
export async function exportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = exportArgs(argv, io);
  if (args === null) return EXIT.ok;
  const { values, file, paths } = args;
  for (const flag of ["kind", "out"] as const)
    if (values[flag] === undefined || values[flag].trim() === "")
      throw new UsageError(`export needs --${flag}`);
  const kind = choice<ExportKind>("kind", values.kind, EXPORT_KINDS, "annotations");
  const source = exportSourceFromFlags(values, kind, io);
  const options: ExportOptions = {
    ...exportOptionsFromFlags(values),
    transcripts: values.text === undefined ? "messages" : "text",
  };
  const { "reward-key": rewardKeyFlags, weight: weightFlags, ...single } = values;
  const settings = { ...settingsFromFlags(single), rewardWeights: weightsFromFlags(weightFlags) };
  const mapping = mappingFromFlags({ ...single, "reward-key": rewardKeyFlags });
  const format = formatFromFlags(values.format, mapping);

  const out = values.out!;
  // The annotations are read first: a bad file, or a person the database does not have, is
  // refused before a long load.
  let read: SourceRead;
  try {
    read = await exportSourceRead(source, paths, io);
  } catch (e) {
    if (!(e instanceof CatalogPathError || e instanceof DbError)) throw e;
    io.stderr(`rollout-studio: ${e.message}\n`);
    return EXIT.failed;
  }
  const { annotations, label } = read;
  const { loaded } = await loadWithVerifiers(io, {
    file,
    paths,
    format,
    mapping,
    verifiers: values.verifiers,
    judgeRuns: annotations.judgeRuns,
    passRule: settings,
  });
  const resolved = annotationsResolve(loaded.groups, annotations);
  if (resolved.unknown.length > 0) {
    for (const p of resolved.unknown) io.stderr(`${label}: ${p.message}\n`);
    throw new LoadError(
      label,
      `${resolved.unknown.length} id(s) are not in ${file}; are these annotations for another dataset?`,
    );
  }

  const input = { groups: loaded.groups, annotations, settings };
  const { text, rows, newSplits } = exportText(kind, input, options, label);
  writeOut(io, out, text);
  const unit =
    kind === "rubrics" ? "task(s)" : kind === "annotations" ? "annotated group(s)" : "row(s)";
  const report = out === "-" ? io.stderr : io.stdout;
  const from = source.kind === "db" ? `, from ${label}` : "";
  report(
    `rollout-studio: wrote ${kind}: ${rows} ${unit}${out === "-" ? "" : ` to ${out}`}${from}\n`,
  );
  if (newSplits > 0)
    io.stderr(
      `rollout-studio: note: ${newSplits} labelled rollout(s) have no split in ${read.splits.in} yet; the export gave them the split the studio gives them for the same labels (${read.splits.keep})\n`,
    );

  const issues: ParseIssue[] = [
    ...loaded.issues,
    ...resolved.warnings.map((p) => ({
      file: label,
      line: 0,
      field: `groups.${p.groupId}${p.rolloutId === undefined ? "" : `.${p.rolloutId}`}`,
      message: p.message,
    })),
  ];
  for (const issue of issues) io.stderr(`${formatIssue(issue)}\n`);
  if (issues.length > 0) {
    io.stderr(
      `rollout-studio: ${issues.length} problem(s) reported above; the rest was exported.\n`,
    );
    return EXIT.issues;
  }
  return EXIT.ok;
}
