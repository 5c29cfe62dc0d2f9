/**
 * RFC 4180 CSV: a header row names the columns and every later row is one record of strings, keyed
 * by the header. Quoted fields may hold commas, newlines and doubled quotes; lines may end in CRLF;
 * a UTF-8 byte-order mark is skipped. Records are found at the byte level and decoded one at a time
 * (like JSONL, bytes.ts), so a large file is never decoded whole. Called by extra.ts.
 *
 * Leniency follows Python's csv module (which wrote most of these files): a quote inside an unquoted
 * field is literal, and text after a closing quote is appended to the field.
 */
import { LoadError, type ParseIssue } from "../issues.ts";
import type { ContainerRead, RawRecord } from "./types.ts";
import { bomLength, countLines, decodeRecord } from "./bytes.ts";

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** One physical CSV record: its first line and byte range (final CR/LF excluded). */
interface CsvSpan {
  readonly line: number;
  readonly start: number;
  readonly end: number;
  /** True when the file ends inside a quoted field that began in this record. */
  readonly unterminated: boolean;
}

/** Split the bytes into records, honouring quoted newlines. */
function csvSpans(bytes: Uint8Array): CsvSpan[] {
  const spans: CsvSpan[] = [];
  let i = bomLength(bytes);
  let line = 1;
  while (i < bytes.length) {
    const start = i;
    const startLine = line;
    let inQuotes = false;
    let fieldStart = true;
    let end = bytes.length;
    for (; i < bytes.length; i++) {
      const c = bytes[i]!;
      if (inQuotes) {
        if (c === QUOTE) {
          if (bytes[i + 1] === QUOTE) i++;
          else inQuotes = false;
        } else if (c === LF) line++;
        continue;
      }
      if (c === LF) {
        end = i;
        break;
      }
      if (c === QUOTE && fieldStart) inQuotes = true;
      fieldStart = c === COMMA;
    }
    let stop = end;
    if (stop > start && bytes[stop - 1] === CR) stop--;
    spans.push({ line: startLine, start, end: stop, unterminated: inQuotes });
    i = end + 1;
    line++;
  }
  return spans;
}

/** The fields of one record's text (no line terminator). The caller has checked quotes close. */
export function csvFields(text: string): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = "";
    if (text[i] === '"') {
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q === -1) {
          field += text.slice(j);
          j = text.length;
          break;
        }
        field += text.slice(j, q);
        if (text[q + 1] === '"') {
          field += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      i = j;
    }
    const comma = text.indexOf(",", i);
    const stop = comma === -1 ? text.length : comma;
    field += text.slice(i, stop);
    fields.push(field);
    if (comma === -1) return fields;
    i = comma + 1;
  }
}

const isBlank = (text: string): boolean => text.trim() === "";

/**
 * Read a CSV file: the header row's names become each record's keys.
 *
 * @throws LoadError when the header cannot be read, names a column twice, or no data row follows
 */
export function readCsv(file: string, bytes: Uint8Array): ContainerRead {
  const issues: ParseIssue[] = [];
  const records: RawRecord[] = [];
  let header: string[] | null = null;
  let blank = 0;
  let seen = 0;
  for (const span of csvSpans(bytes)) {
    const decoded = decodeRecord(bytes.subarray(span.start, span.end));
    if (!decoded.ok) {
      if (header === null) throw new LoadError(file, `the header row: ${decoded.message}`);
      seen++;
      issues.push({ file, line: span.line, message: decoded.message });
      continue;
    }
    if (isBlank(decoded.text) && !span.unterminated) {
      blank++;
      continue;
    }
    if (span.unterminated) {
      const message =
        "a quoted field that starts in this row is never closed: the file ends inside it (truncated, or a stray quote?)";
      if (header === null) throw new LoadError(file, `line ${span.line}: ${message}`);
      seen++;
      issues.push({ file, line: span.line, message });
      continue;
    }
    const fields = csvFields(decoded.text);
    if (header === null) {
      const first = new Map<string, number>();
      fields.forEach((name, i) => {
        if (name === "__proto__") {
          // A row is built by assignment, where this name would set the prototype, not a field.
          throw new LoadError(
            file,
            `line ${span.line}: the CSV header names a column "__proto__" (column ${i + 1}), which cannot be read as a field; rename it`,
          );
        }
        const before = first.get(name);
        if (before !== undefined) {
          throw new LoadError(
            file,
            `line ${span.line}: the CSV header names the column "${name}" twice (columns ${before + 1} and ${i + 1}); rename one`,
          );
        }
        first.set(name, i);
      });
      header = fields;
      continue;
    }
    seen++;
    if (fields.length !== header.length) {
      issues.push({
        file,
        line: span.line,
        message: `expected ${header.length} fields (one per header column), got ${fields.length}`,
      });
      continue;
    }
    const value: Record<string, string> = {};
    header.forEach((name, i) => {
      value[name] = fields[i]!;
    });
    records.push({ ref: { file, line: span.line }, value });
  }
  if (header === null) throw new LoadError(file, "the CSV file has no header row");
  if (seen === 0) throw new LoadError(file, "the CSV file has a header row but no data rows");
  return { records, issues, seen, lines: countLines(bytes), blank };
}

/**
 * The header and the rows of the start of a CSV file, for previews (the field-mapping dialog).
 * Never throws: rows that do not decode are skipped, missing cells are "", and when `partial` (the
 * file goes on past these bytes) the last row, which the cut may have split, is dropped, as is a
 * row left inside an open quote.
 */
export function csvSample(
  bytes: Uint8Array,
  partial: boolean,
): { header: string[]; rows: Record<string, string>[] } {
  let header: string[] | null = null;
  const rows: Record<string, string>[] = [];
  const spans = csvSpans(bytes);
  const whole = partial ? spans.slice(0, -1) : spans;
  for (const span of whole) {
    if (span.unterminated) break;
    const decoded = decodeRecord(bytes.subarray(span.start, span.end));
    if (!decoded.ok || isBlank(decoded.text)) continue;
    const fields = csvFields(decoded.text.replace(/^\uFEFF/, ""));
    if (header === null) {
      header = fields;
      continue;
    }
    const row: Record<string, string> = {};
    header.forEach((name, i) => {
      row[name] = fields[i] ?? "";
    });
    rows.push(row);
  }
  return { header: header ?? [], rows };
}
