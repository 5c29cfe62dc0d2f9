/**
 * `rollout-studio health RUN...` (issue 19): a training run's health per step (core's runHealth
 * through ../healthRead.ts, which streams the run file by file), its detectors' alerts, and a CI
 * gate: `--fail-on RULE` exits 1 when that rule fired. `--compare` reads two runs and compares
 * them on the prompts they share (core's compareRuns).
 */
import {
  ANALYSIS_SETTING_SCHEMA,
  compareRuns,
  HEALTH_RULES,
  HEALTH_SETTING_SCHEMA,
  healthAlerts,
  healthDetectors,
  settingFlagOptions,
  settingsFlagHelp,
  type AnalysisSettings,
  type HealthRule,
  type HealthSettings,
} from "../../core/index.ts";
import { FORMATS, formatIssue } from "../../io/index.ts";
import { readAnnotationsFile } from "../annotationsFile.ts";
import { commandArgs, MAPPING_FLAGS } from "../args.ts";
import { readRunHealth, type HealthReadOptions } from "../healthRead.ts";
import {
  compareJson,
  compareText,
  healthJson,
  healthText,
  type HealthReport,
} from "../healthOutput.ts";
import { EXIT, type CliIo } from "../io.ts";
import { indexThreshold } from "../loadForCli.ts";
import { settingsFromFlags, settingsFromFlagsWith, UsageError } from "../settings.ts";
import { formatFromFlags, mappingFromFlags, weightsFromFlags } from "./analyze.ts";

/** The analysis settings that enter a run's health numbers (the others do not change them). */
const HEALTH_ANALYSIS_KEYS: ReadonlySet<string> = new Set([
  "passThreshold",
  "minFactor",
  "ngram",
  "similarity",
  "similarityOn",
  "completionRule",
  "textChars",
]);
const ANALYSIS_SCHEMA = ANALYSIS_SETTING_SCHEMA.filter((d) => HEALTH_ANALYSIS_KEYS.has(d.key));

export const HEALTH_USAGE = `Usage: rollout-studio health RUN... [options]
       rollout-studio health RUN_A RUN_B --compare [options]

A training run's health per step: groups, rollouts, pass rate, mean reward, zero-std and mixed
shares, mean characters, turns and tool calls, diversity (clusters per group, over a sample of
each step's groups), and the share of rollouts like a marked hack; then the detectors' alerts
(${HEALTH_RULES.join(", ")}).

RUN is read as analyze reads its PATHs: a file, several files, a folder or globs are one run,
each file's step part of its groups' identity. The run is read file by file (a large JSONL file
a batch of groups at a time), never held whole; trajectory runs and runs with evaluation reports
are loaded whole.

Options:
  --fail-on RULE                exit 1 when RULE fired (repeat it, or separate rules with
                                commas): a gate before a long run is resumed
  --annotations A.json          studio annotations export (version 1): the rollouts marked as
                                hacks give the hack-like share and hack-spread; people's and
                                judges' marks are counted per step (ids the run does not hold
                                are refused, as analyze refuses them)
  --compare                     read exactly two runs, A then B (each PATH one run: a file, a
                                folder or a quoted glob) and compare B with A on the prompts they
                                share: per prompt, pass rate and mean reward in each and B - A;
                                overall, the mean difference with a paired bootstrap interval and
                                a sign test (no --annotations: they belong to one run)
  --json                        write one JSON document to stdout (below)
  --format auto|FORMAT          read every file as FORMAT, one of:
                                ${FORMATS.map((f) => f.id).join(", ")} (csv = mapped)
  --group-key F --text-key F    a field mapping, as analyze (--reward-key F, --id-key F)
  --weight NAME=W               weight of a reward component in the total (repeatable)
${settingsFlagHelp(ANALYSIS_SCHEMA)}

Health settings:
${settingsFlagHelp(HEALTH_SETTING_SCHEMA)}
  -h, --help                    show this help

JSON (--json): {"steps": [{"step", "groups", "rollouts", "passRate", "meanReward",
"zeroStdShare", "mixedShare", "meanChars", "meanToolCalls", "clustersPerGroup"}, ...],
"alerts": [{"rule", "step", "value", "threshold", "message"}, ...], "details": [...],
"detectors": [...]}. Each step object has exactly those ten keys; a number with no
denominator is null. "details" is parallel to "steps": passes, zeroStdGroups, mixedGroups,
meanTurns, components (each reward component's mean), componentShares (its share of the
within-group variance), clusteredGroups (the diversity sample's size), spread (yes, no, na),
hacks and hackShares (human, heuristic, judge), hackLike, hackLikeShare, hackCorrected
(Rogan-Gladen corrected share with its interval, or null). "detectors" has each rule's label,
formula, threshold, fired steps and idle (why it could not run, or null). With --compare,
"steps", "alerts", "details" and "detectors" are run A's, "runs" is [{name, steps, alerts,
details, detectors}] for A and B, and "compare" holds {a, b, metric, sharedPrompts, onlyA, onlyB,
passRate, meanReward (each {n, meanDiff, lower, upper, positive, negative, ties, signP}),
regressions, improvements (each {prompt, a, b, passDiff, rewardDiff}, a and b {passRate,
meanReward, rollouts, groupIds})}.

Exit codes: 0 ok; 1 a --fail-on rule fired (each named on stderr with its step), or nothing
could be read; 2 usage error; 3 read, with rejected input or annotation warnings (reported on
stderr), and no --fail-on rule fired.
JSONL files of 32 MB or more are indexed and parsed a group at a time (ROLLOUT_STUDIO_INDEX_THRESHOLD=BYTES changes the size).
`;

/** The rules of --fail-on (repeatable, comma-separated). */
export function failOnRules(flags: readonly string[] | undefined): Set<HealthRule> {
  const out = new Set<HealthRule>();
  for (const flag of flags ?? [])
    for (const raw of flag.split(",")) {
      const rule = raw.trim();
      if (!(HEALTH_RULES as readonly string[]).includes(rule))
        throw new UsageError(
          `--fail-on must name rules among ${HEALTH_RULES.join(", ")}; got ${rule === "" ? "an empty rule" : rule}`,
        );
      out.add(rule as HealthRule);
    }
  return out;
}

/** One run's health and its detectors' verdicts. */
async function healthReport(
  io: CliIo,
  paths: readonly string[],
  options: HealthReadOptions,
  health: HealthSettings,
): Promise<HealthReport> {
  const read = await readRunHealth(io.cwd, paths, options);
  const detectors = healthDetectors(read.health, health);
  return { read, detectors, alerts: healthAlerts(detectors) };
}

/** Run `health` with the arguments after the command name. */
export async function healthCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = commandArgs(
    "health",
    argv,
    {
      annotations: { type: "string" },
      json: { type: "boolean" },
      compare: { type: "boolean" },
      "fail-on": { type: "string", multiple: true },
      weight: { type: "string", multiple: true },
      ...MAPPING_FLAGS,
      ...settingFlagOptions(ANALYSIS_SCHEMA, "analysis"),
      ...settingFlagOptions(ANALYSIS_SCHEMA, "gar"),
      ...settingFlagOptions(HEALTH_SETTING_SCHEMA, "health"),
    },
    HEALTH_USAGE,
    io,
  );
  if (args === null) return EXIT.ok;
  const { values, paths } = args;
  const {
    "reward-key": rewardKeys,
    weight,
    "fail-on": failOnFlags,
    annotations: annotationsFile,
    ...single
  } = values;
  const settings: AnalysisSettings = {
    ...settingsFromFlags(single),
    rewardWeights: weightsFromFlags(weight),
  };
  const health = settingsFromFlagsWith(HEALTH_SETTING_SCHEMA, single);
  const failOn = failOnRules(failOnFlags);
  const mapping = mappingFromFlags({ ...single, "reward-key": rewardKeys });
  const format = formatFromFlags(values.format, mapping);
  if (values.compare === true) {
    if (paths.length !== 2)
      throw new UsageError(
        `--compare reads two runs, A then B (each a file, a folder or a quoted glob); got ${paths.length} path(s)`,
      );
    if (annotationsFile !== undefined)
      throw new UsageError(
        "--compare takes no --annotations: they belong to one run; run health on that run for its hack spread",
      );
  }
  const annotations =
    annotationsFile === undefined ? null : readAnnotationsFile(io, annotationsFile);
  const options: HealthReadOptions = {
    format,
    mapping,
    settings,
    health,
    annotations,
    ...(annotationsFile === undefined ? {} : { annotationsFile }),
    threshold: indexThreshold(io.env ?? process.env),
    stderr: io.stderr,
  };
  const runs = values.compare === true ? paths.map((p) => [p]) : [paths];
  const reports: HealthReport[] = [];
  for (const run of runs) reports.push(await healthReport(io, run, options, health));
  writeReports(io, reports, values.json === true, health);
  return exitCode(io, reports, failOn);
}

/** The reports on stdout: text, or the JSON document (with --compare, both runs and the comparison). */
function writeReports(
  io: CliIo,
  reports: readonly HealthReport[],
  json: boolean,
  health: HealthSettings,
): void {
  const [a, b] = reports;
  const comparison =
    b === undefined ? null : compareRuns(a!.read.groups, b.read.groups, { metric: "passRate" });
  if (json) {
    const doc = {
      ...healthJson(a!),
      ...(comparison === null
        ? {}
        : {
            runs: reports.map((r) => ({ name: r.read.name, ...healthJson(r) })),
            compare: compareJson(comparison, a!.read.name, b!.read.name),
          }),
    };
    io.stdout(`${JSON.stringify(doc)}\n`);
    return;
  }
  io.stdout(
    reports
      .map(
        (r, i) =>
          (reports.length > 1 ? `${i === 0 ? "A" : "B"}: ` : "") +
          healthText(r, health.clusterSample),
      )
      .join("\n"),
  );
  if (comparison !== null) io.stdout(`\n${compareText(comparison, a!.read.name, b!.read.name)}`);
}

/**
 * Load problems go to stderr; a --fail-on rule that fired is named with its step (and run) and
 * exits 1, before the problems' exit 3.
 */
function exitCode(
  io: CliIo,
  reports: readonly HealthReport[],
  failOn: ReadonlySet<HealthRule>,
): number {
  let issues = 0;
  for (const r of reports)
    for (const issue of r.read.issues) {
      io.stderr(`${formatIssue(issue)}\n`);
      issues++;
    }
  const fired = reports.flatMap((r) =>
    r.alerts.filter((a) => failOn.has(a.rule)).map((a) => ({ run: r.read.name, alert: a })),
  );
  for (const { run, alert } of fired)
    io.stderr(
      `rollout-studio health: --fail-on: ${alert.rule} fired at step ${alert.step} of ${run}: ${alert.message}\n`,
    );
  if (fired.length > 0) return EXIT.failed;
  if (issues > 0) {
    io.stderr(`rollout-studio: ${issues} problem(s) reported above; the rest was read.\n`);
    return EXIT.issues;
  }
  return EXIT.ok;
}
