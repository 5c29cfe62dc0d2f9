/** From a judge's reply text to a typed result: JSON reading (benchmax rules), then a validator. */
import { parseReplyJson } from "./reply.ts";
import { judgeFailure, type JudgeParse } from "./types.ts";

/**
 * Strip `<think>` blocks, unwrap a fence, read the first JSON object (a `malformed_reply` if none),
 * then validate it (an `invalid_reply` if the validator rejects it).
 */
export function parseJudgeReply<T>(
  text: string,
  validate: (value: unknown) => JudgeParse<T>,
): JudgeParse<T> {
  const json = parseReplyJson(text);
  if (!json.ok) return { ok: false, error: judgeFailure("malformed_reply", json.error) };
  return validate(json.value);
}

/** An integer index (booleans and floats are not). */
export function isInteger(x: unknown): x is number {
  return typeof x === "number" && Number.isInteger(x);
}

export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
