/**
 * `rollout-studio judge FILE`: run an LLM judge (any OpenAI-compatible endpoint) or the offline
 * heuristic grader over a dump's groups, and write the annotations document with the new run
 * appended to `judgeRuns`, the file the studio imports. The API key comes from OPENAI_API_KEY only:
 * it is never a flag (flags end up in shell history and process lists), never printed, never written.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  ANNOTATIONS_EMPTY,
  judgeAccountingFailed,
  judgeCost,
  type Annotations,
  type JudgePrices,
  type JudgeRun,
  type RolloutGroup,
  judgeHeuristicRun,
  judgePlanCluster,
  judgePlanGar,
  judgePlanPairwise,
  judgePlanRubric,
  judgeRunErrors,
  judgeRunFlipRate,
  judgeRunId,
  judgeRunSpread,
  judgeSample,
  JUDGE_SCOPE_SPREAD_CHECK,
  judgeScopeGroups,
  judgeScopeName,
  type JudgeBuildOptions,
  type JudgePlan,
} from "../../core/index.ts";
import {
  annotationsParse,
  annotationsToJson,
  formatIssue,
  JUDGE_SETTINGS_DEFAULTS,
  LoadError,
  runJudge,
  type JudgeProgress,
  type JudgeSettings,
} from "../../io/index.ts";
import { judgeRunPlan } from "../../io/judge/judgeRun.ts";
import { commandArgs } from "../args.ts";
import { EXIT, type CliIo } from "../io.ts";
import { indexThreshold, loadRunForCli } from "../loadForCli.ts";
import { readBytes } from "../readBytes.ts";
import {
  formatFromFlag,
  JUDGE_FLAGS,
  judgeRequestFromFlags,
  judgeSettingsFromFlags,
  type JudgeRequest,
} from "./judgeFlags.ts";

export const JUDGE_USAGE = `Usage: rollout-studio judge PATH... --mode MODE --out F [options]

Grade a dump's groups with an LLM judge (any OpenAI-compatible endpoint) or, with --heuristic, the
offline heuristic grader, and write the annotations file with the new run appended to judgeRuns
(import it in the studio). The API key is read from OPENAI_API_KEY (unset: no key, for local servers).
PATH is a file, several files, a folder or globs: one run (see analyze --help).

Options:
  --mode gar|pairwise|rubric|cluster
                                group grader (GAR tiers and hacks), pairwise judge, rubric scorer
                                (GRS, needs rubrics in --annotations), diversity clusterer
  --base-url URL --model M      the endpoint (e.g. http://127.0.0.1:8000/v1) and model (not with --heuristic)
  --out F                       where to write the annotations file
  --annotations A.json          start from this annotations file (its rubrics, runs, rankings)
  --heuristic                   with --mode gar: the offline heuristic grader (no key, no network)
  --scope mixed|all|spread      which groups: mixed pass/fail (default; cluster: all), every group,
                                or groups with two or more passes (the spread check's)
  --sample N --seed S           grade a seeded sample of N groups of the scope (seed default 0)
  --both-orders                 pairwise: ask every comparison in both orders (position-flip rate)
  --pairs all|passes            pairwise: compare every rollout of a group (default) or its passes
  --concurrency N               requests in flight (default ${JUDGE_SETTINGS_DEFAULTS.concurrency})
  --timeout S                   seconds per attempt (default ${JUDGE_SETTINGS_DEFAULTS.timeoutMs / 1000})
  --max-retries N               retries after 429, 5xx, timeouts (default ${JUDGE_SETTINGS_DEFAULTS.maxRetries})
  --temperature T --max-tokens N
  --price-in P --price-out P    US dollars per million input / output tokens, for the cost
  --pass-threshold T --min-factor M --weight NAME=W --text RULE --format FORMAT
                                as for analyze: what passes, GAR's min factor (spread report), the
                                reward weights, the text rule (heuristic), the input format
  -h, --help                    show this help

Progress goes to stderr. Exit codes: 0 judged every group; 1 nothing judged (bad file, no groups);
2 usage error; 3 judged, but some groups are judge errors (listed on stderr; they keep their rewards).
`;

function readAnnotations(path: string | undefined, cwd: string, io: CliIo): Annotations {
  if (path === undefined) return ANNOTATIONS_EMPTY;
  const parsed = annotationsParse(
    path,
    new TextDecoder().decode(readBytes(resolve(cwd, path), "annotations file")),
  );
  if (!parsed.ok) {
    for (const issue of parsed.issues) io.stderr(`${formatIssue(issue)}\n`);
    throw new LoadError(path, "the annotations file is invalid");
  }
  return parsed.value;
}

function progressLine(p: JudgeProgress, prices: JudgePrices | null): string {
  const a = p.accounting;
  const cost = judgeCost(
    { promptTokens: a.promptTokens, completionTokens: a.completionTokens },
    prices,
  );
  return (
    `judge: ${p.done} of ${p.total} requests, ${judgeAccountingFailed(a)} failed, ` +
    `${a.promptTokens + a.completionTokens} tokens${cost === null ? "" : `, $${cost.toFixed(4)}`}\n`
  );
}

/** A finished run and the groups its planner skipped (with why). */
interface JudgedRun {
  readonly run: JudgeRun;
  readonly skipped: readonly { groupId: string; reason: string }[];
}

/** Grade the groups with the offline heuristic grader. */
function heuristicJudgeRun(
  groups: readonly RolloutGroup[],
  build: JudgeBuildOptions,
  existing: readonly JudgeRun[],
  io: CliIo,
): JudgedRun {
  const at = new Date().toISOString();
  const judged = judgeHeuristicRun(groups, build, {
    id: judgeRunId("gar", at, existing),
    startedAt: at,
    finishedAt: new Date().toISOString(),
  });
  io.stderr(`judge: heuristic grader (offline) over ${groups.length} group(s)\n`);
  return judged;
}

/** Plan the mode's requests, send them to the endpoint (progress on stderr) and account for them. */
async function endpointJudgeRun(
  cfg: JudgeSettings,
  request: JudgeRequest,
  groups: readonly RolloutGroup[],
  annotations: Annotations,
  io: CliIo,
): Promise<JudgedRun> {
  const send = async <T>(plan: JudgePlan<T>): Promise<JudgedRun> => {
    io.stderr(
      `judge: ${request.mode} over ${plan.groupIds.length} group(s), ${plan.tasks.length} request(s), ` +
        `model ${cfg.model} at ${cfg.baseURL}, prompt ${plan.promptVersion}, concurrency ${cfg.concurrency}\n`,
    );
    const run = await judgeRunPlan(
      plan,
      (tasks, options) => runJudge(cfg, tasks, options),
      { model: cfg.model, baseUrl: cfg.baseURL, existing: annotations.judgeRuns },
      { onProgress: (p) => io.stderr(progressLine(p, cfg.prices)) },
    );
    return { run, skipped: plan.skipped };
  };
  const { mode, build } = request;
  const judged =
    mode === "gar"
      ? await send(judgePlanGar(groups, build))
      : mode === "pairwise"
        ? await send(
            judgePlanPairwise(groups, build, {
              bothOrders: request.bothOrders,
              among: request.pairs,
            }),
          )
        : mode === "rubric"
          ? await send(judgePlanRubric(groups, annotations.rubrics, build))
          : await send(judgePlanCluster(groups, build));
  const info = judged.run.info;
  const a = info.accounting;
  io.stderr(
    `judge: ${a.requests} requests, ${a.successes} ok, ${judgeAccountingFailed(a)} failed, ` +
      `${a.retries} retries, ${a.promptTokens} + ${a.completionTokens} tokens` +
      (info.costUsd === null ? "" : `, $${info.costUsd.toFixed(4)}`) +
      "\n",
  );
  return judged;
}

/**
 * Report on stderr the run's judge errors, its position flips (pairwise) and its spread.
 *
 * @returns how many groups are judge errors
 */
function reportJudgeRun(run: JudgeRun, request: JudgeRequest, io: CliIo): number {
  const errors = judgeRunErrors(run);
  for (const e of errors)
    io.stderr(
      `judge: judge error in group ${e.groupId} (kept its rewards): ${e.error.kind}: ${e.error.message}\n`,
    );
  if (request.mode === "pairwise") {
    const flips = judgeRunFlipRate(run);
    if (flips.rate !== null)
      io.stderr(
        `judge: position flips ${flips.flips} of ${flips.pairs} pairs (${(flips.rate * 100).toFixed(0)}%)\n`,
      );
  }
  const spread = judgeRunSpread(run, request.minFactor);
  if (spread !== null)
    io.stderr(`${run.info.source === "heuristic" ? "heuristic grader " : ""}${spread.text}\n`);
  return errors.length;
}

/** @throws LoadError when the file cannot be written */
function writeAnnotationsFile(out: string, document: Annotations, cwd: string): void {
  try {
    writeFileSync(resolve(cwd, out), annotationsToJson(document));
  } catch (e) {
    throw new LoadError(
      out,
      `cannot write the annotations file: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/** Run `judge` with the arguments after the command name. */
export async function judgeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = commandArgs("judge", argv, JUDGE_FLAGS, JUDGE_USAGE, io);
  if (args === null) return EXIT.ok;
  const { values, file, paths } = args;
  const request = judgeRequestFromFlags(values);
  const { scope, sample } = request;
  const settings = request.heuristic ? null : judgeSettingsFromFlags(values, io);
  const format = formatFromFlag(values.format);

  const annotations = readAnnotations(values.annotations, io.cwd, io);
  const loaded = await loadRunForCli(
    io.cwd,
    paths,
    format,
    undefined,
    indexThreshold(io.env ?? process.env),
  );
  for (const issue of loaded.issues) io.stderr(`${formatIssue(issue)}\n`);
  let groups: RolloutGroup[] = judgeScopeGroups(loaded.groups, scope, request.build);
  if (sample !== null) groups = judgeSample(groups, sample, request.seed);
  if (groups.length === 0) {
    io.stderr(`judge: no group of ${file} is in scope "${scope}"; nothing to judge\n`);
    return EXIT.failed;
  }

  const judged =
    settings === null
      ? heuristicJudgeRun(groups, request.build, annotations.judgeRuns, io)
      : await endpointJudgeRun(settings, request, groups, annotations, io);
  for (const s of judged.skipped) io.stderr(`judge: skipped group ${s.groupId}: ${s.reason}\n`);
  // What it judged, for the run's name (a sampled spread scope is the spread check).
  const run: JudgeRun = {
    ...judged.run,
    info: {
      ...judged.run.info,
      scope:
        sample !== null && scope === "spread" ? JUDGE_SCOPE_SPREAD_CHECK : judgeScopeName(scope),
    },
  };
  const errors = reportJudgeRun(run, request, io);

  const out = request.out;
  writeAnnotationsFile(out, { ...annotations, judgeRuns: [...annotations.judgeRuns, run] }, io.cwd);
  io.stderr(
    `judge: wrote ${out} (run ${run.info.id}, ${Object.keys(run.groups).length} group(s))\n`,
  );
  return errors > 0 ? EXIT.issues : EXIT.ok;
}
