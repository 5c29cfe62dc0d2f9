/**
 * Command-line flags to analysis settings. Every flag is validated here; a bad value is a usage
 * error that names the flag, never a NaN that travels into the numbers.
 */
import {
  ANALYSIS_DEFAULTS,
  COMPLETION_RULES,
  SIMILARITY_ON,
  textCharsValid,
  type AnalysisSettings,
  type CompletionRule,
} from "../core/index.ts";

import { UsageError } from "./io.ts";

export { UsageError };

type Flags = Readonly<Record<string, string | boolean | undefined>>;

function choice<T extends string>(
  flags: Flags,
  name: string,
  options: readonly T[],
  fallback: T,
): T {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== "string" || !(options as readonly string[]).includes(raw)) {
    throw new UsageError(`--${name} must be one of ${options.join(", ")}; got ${String(raw)}`);
  }
  return raw as T;
}

function number(
  flags: Flags,
  name: string,
  fallback: number,
  valid: (x: number) => boolean,
  rule: string,
): number {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const x = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
  if (!Number.isFinite(x) || !valid(x))
    throw new UsageError(`--${name} must be ${rule}; got ${String(raw)}`);
  return x;
}

export function settingsFromFlags(flags: Flags): AnalysisSettings {
  const d = ANALYSIS_DEFAULTS;
  const tie = number(flags, "tie", d.tieCredit, (x) => x === 0 || x === 0.5, "0 or 0.5");
  return {
    ...d,
    estimator: choice(flags, "estimator", ["grpo", "rloo"] as const, d.estimator),
    scale: choice(flags, "scale", ["group", "batch", "none"] as const, d.scale),
    eps: number(flags, "eps", d.eps, (x) => x >= 0, "a number >= 0"),
    std: choice(flags, "std", ["sample", "population"] as const, d.std),
    aggregation: choice(
      flags,
      "aggregation",
      ["sum_then_normalize", "normalize_then_sum"] as const,
      d.aggregation,
    ),
    passThreshold: number(flags, "pass-threshold", d.passThreshold, () => true, "a number"),
    cap: number(flags, "cap", d.cap, (x) => x >= 1, "a number >= 1"),
    minFactor: number(flags, "min-factor", d.minFactor, (x) => x > 0 && x <= 1, "in (0, 1]"),
    hackZero: flags["no-hack-zero"] !== true,
    ngram: number(
      flags,
      "ngram",
      d.ngram,
      (x) => Number.isInteger(x) && x >= 1,
      "a positive integer",
    ),
    similarity: number(flags, "similarity", d.similarity, (x) => x >= 0 && x <= 1, "in [0, 1]"),
    similarityOn: choice(flags, "similarity-on", SIMILARITY_ON, d.similarityOn),
    tieCredit: tie === 0.5 ? 0.5 : 0,
    rankTies: choice(flags, "rank-ties", ["average", "index"] as const, d.rankTies),
    completionRule: choice<CompletionRule>(flags, "text", COMPLETION_RULES, d.completionRule),
    textChars: number(flags, "text-chars", d.textChars, textCharsValid, "a positive integer"),
  };
}
