/**
 * What the CLI's analyze threads (./thread.ts) are sent and send back: the settings once, then
 * jobs, each a few groups' part of the file's index (their rows' places, packed), to read, parse
 * and analyse (issue 16, point 4).
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
  readonly settings: AnalysisSettings;
  /** The resolved annotations of the annotated groups, by group id. */
  readonly annotations: readonly (readonly [string, ResolvedAnnotation])[];
}

/** The groups of `index`, a packed index of just these groups (rows numbered from 0). */
export interface AnalyzeThreadJob {
  readonly kind: "job";
  readonly job: number;
  readonly index: PackedIndex;
  /**
   * How many of its first groups come back with their analysis; the others with their tally only
   * (the text summary shows the first 60 groups of millions).
   */
  readonly full: number;
}

export type AnalyzeThreadRequest = AnalyzeThreadSetup | AnalyzeThreadJob;

/** One group's outcome: its tally, and its analysis when the full parser kept any row. */
export interface AnalyzedGroup {
  readonly tally: ParsedGroupTally;
  readonly streamed: StreamedGroup | null;
}

export type AnalyzeThreadReply =
  | { readonly kind: "ready" }
  | { readonly kind: "done"; readonly job: number; readonly groups: readonly AnalyzedGroup[] }
  | { readonly kind: "error"; readonly job: number; readonly message: string };
