/** What every container reader returns: records with a reference a person can find, and issues. */
import type { ParseIssue } from "../issues.ts";
import type { RecordRef } from "../formats/spec.ts";

/** A record read from its container, before any format looked at it. */
export interface RawRecord {
  readonly ref: RecordRef;
  readonly value: unknown;
}

/** What a container reader returns. `records` excludes the ones already turned into issues. */
export interface ContainerRead {
  readonly records: RawRecord[];
  readonly issues: ParseIssue[];
  readonly seen: number;
  readonly lines: number;
  readonly blank: number;
  /** The format that recognised the container as its own (a zip's explodeZip), if one did. */
  readonly format?: string;
}
