/**
 * What a format is: where its records live (the container), how to recognise one, and how one record
 * becomes a rollout draft. Every loader implements FormatSpec and is listed in registry.ts; detection
 * and loading (load.ts) never special-case a format.
 */
import type { RecordOutcome } from "./records.ts";

/** Where records live in a file. */
export type Container =
  /** One JSON value per line. */
  | "jsonl"
  /** A top-level JSON array; each element is a record. */
  | "json-array"
  /** One JSON object holding the records (tau2 Results, Inspect .json logs); see FormatSpec.explode. */
  | "json-document"
  /** Comma-separated with a header row; each row is a record of strings. */
  | "csv"
  /** A Parquet table; each row is a record. */
  | "parquet"
  /** A zip archive (Inspect .eval); see FormatSpec.explodeZip. */
  | "zip";

/** Where a record is, for messages: file, 1-based line (0 if none), and a zip member or JSON path. */
export interface RecordRef {
  readonly file: string;
  readonly line: number;
  readonly member?: string;
}

/**
 * User choices that change how records are read: the field-mapping dialog's picks (generic JSONL and
 * CSV), and a forced group key. Formats ignore what does not apply to them.
 */
export interface FormatOptions {
  readonly groupKey?: string;
  readonly idKey?: string;
  readonly textKey?: string;
  readonly rewardKeys?: readonly string[];
}

export interface FormatSpec {
  readonly id: string;
  readonly label: string;
  readonly containers: readonly Container[];
  /** How groups are formed, as shown to the user: "task_id", "(step, prompt)", ... */
  readonly groupKey: string;
  /**
   * Detection: how specifically a parsed record matches this format. 0 = not this format; 1 = a
   * generic match (e.g. any chat row with a reward); 2 = the format's required keys; 3 = a marker only
   * this format writes (e.g. whileai's schema_version). The highest score wins; a tie asks the user.
   */
  readonly match: (value: unknown) => number;
  /**
   * For json-document containers: the records inside the document, each with a path used in issues
   * (e.g. "simulations[3]"). Returns null when the document is not this format's.
   */
  readonly explode?: (
    document: unknown,
  ) => readonly { readonly value: unknown; readonly path: string }[] | null;
  /**
   * For zip containers: the records inside the archive, given its members' names and a reader.
   * Returns null when the archive is not this format's.
   */
  readonly explodeZip?: (
    members: readonly string[],
    read: (member: string) => unknown,
  ) => readonly { readonly value: unknown; readonly member: string }[] | null;
  /**
   * What a document or archive of this format that holds no record at all holds, said plainly (an
   * Inspect log with no samples: "no samples in this log; it may have been cancelled"), instead of
   * "0 record(s), every one rejected". Given the JSON document, or the zip archive's members and
   * reader. Without it, load.ts and zip.ts say that the format's document holds no records.
   */
  readonly describeEmpty?: (holder: EmptyHolder) => string;
  /**
   * For line and element containers: a record that holds several rollouts (an Atropos group line)
   * split into one record per rollout, each with the member naming it within its record ("[2]").
   * Null when the value is not such a record: `record` then reads (and rejects) it whole. Split
   * records count as records: records = rollouts + rejected holds (LoadStats.split).
   */
  readonly explodeRecord?: (
    value: unknown,
  ) => readonly { readonly value: unknown; readonly member: string }[] | null;
  readonly record: (ref: RecordRef, value: unknown, options: FormatOptions) => RecordOutcome;
}

/** A document (json-document) or an archive (zip) in which a format found no record. */
export type EmptyHolder =
  | { readonly document: unknown }
  | { readonly members: readonly string[]; readonly read: (member: string) => unknown };

/** What a document or archive in which `spec` found no record holds: its describeEmpty, else plainly. */
export function emptyMessage(spec: FormatSpec, holder: EmptyHolder): string {
  return (
    spec.describeEmpty?.(holder) ??
    `the ${spec.label} ${"document" in holder ? "document" : "archive"} holds no records: there is nothing to load`
  );
}
