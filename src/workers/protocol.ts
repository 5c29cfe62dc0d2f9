/**
 * The typed protocol between the main thread and the load worker. Every request carries a
 * requestId; every reply names it, so a cancelled or superseded load's late messages are ignored.
 */
import type { FormatOptions, LoadResult, FormatCandidate } from "../io/index.ts";

export type LoadRequest =
  | {
      readonly kind: "load";
      readonly requestId: number;
      readonly file: File;
      readonly format?: string;
      readonly options?: FormatOptions;
    }
  | { readonly kind: "cancel"; readonly requestId: number };

export type LoadPhase = "reading" | "parsing";

export type LoadReply =
  | {
      readonly kind: "progress";
      readonly requestId: number;
      readonly phase: LoadPhase;
      readonly bytes: number;
      readonly totalBytes: number;
    }
  | { readonly kind: "done"; readonly requestId: number; readonly result: LoadResult }
  | {
      readonly kind: "error";
      readonly requestId: number;
      readonly message: string;
      /** Set when the file matched several formats equally: the user must choose. */
      readonly candidates?: readonly FormatCandidate[];
      /** Set when no format matched: the field-mapping dialog can take over. */
      readonly unknownFormat?: boolean;
    }
  | { readonly kind: "cancelled"; readonly requestId: number };
