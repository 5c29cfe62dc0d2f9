/** Problems found at the I/O boundary. Every one names the file and the line, and the field if any. */

export interface ParseIssue {
  readonly file: string;
  /** 1-based line; 0 when the problem concerns the whole file. */
  readonly line: number;
  /** The zip member, JSON path or table row, when a line number does not locate the record. */
  readonly member?: string;
  /** Dotted path of the offending field, e.g. "rewards.format" or "traj[3].tool_calls[0]". */
  readonly field?: string;
  readonly message: string;
}

/** "file:line: field: message", the form every surface prints. */
export function formatIssue(issue: ParseIssue): string {
  const file = issue.member ? `${issue.file}[${issue.member}]` : issue.file;
  const where = issue.line > 0 ? `${file}:${issue.line}` : file;
  return issue.field ? `${where}: ${issue.field}: ${issue.message}` : `${where}: ${issue.message}`;
}

/** A problem that stops a whole file from loading (no known format, unreadable, empty). */
export class LoadError extends Error {
  override name = "LoadError";
  readonly file: string;
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.file = file;
  }
}

export type Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly ParseIssue[] };
