/**
 * The typed protocol between the main thread and the load worker. Every request carries a
 * requestId; every reply names it, so a cancelled or superseded load's late messages are ignored.
 */
import type { RolloutGroup } from "../core/index.ts";
import type {
  FormatCandidate,
  FormatOptions,
  LoadedDataset,
  PackedSummaries,
  ParseIssue,
  RunFile,
} from "../io/index.ts";

export type LoadRequest =
  | {
      readonly kind: "load";
      readonly requestId: number;
      readonly file: File;
      readonly format?: string;
      readonly options?: FormatOptions;
      /** Files at least this large are indexed and parsed a group at a time (default 32 MB). */
      readonly indexThreshold?: number;
    }
  /** Several files as one run (issue 14): each parsed whole, then merged (io's runDatasetMerge). */
  | {
      readonly kind: "load-run";
      readonly requestId: number;
      /** The run's name: its folder, or "N files". */
      readonly name: string;
      readonly files: readonly { readonly file: File; readonly run: RunFile }[];
      readonly format?: string;
      /** A run at least this large is indexed file by file (default 32 MB). */
      readonly indexThreshold?: number;
    }
  /**
   * A run (or one file) read from the `rollout-studio view` server by range requests (issue 14).
   * Sent again to the same worker when the run changes: files whose size and time did not change
   * are not read again (`reread` names files to read again all the same: shrunk or rewritten).
   */
  | {
      readonly kind: "load-remote";
      readonly requestId: number;
      readonly name: string;
      readonly files: readonly RemoteFileRef[];
      readonly headers: Readonly<Record<string, string>>;
      readonly format?: string;
      readonly indexThreshold?: number;
      readonly reread?: readonly string[];
    }
  | { readonly kind: "cancel"; readonly requestId: number }
  /** Parse one group of the last indexed file or run. */
  | { readonly kind: "group"; readonly requestId: number; readonly groupId: string };

/** One file of a remote run: its bytes' URL, its id in the listing, and its place in the run. */
export interface RemoteFileRef {
  readonly url: string;
  readonly id: string;
  readonly run: RunFile;
}

export type LoadPhase = "reading" | "parsing" | "indexing";

export type LoadReply =
  | {
      readonly kind: "progress";
      readonly requestId: number;
      readonly phase: LoadPhase;
      readonly bytes: number;
      readonly totalBytes: number;
      /** Rows and groups indexed so far (indexing phase only). */
      readonly rows?: number;
      readonly groups?: number;
    }
  /** The first group of an indexed file, before indexing ends. */
  | { readonly kind: "first-group"; readonly requestId: number; readonly group: RolloutGroup }
  | {
      readonly kind: "done";
      readonly requestId: number;
      readonly dataset: LoadedDataset;
      /** A followed run: bytes of half-written last lines not read yet (read once complete). */
      readonly heldBack?: number;
      /**
       * On the wire only: the dataset's summaries, packed (its `summaries` then empty); the client
       * unpacks them before any listener sees the reply.
       */
      readonly packedSummaries?: PackedSummaries;
    }
  | {
      readonly kind: "group";
      readonly requestId: number;
      readonly groupId: string;
      readonly group: RolloutGroup | null;
      readonly issues: readonly ParseIssue[];
    }
  | {
      readonly kind: "error";
      readonly requestId: number;
      readonly message: string;
      /** Set when the file matched several formats equally: the user must choose. */
      readonly candidates?: readonly FormatCandidate[];
      /** Set when no format matched: the field mapping can read it. */
      readonly unknownFormat?: boolean;
    }
  | { readonly kind: "cancelled"; readonly requestId: number };
