/**
 * Which tool results are errors (issue 13 finding 4: a `{"error": "... 502"}` result looked like a
 * success). One rule, used by the transcript's marking, the column header's and the group row's
 * counts, the group browser's filter and the key that jumps to the next error.
 */
import type { ChatMessage, Rollout } from "../types.ts";

/** Why a result counts as an error, for its tooltip. */
export type ToolErrorKind =
  "marked" | "error-key" | "status" | "http-status" | "exit-code" | "flag" | "error-text";

export interface ToolError {
  readonly kind: ToolErrorKind;
  /** The error's message as the result gives it (one line is the caller's job); "" when none. */
  readonly message: string;
}

/** Result statuses that mean failure (compared lower-cased). */
const FAILED_STATUSES = new Set(["error", "failed", "failure", "fail", "errored", "exception"]);
/** Keys holding an HTTP status code. */
const HTTP_KEYS = ["status_code", "statusCode", "http_status", "httpStatus", "status"] as const;
/** Keys holding a process exit status (subprocess `returncode`, shells' `exit_code`). */
const EXIT_KEYS = ["exit_code", "exitCode", "returncode", "return_code", "exit_status"] as const;
/** Keys whose `true` marks an error (MCP's CallToolResult `isError`) or whose `false` does. */
const TRUE_FLAGS = ["is_error", "isError"] as const;
const FALSE_FLAGS = ["success", "ok"] as const;
/** Keys whose text is the message of an error result. */
const MESSAGE_KEYS = ["message", "detail", "stderr", "reason", "msg"] as const;

/**
 * tau-bench's environment answers a failing tool with `Error: <message>` (its `Env.step`), and a
 * Python tool that raised prints a traceback: text results that start so are errors.
 */
const ERROR_TEXT = /^\s*(?:error\s*:|traceback \(most recent call last\):)/i;
/** A shell's exit line, e.g. "Exit code: 1" or "exit status 2", on a line of its own. */
const EXIT_TEXT = /^\s*(?:exit(?:[ _]?code| status)|return ?code)\s*[:=]?\s*(-?\d+)\s*$/im;

/**
 * A result longer than this many characters is not parsed as JSON to look for an error field: a
 * tool result of tens of megabytes (a dump, a file read whole) would block the page for a second
 * in every view that counts tool errors. Its text rules (and the source's mark) still apply.
 */
export const TOOL_ERROR_JSON_CHARS = 1_000_000;

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/** A value as message text: strings as they are, objects by their message field or as JSON. */
function messageOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (isRecord(value)) {
    for (const key of MESSAGE_KEYS) if (typeof value[key] === "string") return value[key];
    return JSON.stringify(value);
  }
  return value === undefined || value === null || value === true ? "" : JSON.stringify(value);
}

/** The first message-like field of a record, or "". */
function messageField(record: Record<string, unknown>): string {
  for (const key of ["error", ...MESSAGE_KEYS])
    if (typeof record[key] === "string" && record[key] !== "") return record[key];
  return "";
}

/** An integer status code from a number or a numeric string; null otherwise. */
function code(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) ? value : null;
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return null;
}

/** Whether an error-key value says "there is an error" (null, false, "" and {} do not). */
function present(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === "") return false;
  if (isRecord(value)) return Object.keys(value).length > 0;
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** The rules for a JSON object result, in order; null when none applies. */
function objectError(record: Record<string, unknown>): ToolError | null {
  if (present(record.error)) return { kind: "error-key", message: messageOf(record.error) };
  if (present(record.errors)) return { kind: "error-key", message: messageOf(record.errors) };
  const status = record.status;
  if (typeof status === "string" && FAILED_STATUSES.has(status.trim().toLowerCase()))
    return { kind: "status", message: messageField(record) || status };
  for (const key of HTTP_KEYS) {
    const c = code(record[key]);
    if (c !== null && c >= 400 && c <= 599)
      return { kind: "http-status", message: messageField(record) || `HTTP ${c}` };
  }
  for (const key of EXIT_KEYS) {
    const c = code(record[key]);
    if (c !== null && c !== 0)
      return { kind: "exit-code", message: messageField(record) || `${key} ${c}` };
  }
  for (const key of TRUE_FLAGS)
    if (record[key] === true) return { kind: "flag", message: messageField(record) || key };
  for (const key of FALSE_FLAGS)
    if (record[key] === false)
      return { kind: "flag", message: messageField(record) || `${key}: false` };
  return null;
}

/**
 * Whether a tool result is an error, and its message. A result is an error when:
 * - the source marks it so (tau2-bench's `error`, Inspect's `error`; the loaders keep it as
 *   `message.error`);
 * - its content is a JSON object with a non-empty `error` (or `errors`) field; a `status` of
 *   "error", "failed", "failure", "fail", "errored" or "exception"; an HTTP status from 400 to 599 in
 *   `status_code`, `statusCode`, `http_status`, `httpStatus` or a numeric `status`; a non-zero
 *   `exit_code`, `exitCode`, `returncode`, `return_code` or `exit_status`; `is_error` / `isError`
 *   true; or `success` / `ok` false;
 * - its text starts with `Error:` (tau-bench's environment) or a Python traceback, or has a line
 *   `Exit code: N` / `exit status N` / `returncode N` with N non-zero.
 * Anything else, and every message that is not a tool result, is not an error (null). A JSON
 * result longer than TOOL_ERROR_JSON_CHARS is read by the text rules only.
 */
export function toolResultError(message: ChatMessage): ToolError | null {
  if (message.role !== "tool" && message.role !== "function" && message.role !== "ipython")
    return null;
  const text = message.content;
  const trimmed = text.trim();
  if (trimmed.startsWith("{") && trimmed.length <= TOOL_ERROR_JSON_CHARS) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (isRecord(value)) {
        const found = objectError(value);
        if (found !== null) return found;
        return message.error === true ? { kind: "marked", message: messageField(value) } : null;
      }
    } catch {
      // Not JSON: read as text below.
    }
  }
  if (message.error === true) return { kind: "marked", message: trimmed };
  if (ERROR_TEXT.test(text)) return { kind: "error-text", message: trimmed };
  const exit = EXIT_TEXT.exec(text);
  if (exit !== null && Number(exit[1]) !== 0) return { kind: "exit-code", message: trimmed };
  return null;
}

/** The indices of a rollout's messages that are tool errors, in order. */
export function rolloutToolErrorIndices(rollout: Rollout): number[] {
  const out: number[] = [];
  rollout.messages.forEach((m, i) => {
    if (toolResultError(m) !== null) out.push(i);
  });
  return out;
}

/** How many of a rollout's tool results are errors. */
export function rolloutToolErrors(rollout: Rollout): number {
  let n = 0;
  for (const m of rollout.messages) if (toolResultError(m) !== null) n++;
  return n;
}
