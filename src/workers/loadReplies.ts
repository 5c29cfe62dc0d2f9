/**
 * What every load reports alike: how often its progress is posted, and the reply for a failure.
 */
import { AmbiguousFormatError, LoadCancelled, LoadError } from "../io/index.ts";

import type { LoadReply } from "./protocol.ts";

export const PROGRESS_EVERY_BYTES = 8 << 20;

/** The error reply for a failed load: the format choice, the mapping offer, or the message. */
export function errorReply(requestId: number, name: string, e: unknown): LoadReply {
  if (e instanceof LoadCancelled) return { kind: "cancelled", requestId };
  if (e instanceof AmbiguousFormatError)
    return { kind: "error", requestId, message: e.message, candidates: e.candidates };
  if (e instanceof LoadError)
    return {
      kind: "error",
      requestId,
      message: e.message,
      unknownFormat: /no known format/.test(e.message),
    };
  return {
    kind: "error",
    requestId,
    message: `${name}: ${e instanceof Error ? e.message : String(e)}`,
  };
}
