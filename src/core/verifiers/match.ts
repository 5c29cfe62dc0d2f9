/**
 * The text checks of the format gate and exact match (the library's `format_reward` and
 * `correctness_reward`), and answer normalisation.
 */
import type { AnswerNormalization } from "./spec.ts";

/**
 * The format gate: whether `pattern` matches the stripped text (Python's `pattern.match(c.strip())`
 * when the pattern starts with ^, as the library's does).
 */
export function formatGatePasses(text: string, pattern: RegExp): boolean {
  pattern.lastIndex = 0;
  return pattern.test(text.trim());
}

/**
 * The answer in a completion: the first match's first capture group, or the whole match when the
 * pattern has no group; null when the pattern does not match (or the group did not take part).
 */
export function answerExtract(text: string, pattern: RegExp): string | null {
  pattern.lastIndex = 0;
  const match = pattern.exec(text);
  if (match === null) return null;
  return match.length > 1 ? (match[1] ?? null) : match[0];
}

const DECIMAL = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:e[+-]?\d+)?$/i;

/** A plain decimal number ("42", "-0.5", "1,000", "1e3"), or null for anything else. */
export function answerNumber(text: string): number | null {
  const t = text.trim();
  if (t === "" || !/\d/.test(t) || !DECIMAL.test(t)) return null;
  const value = Number(t.replaceAll(",", ""));
  return Number.isFinite(value) ? value : null;
}

/** An answer as the options compare it: trimmed, whitespace collapsed, lower-cased, as chosen. */
export function answerNormalize(text: string, options: AnswerNormalization): string {
  let out = text;
  if (options.collapseWhitespace) out = out.replace(/\s+/g, " ");
  if (options.trim) out = out.trim();
  if (options.ignoreCase) out = out.toLowerCase();
  return out;
}

/**
 * Whether an extracted answer equals the ground truth under the options: numerically when
 * `numeric` is on and both read as numbers, else as normalised strings.
 */
export function answerEquals(
  predicted: string,
  gold: string,
  options: AnswerNormalization,
): boolean {
  const a = answerNormalize(predicted, options);
  const b = answerNormalize(gold, options);
  if (options.numeric) {
    const x = answerNumber(a);
    const y = answerNumber(b);
    if (x !== null && y !== null) return x === y;
  }
  return a === b;
}

/**
 * The accepted answers in a ground-truth value: a string; a finite number or a boolean as text; an
 * array of those (any one matches). Null for anything else (missing, null, an object).
 */
export function answerGolds(value: unknown): string[] | null {
  const one = (x: unknown): string | null =>
    typeof x === "string"
      ? x
      : (typeof x === "number" && Number.isFinite(x)) || typeof x === "boolean"
        ? String(x)
        : null;
  if (Array.isArray(value)) {
    const golds = (value as readonly unknown[]).map(one);
    return golds.length > 0 && golds.every((g) => g !== null) ? golds : null;
  }
  const g = one(value);
  return g === null ? null : [g];
}
