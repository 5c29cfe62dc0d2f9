/**
 * Accounting for a judge run: requests, successes, failures by kind, retries, tokens and cost.
 * Pure: the client in src/io adds one finished request at a time.
 */
import { JUDGE_FAILURE_KINDS, type JudgeFailureKind } from "./types.ts";

export interface JudgeUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** User-set prices in US dollars per million tokens. */
export interface JudgePrices {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
}

export interface JudgeAccounting {
  /** Requests finished (successfully or not); cancelled ones included. */
  readonly requests: number;
  readonly successes: number;
  readonly failures: Readonly<Record<JudgeFailureKind, number>>;
  /** Extra HTTP attempts made after a 429, a 5xx, a timeout or a connection error. */
  readonly retries: number;
  /** From the replies' `usage`; replies without usage add nothing (see `requestsWithoutUsage`). */
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Replies that came back without a `usage` object, so the token totals undercount them. */
  readonly requestsWithoutUsage: number;
}

/** One finished request, as the client reports it. */
export interface JudgeRequestRecord {
  readonly failure: JudgeFailureKind | null;
  readonly retries: number;
  /** null when no reply arrived, or the reply had no usage. */
  readonly usage: JudgeUsage | null;
  /** True when an HTTP reply arrived (so a missing usage is the server's omission). */
  readonly replied: boolean;
}

export function judgeAccountingEmpty(): JudgeAccounting {
  const failures = Object.fromEntries(JUDGE_FAILURE_KINDS.map((k) => [k, 0])) as Record<
    JudgeFailureKind,
    number
  >;
  return {
    requests: 0,
    successes: 0,
    failures,
    retries: 0,
    promptTokens: 0,
    completionTokens: 0,
    requestsWithoutUsage: 0,
  };
}

export function judgeAccountingAdd(acc: JudgeAccounting, rec: JudgeRequestRecord): JudgeAccounting {
  return {
    requests: acc.requests + 1,
    successes: acc.successes + (rec.failure === null ? 1 : 0),
    failures:
      rec.failure === null
        ? acc.failures
        : { ...acc.failures, [rec.failure]: acc.failures[rec.failure] + 1 },
    retries: acc.retries + rec.retries,
    promptTokens: acc.promptTokens + (rec.usage?.promptTokens ?? 0),
    completionTokens: acc.completionTokens + (rec.usage?.completionTokens ?? 0),
    requestsWithoutUsage: acc.requestsWithoutUsage + (rec.replied && rec.usage === null ? 1 : 0),
  };
}

/** Total failed requests, every kind (cancelled included). */
export function judgeAccountingFailed(acc: JudgeAccounting): number {
  return JUDGE_FAILURE_KINDS.reduce((sum, k) => sum + acc.failures[k], 0);
}

/** Cost in US dollars of some tokens at the given prices; null when no prices are set. */
export function judgeCost(usage: JudgeUsage, prices: JudgePrices | null): number | null {
  if (prices === null) return null;
  return (
    (usage.promptTokens * prices.inputPerMillion +
      usage.completionTokens * prices.outputPerMillion) /
    1_000_000
  );
}
