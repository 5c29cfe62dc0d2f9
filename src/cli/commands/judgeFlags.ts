/**
 * `judge`'s flags, read and checked: what to judge and how (a JudgeRequest), the endpoint's
 * settings (the key from OPENAI_API_KEY only) and the forced input format.
 */
import {
  JUDGE_MODES,
  type JudgeBuildOptions,
  type JudgeMode,
  type JudgeScope,
} from "../../core/index.ts";
import {
  formatById,
  FORMATS,
  JUDGE_SETTINGS_DEFAULTS,
  parseJudgeSettings,
  type JudgeSettings,
} from "../../io/index.ts";
import type { CommandArgs } from "../args.ts";
import type { CliIo } from "../io.ts";
import { settingsFromFlags, UsageError } from "../settings.ts";
import { weightsFromFlags } from "./analyze.ts";

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

/** The flags `judge` takes. */
export const JUDGE_FLAGS = {
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
} as const;

type JudgeValues = CommandArgs<typeof JUDGE_FLAGS>["values"];

/** What to judge and how, read from the flags (all but the endpoint's settings). */
export interface JudgeRequest {
  readonly mode: JudgeMode;
  readonly out: string;
  readonly heuristic: boolean;
  readonly scope: JudgeScope;
  /** Pairwise: ask every comparison in both orders, and among which rollouts. */
  readonly bothOrders: boolean;
  readonly pairs: "all" | "passes";
  readonly sample: number | null;
  readonly seed: number;
  /** GAR's min factor, for the spread report. */
  readonly minFactor: number;
  readonly build: JudgeBuildOptions;
}

/** @throws UsageError for a missing or invalid mode, out, scope, pairs, sample, seed or analysis flag */
export function judgeRequestFromFlags(values: JudgeValues): JudgeRequest {
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
  return {
    mode,
    out: values.out,
    heuristic,
    scope,
    bothOrders: values["both-orders"] === true,
    pairs,
    sample,
    seed,
    minFactor: analysis.minFactor,
    build,
  };
}

/**
 * The endpoint's settings from the flags and OPENAI_API_KEY (an unset key is sent as none, with a
 * note on stderr).
 *
 * @throws UsageError for a missing endpoint or model, or an invalid request setting
 */
export function judgeSettingsFromFlags(values: JudgeValues, io: CliIo): JudgeSettings {
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
  if (candidate.settings.apiKey === "")
    io.stderr("judge: OPENAI_API_KEY is not set; sending no key (fine for local servers)\n");
  return candidate.settings;
}

/**
 * The forced input format (`csv` is the mapped reader), or undefined to detect it.
 *
 * @throws UsageError for a format no reader has
 */
export function formatFromFlag(raw: string | undefined): string | undefined {
  let format = raw === undefined || raw === "auto" ? undefined : raw;
  if (format === "csv") format = "mapped";
  if (format !== undefined && formatById(format) === undefined)
    throw new UsageError(
      `--format must be auto or one of ${FORMATS.map((f) => f.id).join(", ")}; got ${format}`,
    );
  return format;
}
