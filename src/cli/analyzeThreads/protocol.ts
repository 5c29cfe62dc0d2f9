/**
 * What the CLI's analyze threads (./thread.ts) are sent and send back: the file's packed index
 * once, then ranges of its groups to read, parse and analyse (issue 16, point 4).
 */
import type { AnalysisSettings, ResolvedAnnotation, StreamedGroup } from "../../core/index.ts";
import type { PackedIndex, ParsedGroupTally } from "../../io/index.ts";

export interface AnalyzeThreadSetup {
  readonly kind: "setup";
  readonly path: string;
  /** The file's name in issues. */
  readonly name: string;
  /** The bytes indexed (the file may have grown since). */
  readonly size: number;
  readonly index: PackedIndex;
  readonly settings: AnalysisSettings;
  /** The resolved annotations of the annotated groups, by group id. */
  readonly annotations: readonly (readonly [string, ResolvedAnnotation])[];
  /** 1 where a group's tally is wanted: its first time in the summaries, not parsed by the index. */
  readonly fresh: Uint8Array;
}

/** Groups [from, to) of the index's order. */
export interface AnalyzeThreadJob {
  readonly kind: "job";
  readonly job: number;
  readonly from: number;
  readonly to: number;
}

export type AnalyzeThreadRequest = AnalyzeThreadSetup | AnalyzeThreadJob;

/** One group's outcome: its tally when fresh, its analysis when the full parser kept any row. */
export interface AnalyzedGroup {
  readonly tally: ParsedGroupTally | null;
  readonly streamed: StreamedGroup | null;
}

export type AnalyzeThreadReply =
  | { readonly kind: "ready" }
  | { readonly kind: "done"; readonly job: number; readonly groups: readonly AnalyzedGroup[] }
  | { readonly kind: "error"; readonly job: number; readonly message: string };
