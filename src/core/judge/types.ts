/**
 * Shared shapes of the judge layer. Everything a judge returns is untrusted data: it is read
 * into these types by the strict parsers beside this file, or reported as a typed judge error.
 */

/** What can go wrong with one judge request, after any retries. */
export type JudgeFailureKind =
  /** The request timed out on every attempt. */
  | "timeout"
  /** HTTP 429 on every attempt. */
  | "rate_limit"
  /** HTTP 5xx on every attempt. */
  | "server_error"
  /** The server could not be reached (refused, reset, DNS). */
  | "connection"
  /** Any other HTTP error (400, 401, 403, 404, …): not retried. */
  | "http_error"
  /** The reply holds no JSON object (or no text at all). */
  | "malformed_reply"
  /** The reply is JSON but breaks the grader's schema (omitted, repeated, out-of-range index, …). */
  | "invalid_reply"
  /** The run was cancelled before this request finished. */
  | "cancelled";

export const JUDGE_FAILURE_KINDS: readonly JudgeFailureKind[] = [
  "timeout",
  "rate_limit",
  "server_error",
  "connection",
  "http_error",
  "malformed_reply",
  "invalid_reply",
  "cancelled",
];

/** A typed judge error: what went wrong, in words that never contain the API key. */
export interface JudgeFailure {
  readonly kind: JudgeFailureKind;
  readonly message: string;
  /** The HTTP status of the last attempt, when there was one. */
  readonly status: number | null;
}

/** A reply parser's result: a typed value, or a malformed/invalid reply error. */
export type JudgeParse<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: JudgeFailure };

/** One chat message sent to a judge. */
export interface JudgeMessage {
  readonly role: "system" | "user";
  readonly content: string;
}

/** A rendered prompt, with the version of the template it came from (for provenance). */
export interface JudgePrompt {
  readonly messages: readonly JudgeMessage[];
  readonly templateVersion: string;
}

export function judgeFailure(
  kind: JudgeFailureKind,
  message: string,
  status: number | null = null,
): JudgeFailure {
  return { kind, message, status };
}

export function judgeOk<T>(value: T): JudgeParse<T> {
  return { ok: true, value };
}

export function judgeInvalid<T>(message: string): JudgeParse<T> {
  return { ok: false, error: judgeFailure("invalid_reply", message) };
}
