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
  JUDGE_MODES,
  type Annotations,
  type JudgeMode,
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
  type JudgeScope,
} from "../../core/index.ts";
import {
  annotationsParse,
  annotationsToJson,
  formatById,
  formatIssue,
  FORMATS,
  JUDGE_SETTINGS_DEFAULTS,
  LoadError,
  parseJudgeSettings,
  runJudge,
  type JudgeProgress,
  type JudgeSettings,
} from "../../io/index.ts";
import { judgeRunPlan } from "../../io/judge/judgeRun.ts";
import { commandArgs } from "../args.ts";
import { EXIT, type CliIo } from "../io.ts";
import { indexThreshold, loadRunForCli } from "../loadForCli.ts";
import { readBytes } from "../readBytes.ts";
import { settingsFromFlags, UsageError } from "../settings.ts";
import { weightsFromFlags } from "./analyze.ts";

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

const SCOPES: readonly JudgeScope[] = ["mixed", "all", "spread"];

function positiveInt(raw: string | undefined, flag: string, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  const x = Number(raw);
  if (!Number.isInteger(x) || x < min)
    throw new UsageError(`--${flag} must be an integer >= ${min}; got ${raw}`);
  return x;
}

function finite(raw: string | undefined, flag: string, ok: (x: number) => boolean, rule: string) {
  if (raw === undefined) return undefined;
  const x = raw.trim() === "" ? NaN : Number(raw);
  if (!Number.isFinite(x) || !ok(x)) throw new UsageError(`--${flag} must be ${rule}; got ${raw}`);
  return x;
}

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

/** Run `judge` with the arguments after the command name. */
export async function judgeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = commandArgs(
    "judge",
    argv,
    {
      mode: { type: "string" },
      "base-url": { type: "string" },
      model: { type: "string" },
      out: { type: "string" },
      annotations: { type: "string" },
      heuristic: { type: "boolean" },
      scope: { type: "string" },
      sample: { type: "string" },
      seed: { type: "string" },
      "both-orders": { type: "boolean" },
      pairs: { type: "string" },
      concurrency: { type: "string" },
      timeout: { type: "string" },
      "max-retries": { type: "string" },
      temperature: { type: "string" },
      "max-tokens": { type: "string" },
      "price-in": { type: "string" },
      "price-out": { type: "string" },
      "pass-threshold": { type: "string" },
      "min-factor": { type: "string" },
      weight: { type: "string", multiple: true },
      text: { type: "string" },
      format: { type: "string" },
    },
    JUDGE_USAGE,
    io,
  );
  if (args === null) return EXIT.ok;
  const { values, file, paths } = args;
  const mode = values.mode as JudgeMode | undefined;
  if (mode === undefined || !JUDGE_MODES.includes(mode))
    throw new UsageError(
      `--mode must be one of ${JUDGE_MODES.join(", ")}; got ${values.mode ?? "nothing"}`,
    );
  if (values.out === undefined) throw new UsageError("--out F is required");
  const heuristic = values.heuristic === true;
  if (heuristic && mode !== "gar")
    throw new UsageError("--heuristic grades groups like the group grader: use it with --mode gar");
  const scope = (values.scope ?? (mode === "cluster" ? "all" : "mixed")) as JudgeScope;
  if (!SCOPES.includes(scope))
    throw new UsageError(`--scope must be one of ${SCOPES.join(", ")}; got ${values.scope}`);
  const pairs = values.pairs ?? "all";
  if (pairs !== "all" && pairs !== "passes")
    throw new UsageError(`--pairs must be all or passes; got ${pairs}`);
  const sample = values.sample === undefined ? null : positiveInt(values.sample, "sample", 20);
  const seed = values.seed === undefined ? 0 : positiveInt(values.seed, "seed", 0, 0);
  const analysis = {
    ...settingsFromFlags({
      "pass-threshold": values["pass-threshold"],
      "min-factor": values["min-factor"],
      text: values.text,
    }),
    rewardWeights: weightsFromFlags(values.weight),
  };
  const build: JudgeBuildOptions = {
    passThreshold: analysis.passThreshold,
    rewardWeights: analysis.rewardWeights,
    completionRule: analysis.completionRule,
    maxChars: 12_000,
  };

  let settings: JudgeSettings | null = null;
  if (!heuristic) {
    if (values["base-url"] === undefined || values.model === undefined)
      throw new UsageError("--base-url URL and --model M are required (or --mode gar --heuristic)");
    const priceIn = finite(values["price-in"], "price-in", (x) => x >= 0, "a number >= 0");
    const priceOut = finite(values["price-out"], "price-out", (x) => x >= 0, "a number >= 0");
    if ((priceIn === undefined) !== (priceOut === undefined))
      throw new UsageError("--price-in and --price-out go together");
    const timeout = finite(values.timeout, "timeout", (x) => x > 0, "a number of seconds > 0");
    const candidate = parseJudgeSettings({
      ...JUDGE_SETTINGS_DEFAULTS,
      baseURL: values["base-url"],
      model: values.model,
      apiKey: (io.env ?? process.env).OPENAI_API_KEY ?? "",
      concurrency: positiveInt(
        values.concurrency,
        "concurrency",
        JUDGE_SETTINGS_DEFAULTS.concurrency,
      ),
      timeoutMs:
        timeout === undefined ? JUDGE_SETTINGS_DEFAULTS.timeoutMs : Math.round(timeout * 1000),
      maxRetries: positiveInt(
        values["max-retries"],
        "max-retries",
        JUDGE_SETTINGS_DEFAULTS.maxRetries,
        0,
      ),
      temperature:
        finite(values.temperature, "temperature", (x) => x >= 0 && x <= 2, "in [0, 2]") ??
        JUDGE_SETTINGS_DEFAULTS.temperature,
      maxTokens: positiveInt(values["max-tokens"], "max-tokens", JUDGE_SETTINGS_DEFAULTS.maxTokens),
      prices:
        priceIn === undefined || priceOut === undefined
          ? null
          : { inputPerMillion: priceIn, outputPerMillion: priceOut },
    });
    if (!candidate.ok) throw new UsageError(`judge settings: ${candidate.issues.join("; ")}`);
    settings = candidate.settings;
    if (settings.apiKey === "")
      io.stderr("judge: OPENAI_API_KEY is not set; sending no key (fine for local servers)\n");
  }

  let format = values.format === undefined || values.format === "auto" ? undefined : values.format;
  if (format === "csv") format = "mapped";
  if (format !== undefined && formatById(format) === undefined)
    throw new UsageError(
      `--format must be auto or one of ${FORMATS.map((f) => f.id).join(", ")}; got ${format}`,
    );

  const annotations = readAnnotations(values.annotations, io.cwd, io);
  const loaded = await loadRunForCli(
    io.cwd,
    paths,
    format,
    undefined,
    indexThreshold(io.env ?? process.env),
  );
  for (const issue of loaded.issues) io.stderr(`${formatIssue(issue)}\n`);
  let groups: RolloutGroup[] = judgeScopeGroups(loaded.groups, scope, build);
  if (sample !== null) groups = judgeSample(groups, sample, seed);
  if (groups.length === 0) {
    io.stderr(`judge: no group of ${file} is in scope "${scope}"; nothing to judge\n`);
    return EXIT.failed;
  }

  let run: JudgeRun;
  let skipped: readonly { groupId: string; reason: string }[];
  if (settings === null) {
    const at = new Date().toISOString();
    const heuristicRun = judgeHeuristicRun(groups, build, {
      id: judgeRunId("gar", at, annotations.judgeRuns),
      startedAt: at,
      finishedAt: new Date().toISOString(),
    });
    run = heuristicRun.run;
    skipped = heuristicRun.skipped;
    io.stderr(`judge: heuristic grader (offline) over ${groups.length} group(s)\n`);
  } else {
    const cfg = settings;
    const send = async <T>(plan: JudgePlan<T>): Promise<JudgeRun> => {
      skipped = plan.skipped;
      io.stderr(
        `judge: ${mode} over ${plan.groupIds.length} group(s), ${plan.tasks.length} request(s), ` +
          `model ${cfg.model} at ${cfg.baseURL}, prompt ${plan.promptVersion}, concurrency ${cfg.concurrency}\n`,
      );
      return judgeRunPlan(
        plan,
        (tasks, options) => runJudge(cfg, tasks, options),
        { model: cfg.model, baseUrl: cfg.baseURL, existing: annotations.judgeRuns },
        { onProgress: (p) => io.stderr(progressLine(p, cfg.prices)) },
      );
    };
    skipped = [];
    run =
      mode === "gar"
        ? await send(judgePlanGar(groups, build))
        : mode === "pairwise"
          ? await send(
              judgePlanPairwise(groups, build, {
                bothOrders: values["both-orders"] === true,
                among: pairs,
              }),
            )
          : mode === "rubric"
            ? await send(judgePlanRubric(groups, annotations.rubrics, build))
            : await send(judgePlanCluster(groups, build));
    const a = run.info.accounting;
    io.stderr(
      `judge: ${a.requests} requests, ${a.successes} ok, ${judgeAccountingFailed(a)} failed, ` +
        `${a.retries} retries, ${a.promptTokens} + ${a.completionTokens} tokens` +
        (run.info.costUsd === null ? "" : `, $${run.info.costUsd.toFixed(4)}`) +
        "\n",
    );
  }
  for (const s of skipped) io.stderr(`judge: skipped group ${s.groupId}: ${s.reason}\n`);
  // What it judged, for the run's name (a sampled spread scope is the spread check).
  run = {
    ...run,
    info: {
      ...run.info,
      scope:
        sample !== null && scope === "spread" ? JUDGE_SCOPE_SPREAD_CHECK : judgeScopeName(scope),
    },
  };
  const errors = judgeRunErrors(run);
  for (const e of errors)
    io.stderr(
      `judge: judge error in group ${e.groupId} (kept its rewards): ${e.error.kind}: ${e.error.message}\n`,
    );
  if (mode === "pairwise") {
    const flips = judgeRunFlipRate(run);
    if (flips.rate !== null)
      io.stderr(
        `judge: position flips ${flips.flips} of ${flips.pairs} pairs (${(flips.rate * 100).toFixed(0)}%)\n`,
      );
  }
  const spread = judgeRunSpread(run, analysis.minFactor);
  if (spread !== null)
    io.stderr(`${run.info.source === "heuristic" ? "heuristic grader " : ""}${spread.text}\n`);

  const out = values.out;
  const document: Annotations = { ...annotations, judgeRuns: [...annotations.judgeRuns, run] };
  try {
    writeFileSync(resolve(io.cwd, out), annotationsToJson(document));
  } catch (e) {
    throw new LoadError(
      out,
      `cannot write the annotations file: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  io.stderr(
    `judge: wrote ${out} (run ${run.info.id}, ${Object.keys(run.groups).length} group(s))\n`,
  );
  return errors.length > 0 ? EXIT.issues : EXIT.ok;
}
