/**
 * `rollout-studio analyze FILE`: group statistics, GRPO advantages, diversity clusters, pass^k and
 * GAR values for the groups the annotations rank.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import {
  ANALYSIS_SETTING_SCHEMA,
  settingsFlagHelp,
  analyzeDataset,
  analyzeDatasetStream,
  annotationsResolve,
  type AnalysisSettings,
  type Annotations,
  type DatasetAnalysis,
  type DatasetAnalysisHead,
  type DatasetAnalysisStream,
  datasetAnalysisHead,
  type ResolvedAnnotations,
  type RolloutGroup,
  type SettingDecl,
} from "../../core/index.ts";
import {
  FORMATS,
  formatIssue,
  LoadError,
  formatById,
  datasetWithParsedTallies,
  parsedGroupTally,
  packedIndexOf,
  packIndex,
  readIndexedGroup,
  withRunHeader,
  type FormatOptions,
  type ParsedGroupTally,
  type ParseIssue,
} from "../../io/index.ts";
import {
  headersBeside,
  freshGroups,
  indexedGroupsForCli,
  indexForCli,
  indexThreshold,
  noRolloutRead,
  reportsBeside,
  type CliIndexedFile,
  type CliLoad,
} from "../loadForCli.ts";
import { cliRunOf } from "../runPaths.ts";
import {
  analyzeIndexInPool,
  analyzeThreadCount,
  startAnalyzePool,
} from "../analyzeThreads/pool.ts";
import type { AnalyzedGroup } from "../analyzeThreads/protocol.ts";
import { EarlyAnalysis } from "../analyzeThreads/speculate.ts";
import { analysisJson } from "../json.ts";
import { readAnnotationsFile } from "../annotationsFile.ts";
import { settingsFromFlags, UsageError } from "../settings.ts";
import { SUMMARY_GROUPS, summaryText } from "../summary.ts";
import {
  loadWithVerifiers,
  verifierJson,
  verifierSummary,
  type VerifiedLoad,
} from "../verifierSpec.ts";
import { ANALYSIS_FLAGS, commandArgs, GAR_FLAGS, MAPPING_FLAGS } from "../args.ts";
import { EXIT, type CliIo } from "../io.ts";
import { watchRun } from "../watch.ts";

/** The usage, with the flags of these settings (core's settings schema: ANALYZE_USAGE). */
export function analyzeUsage(settings: readonly SettingDecl[]): string {
  return `Usage: rollout-studio analyze PATH... [options]

Analyse a rollout dump: group statistics, GRPO advantages, diversity clusters, pass^k, and GAR
values for groups your annotations rank. PATH is a file, several files, a folder or globs
("out/completions/*.parquet", quoted so the CLI expands them): several are one run, each file's
step (TRL's completions_00010, verl's {step}.jsonl, step_N, else the file order) part of its
groups' identity.

Options:
  --annotations A.json          studio annotations export (version 1)
  --verifiers SPEC.json         apply a reward spec (the studio's Verifiers export): each enabled
                                verifier adds a reward component, and the totals, advantages and
                                GAR follow from them as in the studio; a judge verifier reads its
                                judge run from --annotations (refused without it, or without a run
                                of its mode: run the judge first)
  --format auto|FORMAT          skip detection and read FILE as FORMAT, one of:
                                ${FORMATS.map((f) => f.id).join(", ")} (csv = mapped)
  --group-key F --text-key F    read any JSONL, JSON array, CSV or Parquet table through a field
                                mapping (format "mapped"): F is a field name or a dotted path
  --reward-key F                a reward field; repeat it or separate with commas for components
                                (with --format trl it picks TRL's reward columns)
  --id-key F                    the rollout id field (default: <group>/<index in group>)
  --weight NAME=W               weight of a reward component in the total (repeatable; every
                                component weighs 1 unless set, as TRL's reward_weights)
${settingsFlagHelp(settings)}
  --json                        write one JSON document to stdout
  --messages                    with --json: add each rollout's transcript as read (prompt,
                                messages with roles, text, tool calls with parsed arguments,
                                tool results; completion text), to check what a loader read
  --watch                       with a folder: print one line per step as it lands (groups,
                                rollouts, pass rate, zero-std and mixed shares), and again when a
                                step changes, until interrupted (SIGINT, SIGTERM: exit 0)
  -h, --help                    show this help

Exit codes: 0 ok; 1 nothing analysed; 2 usage error; 3 analysed with rejected input or ignored annotations.
JSONL files of 32 MB or more are indexed and parsed a group at a time (ROLLOUT_STUDIO_INDEX_THRESHOLD=BYTES changes the size).
`;
}

export const ANALYZE_USAGE = analyzeUsage(ANALYSIS_SETTING_SCHEMA);

/**
 * Reward weights from repeated --weight NAME=W; null when none is given (each rollout's own reward,
 * or the unweighted sum of its components, is used).
 *
 * @throws UsageError for a malformed pair or a non-finite weight
 */
export function weightsFromFlags(
  flags: readonly string[] | undefined,
): Record<string, number> | null {
  if (flags === undefined || flags.length === 0) return null;
  const weights: Record<string, number> = {};
  for (const flag of flags) {
    const at = flag.lastIndexOf("=");
    const name = at === -1 ? "" : flag.slice(0, at).trim();
    const value = at === -1 ? NaN : Number(flag.slice(at + 1));
    if (name === "" || !Number.isFinite(value) || flag.slice(at + 1).trim() === "") {
      throw new UsageError(
        `--weight must be NAME=NUMBER, e.g. --weight format_reward=0.5; got ${flag}`,
      );
    }
    weights[name] = value;
  }
  return weights;
}

/**
 * The field mapping from --group-key, --text-key, --reward-key (repeatable, comma-separated) and
 * --id-key; undefined when none is given.
 *
 * @throws UsageError for an empty field name
 */
export function mappingFromFlags(values: {
  readonly "group-key"?: string;
  readonly "text-key"?: string;
  readonly "reward-key"?: readonly string[];
  readonly "id-key"?: string;
}): FormatOptions | undefined {
  const field = (flag: string, value: string | undefined): string | undefined => {
    if (value === undefined) return undefined;
    if (value.trim() === "") throw new UsageError(`--${flag} needs a field name`);
    return value.trim();
  };
  const groupKey = field("group-key", values["group-key"]);
  const textKey = field("text-key", values["text-key"]);
  const idKey = field("id-key", values["id-key"]);
  const rewardKeys = values["reward-key"]?.flatMap((v) => v.split(",")).map((k) => k.trim());
  if (rewardKeys?.some((k) => k === "")) throw new UsageError("--reward-key needs a field name");
  if ([groupKey, textKey, idKey, rewardKeys].every((v) => v === undefined)) return undefined;
  return {
    ...(groupKey === undefined ? {} : { groupKey }),
    ...(textKey === undefined ? {} : { textKey }),
    ...(idKey === undefined ? {} : { idKey }),
    ...(rewardKeys === undefined ? {} : { rewardKeys }),
  };
}

/**
 * The format to read FILE as, from --format and the field mapping: undefined to detect it. "csv" is
 * the issue's name for a mapped table; a mapping means the mapped format unless another is named.
 *
 * @throws UsageError for an unknown format, or a mapped format without a group and a text field
 */
export function formatFromFlags(
  flag: string | undefined,
  mapping: FormatOptions | undefined,
): string | undefined {
  const named = flag !== undefined && flag !== "auto";
  let format = !named ? undefined : flag === "csv" ? "mapped" : flag;
  if (format !== undefined && formatById(format) === undefined) {
    throw new UsageError(
      `--format must be auto or one of ${FORMATS.map((f) => f.id).join(", ")}; got ${format}`,
    );
  }
  if (format === undefined && mapping !== undefined) format = "mapped";
  if (format === "mapped" && (mapping?.groupKey === undefined || mapping.textKey === undefined)) {
    throw new UsageError(
      named
        ? "--format mapped needs --group-key FIELD and --text-key FIELD"
        : "a field mapping needs --group-key FIELD and --text-key FIELD (or name the format with --format, e.g. --format trl --reward-key COLUMN)",
    );
  }
  return format;
}

/**
 * `analyze DIR --watch`: follow the folder until SIGINT or SIGTERM, then exit 0.
 *
 * @throws UsageError for anything but one folder, or flags the follow mode does not apply
 */
async function watchCommand(
  io: CliIo,
  paths: readonly string[],
  format: string | undefined,
  mapping: FormatOptions | undefined,
  settings: AnalysisSettings,
  values: { readonly annotations?: string; readonly verifiers?: string; readonly json?: boolean },
): Promise<number> {
  const dir = paths.length === 1 ? resolve(io.cwd, paths[0]!) : null;
  if (dir === null || !existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError("--watch follows one folder: analyze DIR --watch");
  const other = (["annotations", "verifiers", "json"] as const).filter(
    (f) => values[f] !== undefined,
  );
  if (other.length > 0 || mapping !== undefined)
    throw new UsageError(
      `--watch prints the step lines only; it takes no ${other.length > 0 ? other.map((f) => `--${f}`).join(", ") : "field mapping"}`,
    );
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  io.stdout(`watching ${paths[0]} (every 500 ms); Ctrl+C stops\n`);
  try {
    await watchRun({
      dir,
      format,
      settings,
      intervalMs: 500,
      signal: controller.signal,
      stdout: io.stdout,
      stderr: io.stderr,
    });
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  return EXIT.ok;
}

/**
 * The annotations resolved against the data, or a LoadError when they name ids the data does not
 * hold (each printed first): annotations for another dataset must not be applied in part.
 */
function checkedAnnotations(
  io: CliIo,
  groups: readonly RolloutGroup[],
  annotations: Annotations,
  annotationsFile: string,
  file: string,
): ResolvedAnnotations {
  const resolved = annotationsResolve(groups, annotations);
  if (resolved.unknown.length > 0) {
    for (const p of resolved.unknown) io.stderr(`${annotationsFile}: ${p.message}\n`);
    throw new LoadError(
      annotationsFile,
      `${resolved.unknown.length} id(s) are not in ${file}; are these annotations for another dataset?`,
    );
  }
  return resolved;
}

/**
 * `analyze` of one large JSONL file a group at a time (core's analyzeDatasetStream), in bounded
 * memory: each group is read, parsed, analysed and dropped, and only its analysis and its summary's
 * tally stay (loading every rollout first held 8-12 times the file). The annotated groups are read
 * first, to resolve the annotations as a whole load does. From THREADS_FROM_BYTES the groups are
 * read and analysed in worker threads, which start with the index when there are no annotations
 * (../analyzeThreads/speculate.ts). The numbers equal a whole load's
 * (src/cli/analyzeStream.test.ts). Null when the PATHs are not one such file: load them instead.
 */
async function analyzeIndexedFile(
  io: CliIo,
  file: string,
  paths: readonly string[],
  format: string | undefined,
  mapping: FormatOptions | undefined,
  settings: AnalysisSettings,
  annotations: Annotations | null,
  annotationsFile: string | undefined,
  keep: number,
): Promise<{ loaded: CliLoad; stream: DatasetAnalysisStream } | null> {
  const run = cliRunOf(io.cwd, paths);
  if (!run.single) return null;
  const path = run.absolute.get(run.name)!;
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return null;
  }
  const threshold = indexThreshold(io.env ?? process.env);
  const threads = analyzeThreadCount(io.env ?? process.env, size);
  const poolSetup = { path, name: run.name, size, settings, threads };
  // Without annotations (resolved only once indexed), the threads start with the index and
  // analyse the groups it has finished meanwhile.
  let pool =
    threads > 1 && annotations === null && size >= threshold && mapping === undefined
      ? startAnalyzePool({ ...poolSetup, annotations: undefined })
      : null;
  const early = pool === null ? null : new EarlyAnalysis(pool, keep);
  let indexed: CliIndexedFile | null;
  try {
    indexed = await indexForCli(path, run.name, format, mapping, threshold, size, early?.onRows);
  } catch (e) {
    pool?.close();
    throw e;
  }
  // An evaluation report beside the file changes its rewards: load it whole with the report.
  if (indexed === null || reportsBeside(path, run.name, indexed.dataset.format).length > 0) {
    pool?.close();
    return null;
  }
  let resolved: ResolvedAnnotations | undefined;
  if (annotations !== null) {
    const annotated: RolloutGroup[] = [];
    for (const id of Object.keys(annotations.groups)) {
      const { group } = await readIndexedGroup(indexed.state, id);
      if (group !== null) annotated.push(group);
    }
    resolved = checkedAnnotations(io, annotated, annotations, annotationsFile!, file);
  }
  const stream = analyzeDatasetStream(settings, resolved, keep);
  const tallies: ParsedGroupTally[] = [];
  let read = 0;
  if (threads > 1) {
    // The same reads and analyses in worker threads, handed back in order.
    pool ??= startAnalyzePool({ ...poolSetup, annotations: resolved });
    const fresh = freshGroups(indexed);
    let outcomes: AnalyzedGroup[];
    try {
      outcomes = await analyzeIndexInPool(
        pool,
        // The index compacted when it was built, packed already.
        packedIndexOf(indexed.state) ?? packIndex(indexed.state, indexed.dataset),
        early,
        keep,
      );
    } finally {
      pool.close();
    }
    outcomes.forEach(({ tally, streamed }, g) => {
      if (fresh[g] === 1) tallies.push(tally);
      if (streamed !== null) {
        stream.addAnalysed(streamed);
        read++;
      }
    });
  } else
    for await (const { group, fresh } of indexedGroupsForCli(indexed)) {
      if (fresh) tallies.push(parsedGroupTally(group));
      if (group.group !== null) {
        stream.add(group.group);
        read++;
      }
    }
  const dataset = datasetWithParsedTallies(indexed.dataset, tallies);
  if (read === 0) throw noRolloutRead(run.name, dataset);
  const loaded = withRunHeader(
    { ...dataset, groups: [] },
    headersBeside(path, run.name, dataset.format),
  );
  return { loaded, stream };
}

/** Run `analyze` with the arguments after the command name. */
export async function analyzeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = commandArgs(
    "analyze",
    argv,
    {
      annotations: { type: "string" },
      verifiers: { type: "string" },
      json: { type: "boolean" },
      messages: { type: "boolean" },
      watch: { type: "boolean" },
      ...MAPPING_FLAGS,
      ...ANALYSIS_FLAGS,
      ...GAR_FLAGS,
    },
    ANALYZE_USAGE,
    io,
  );
  if (args === null) return EXIT.ok;
  const { values, file, paths } = args;
  // settingsFromFlags reads single-valued flags only; --reward-key and --weight may repeat.
  const { "reward-key": rewardKeyFlags, weight: weightFlags, ...single } = values;
  const settings = { ...settingsFromFlags(single), rewardWeights: weightsFromFlags(weightFlags) };
  const mapping = mappingFromFlags({ ...single, "reward-key": rewardKeyFlags });
  const format = formatFromFlags(values.format, mapping);

  if (values.watch === true) return watchCommand(io, paths, format, mapping, settings, values);
  if (values.messages === true && values.json !== true)
    throw new UsageError("--messages adds the transcripts to the --json document: give --json too");

  // The annotations are read first: a bad file is refused before a long load.
  const annotations =
    values.annotations === undefined ? null : readAnnotationsFile(io, values.annotations);
  // A large JSONL file alone is analysed a group at a time, never held whole (issue 16); the
  // transcripts (--messages) and a reward spec (--verifiers) need every rollout, so they load it.
  const streamed =
    values.messages !== true && values.verifiers === undefined
      ? await analyzeIndexedFile(
          io,
          file,
          paths,
          format,
          mapping,
          settings,
          annotations,
          values.annotations,
          // The text summary shows the first groups: the stream keeps only their analyses.
          values.json === true ? Infinity : SUMMARY_GROUPS,
        )
      : null;
  let loaded: CliLoad;
  let verified: VerifiedLoad | null = null;
  /** The whole analysis, or (the text summary of a streamed file) its first groups' only. */
  let analysis: DatasetAnalysis | DatasetAnalysisHead;
  if (streamed !== null) {
    loaded = streamed.loaded;
    analysis = values.json === true ? streamed.stream.finish() : streamed.stream.finishHead();
  } else {
    ({ loaded, verified } = await loadWithVerifiers(io, {
      file,
      paths,
      format,
      mapping,
      verifiers: values.verifiers,
      judgeRuns: annotations?.judgeRuns ?? null,
      passRule: settings,
    }));
    const resolved =
      annotations === null
        ? undefined
        : checkedAnnotations(io, loaded.groups, annotations, values.annotations!, file);
    analysis = analyzeDataset(loaded.groups, settings, resolved);
  }
  const annotationIssues: ParseIssue[] = [];
  for (const p of analysis.issues) {
    annotationIssues.push({
      file: values.annotations ?? file,
      line: 0,
      field: `groups.${p.groupId}${p.rolloutId === undefined ? "" : `.${p.rolloutId}`}`,
      message: p.message,
    });
  }
  const issues = [...loaded.issues, ...annotationIssues];
  if (values.json) {
    if (!("groups" in analysis)) throw new Error("analyze --json: every group's analysis is kept");
    const json = analysisJson(loaded, analysis, issues, { messages: values.messages === true });
    io.stdout(`${JSON.stringify(verified === null ? json : verifierJson(json, verified))}\n`);
  } else {
    const head = "groups" in analysis ? datasetAnalysisHead(analysis, SUMMARY_GROUPS) : analysis;
    io.stdout(summaryText(loaded, head));
    if (verified !== null) io.stdout(verifierSummary(verified));
  }
  for (const issue of issues) io.stderr(`${formatIssue(issue)}\n`);
  if (issues.length > 0) {
    io.stderr(
      `rollout-studio: ${issues.length} problem(s) reported above; the rest was analysed.\n`,
    );
    return EXIT.issues;
  }
  return EXIT.ok;
}
