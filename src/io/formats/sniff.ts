/**
 * Which container a file is, from its content and never its name: zip and Parquet by their magic
 * bytes, then for text one top-level value that spans the file (a document or an array) or a
 * sample of lines (JSON lines), else CSV. The sample's parsed values are what format detection
 * scores (load.ts, stream/indexedFile.ts).
 */
import {
  decodeRecord,
  looksBinary,
  looksUtf16WithoutBom,
  onlySpaceFrom,
  splitJsonlBytes,
  textLineStart,
  topValueExtent,
  utf16Bom,
  utf16ToUtf8,
} from "../containers/bytes.ts";
import { parseJsonLenient } from "../containers/pythonJson.ts";
import { LoadError } from "../issues.ts";
import { FORMATS, formatById } from "./registry.ts";
import type { Container, FormatSpec } from "./spec.ts";

const ZIP_MAGIC = [0x50, 0x4b];
const PARQUET_MAGIC = [0x50, 0x41, 0x52, 0x31];

const startsWith = (bytes: Uint8Array, magic: readonly number[]): boolean =>
  magic.every((b, i) => bytes[i] === b);

/** Detection reads at most this many non-blank lines of a JSONL head… */
export const SAMPLE_LINES = 50;
/** …within this many bytes from the line where the text starts. */
export const SAMPLE_WINDOW_BYTES = 4 << 20;

/** The lines detection judges a text file by: the first non-blank ones of its head. */
export interface LineSample {
  /** The values of the lines that parse, in file order: what format detection scores. */
  readonly values: unknown[];
  /** Non-blank whole lines looked at. */
  readonly lines: number;
  /** Of those, lines holding one JSON object or array. */
  readonly records: number;
  /** False when the window ended (cut) before it held SAMPLE_LINES whole lines: read more. */
  readonly complete: boolean;
}

/**
 * Sample the first SAMPLE_LINES non-blank lines of `window` (bytes from the line where the text
 * starts). `cut`: the file goes on past the window, so its last line may be partial and is left out.
 */
export function sampleLines(window: Uint8Array, cut: boolean): LineSample {
  const { records } = splitJsonlBytes(window, false);
  const whole = cut ? records.slice(0, -1) : records;
  const values: unknown[] = [];
  let objects = 0;
  const taken = whole.slice(0, SAMPLE_LINES);
  for (const r of taken) {
    const decoded = decodeRecord(window.subarray(r.start, r.end));
    if (!decoded.ok) continue;
    const parsed = parseJsonLenient(decoded.text);
    if (!parsed.ok) continue;
    values.push(parsed.value);
    if (typeof parsed.value === "object" && parsed.value !== null) objects++;
  }
  return {
    values,
    lines: taken.length,
    records: objects,
    complete: !cut || whole.length >= SAMPLE_LINES,
  };
}

/**
 * JSON lines when at least half the sampled lines are each one JSON object or array: a bad first
 * line (cut short, garbage, a second BOM) costs its own record, while a pretty-printed document,
 * a CSV or prose, whose lines are not whole values, is not taken for JSONL.
 */
const isJsonlSample = (s: LineSample): boolean => s.records > 0 && s.records * 2 >= s.lines;

/** What the text of a file is: its container, and for JSONL the sample detection scores. */
export interface TextSniff {
  readonly container: Container;
  /** For JSONL: the parsed values of the sampled lines. */
  readonly sample?: readonly unknown[];
}

/**
 * One JSON value on one line (a compact document, or a JSONL file of one record): the formats' own
 * scores decide. A document format that explodes it (score 3) wins over a record format's match
 * of the same or a lower score; a record format of another format that scores higher makes it one
 * JSONL record. A forced format decides among the containers it reads.
 */
function oneLineContainer(value: unknown, forced: FormatSpec | undefined): TextSniff {
  const formats = forced === undefined ? FORMATS : [forced];
  const documents = formats.filter(
    (f) => f.containers.includes("json-document") && f.explode?.(value) != null,
  );
  const scored = formats
    .filter((f) => f.containers.includes("jsonl"))
    .map((f) => ({ f, score: f.match(value) }));
  const recordScore = Math.max(0, ...scored.map((s) => s.score));
  // A format that reads both (ATIF, SWE-agent) and scores its own record higher is still the
  // document it explodes: the file is one value, and the document is how that format lays it out.
  const bestRecords = scored.filter((s) => s.score === recordScore).map((s) => s.f);
  const asJsonl: TextSniff = { container: "jsonl", sample: [value] };
  if (documents.length > 0 && (recordScore <= 3 || bestRecords.every((f) => documents.includes(f))))
    return { container: "json-document" };
  if (recordScore > 0) return asJsonl;
  if (forced !== undefined && !forced.containers.includes("jsonl"))
    return { container: "json-document" };
  return asJsonl;
}

/**
 * The container of a text file from its content, before its newlines: one top-level value that
 * spans the file is a document (or an array) whatever its line count, a single-line one decided by
 * {@link oneLineContainer}; otherwise a sample of lines decides whether it is JSONL; otherwise the
 * first byte ("[" an array with a problem, "{" a document with one, anything else CSV).
 *
 * @param text the file's bytes from the line where its text starts (see textLineStart)
 * @param reachesEnd whether `text` runs to the end of the file; when it does not (a large file's
 *   head), the answer is null whenever the rest of the file could change it
 * @throws LoadError when the text is mostly not text (binary)
 */
export function sniffText(
  file: string,
  text: Uint8Array,
  reachesEnd: boolean,
  forcedId?: string,
): TextSniff | null {
  if (looksBinary(text)) {
    throw new LoadError(
      file,
      "is a binary file, not JSON lines, JSON, CSV, Parquet or a zip (.eval)",
    );
  }
  let at = 0;
  while (at < text.length && isSpaceByte(text[at]!)) at++;
  const first = text[at];
  // A whole JSON object on the first line with more text after it can be no document: JSON lines,
  // however many of the lines after it are bad (each is then one rejected record).
  let firstLineObject = false;
  if (first === 0x7b || first === 0x5b) {
    const extent = topValueExtent(text, at);
    if (extent.state === "closed" && !extent.multiline && first === 0x7b) {
      const decoded = decodeRecord(text.subarray(at, extent.end));
      const parsed = decoded.ok ? parseJsonLenient(decoded.text) : null;
      firstLineObject = parsed?.ok === true && isPlainObjectValue(parsed.value);
    }
    if (extent.state === "closed" && onlySpaceFrom(text, extent.end)) {
      if (!reachesEnd) return null;
      if (first === 0x5b) return { container: "json-array" };
      if (extent.multiline) return { container: "json-document" };
      const decoded = decodeRecord(text.subarray(at, extent.end));
      const parsed = decoded.ok ? parseJsonLenient(decoded.text) : null;
      if (parsed?.ok === true) return oneLineContainer(parsed.value, forcedFormat(forcedId));
    } else if (extent.state === "open" && !reachesEnd) return null;
  }
  const window = text.subarray(0, SAMPLE_WINDOW_BYTES);
  const sample = sampleLines(window, !reachesEnd || text.length > window.length);
  if (firstLineObject || isJsonlSample(sample))
    return { container: "jsonl", sample: sample.values };
  if (!reachesEnd) return null;
  return { container: first === 0x5b ? "json-array" : first === 0x7b ? "json-document" : "csv" };
}

const isPlainObjectValue = (v: unknown): boolean =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const isSpaceByte = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

const forcedFormat = (id: string | undefined): FormatSpec | undefined =>
  id === undefined ? undefined : formatById(id);

/**
 * The container from the file's first bytes alone (zip, Parquet), or null for text.
 *
 * @throws LoadError for an empty file and for UTF-16 without a byte-order mark
 */
export function sniffMagic(file: string, bytes: Uint8Array): Container | null {
  if (bytes.length === 0) throw new LoadError(file, "the file is empty");
  if (startsWith(bytes, ZIP_MAGIC) && (bytes[2] === 0x03 || bytes[2] === 0x05)) return "zip";
  if (startsWith(bytes, PARQUET_MAGIC)) return "parquet";
  const utf16 = utf16Bom(bytes) === null ? looksUtf16WithoutBom(bytes) : null;
  if (utf16 !== null) {
    throw new LoadError(
      file,
      `looks like ${utf16.toUpperCase()} text without a byte-order mark; re-save it as UTF-8 (or as UTF-16 with a BOM, which is read)`,
    );
  }
  return null;
}

/** A UTF-16 file with a BOM (PowerShell's `>` writes UTF-16LE) as UTF-8; other bytes as they are. */
export function asUtf8(bytes: Uint8Array): Uint8Array {
  const utf16 = utf16Bom(bytes);
  return utf16 === null ? bytes : utf16ToUtf8(bytes, utf16);
}

/** The container of a whole file, with the JSONL sample when it is JSONL (UTF-8 bytes, see asUtf8). */
export function sniffFile(file: string, bytes: Uint8Array, forcedId?: string): TextSniff {
  const magic = sniffMagic(file, bytes);
  if (magic !== null) return { container: magic };
  const start = textLineStart(bytes);
  if (start === -1) throw new LoadError(file, "the file is empty");
  return sniffText(file, bytes.subarray(start), true, forcedId)!;
}

/** Which container the bytes are, from their content (a whole file, UTF-8). */
export function sniffContainer(file: string, bytes: Uint8Array, forcedId?: string): Container {
  if (utf16Bom(bytes) !== null) {
    throw new LoadError(
      file,
      "is UTF-16 text; it is read when loaded, but not here: re-save it as UTF-8",
    );
  }
  return sniffFile(file, bytes, forcedId).container;
}
