/**
 * Load a rollout file from its bytes: find the container (JSONL, JSON array, JSON document, CSV,
 * Parquet, zip) from the content, detect the format from a sample of records (never the file name),
 * parse every record at the boundary, and account for every record: each becomes a rollout or an
 * issue. Only a file with nothing usable fails as a whole.
 */
import type { RolloutGroup } from "../../core/index.ts";
import {
  bomLength,
  countLines,
  decodeRecord,
  looksBinary,
  looksUtf16WithoutBom,
  onlySpaceFrom,
  splitJsonArrayBytes,
  splitJsonlBytes,
  textLineStart,
  topValueExtent,
  utf16Bom,
  utf16ToUtf8,
  type ByteRecord,
} from "../containers/bytes.ts";
import { LoadError, type ParseIssue } from "../issues.ts";
import { readContainerExtra } from "../containers/extra.ts";
import { parseJsonLenient } from "../containers/pythonJson.ts";
import { recordGuardIssue } from "./recordGuard.ts";
import { groupDrafts, type RolloutDraft } from "./records.ts";
import { FORMATS, formatById } from "./registry.ts";
import {
  emptyMessage,
  type Container,
  type FormatOptions,
  type FormatSpec,
  type RecordRef,
} from "./spec.ts";

export interface LoadStats {
  /** Physical lines in the file (0 for binary containers). */
  readonly lines: number;
  /** Records seen: non-blank JSONL lines, array elements, CSV or Parquet rows, zip members, document entries. */
  readonly records: number;
  readonly rollouts: number;
  /** Records that produced no rollout; each has at least one issue. */
  readonly rejected: number;
  /** Blank JSONL lines, which hold no record. */
  readonly blank: number;
  /**
   * Records added by splitting one record into several (FormatSpec.explodeRecord: an Atropos line
   * of n rollouts is n records, n - 1 of them counted here); absent when none was split. For JSONL,
   * records - split + blank = lines.
   */
  readonly split?: number;
}

export interface FormatCandidate {
  readonly id: string;
  readonly label: string;
  readonly score: number;
}

export interface LoadResult {
  readonly file: string;
  readonly container: Container;
  readonly format: string;
  readonly formatLabel: string;
  readonly groupKey: string;
  /** Every format that matched, best first: what the UI offers as overrides. */
  readonly candidates: readonly FormatCandidate[];
  readonly groups: RolloutGroup[];
  readonly issues: ParseIssue[];
  readonly stats: LoadStats;
}

export interface LoadOptions {
  /** Force a format instead of detecting it. */
  readonly format?: string;
  readonly options?: FormatOptions;
}

/** The file matches several formats equally well: the caller must ask which one. */
export class AmbiguousFormatError extends LoadError {
  override name = "AmbiguousFormatError";
  readonly candidates: readonly FormatCandidate[];
  constructor(file: string, candidates: readonly FormatCandidate[]) {
    super(
      file,
      `matches several formats equally well (${candidates.map((c) => c.id).join(", ")}); choose one`,
    );
    this.candidates = candidates;
  }
}

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

const ZIP_MAGIC = [0x50, 0x4b];
const PARQUET_MAGIC = [0x50, 0x41, 0x52, 0x31];

const startsWith = (bytes: Uint8Array, magic: readonly number[]): boolean =>
  magic.every((b, i) => bytes[i] === b);

/** Detection reads at most this many non-blank lines of a JSONL head… */
export const SAMPLE_LINES = 50;
/** …within this many bytes from the line where the text starts. */
export const SAMPLE_WINDOW_BYTES = 4 << 20;

const tryParse = parseJsonLenient;

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
    const parsed = tryParse(decoded.text);
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
      const parsed = decoded.ok ? tryParse(decoded.text) : null;
      firstLineObject = parsed?.ok === true && isPlainObjectValue(parsed.value);
    }
    if (extent.state === "closed" && onlySpaceFrom(text, extent.end)) {
      if (!reachesEnd) return null;
      if (first === 0x5b) return { container: "json-array" };
      if (extent.multiline) return { container: "json-document" };
      const decoded = decodeRecord(text.subarray(at, extent.end));
      const parsed = decoded.ok ? tryParse(decoded.text) : null;
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
function sniffFile(file: string, bytes: Uint8Array, forcedId?: string): TextSniff {
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

function preview(text: string): string {
  const t = text.trim();
  return t.length > 60 ? `${t.slice(0, 60)}…` : t;
}

/**
 * Where each array element is: its line, and its JSON path ("[3]") when another element starts on
 * the same line (a minified array puts them all on line 1, where the line alone finds none).
 */
function elementRefs(file: string, ranges: readonly ByteRecord[]): RecordRef[] {
  const perLine = new Map<number, number>();
  for (const r of ranges) perLine.set(r.line, (perLine.get(r.line) ?? 0) + 1);
  return ranges.map((r, i) =>
    perLine.get(r.line)! > 1 ? { file, line: r.line, member: `[${i}]` } : { file, line: r.line },
  );
}

/** Why a record holding a raw NUL byte is rejected (JSON text never holds one). */
export function nulMessage(raw: Uint8Array, at: number): string {
  const column = new TextDecoder().decode(raw.subarray(0, at)).length + 1;
  return `holds a raw NUL byte at column ${column} (binary data in a text file), so it is not valid JSON`;
}

/** Decode and parse byte-range records, turning failures into issues. */
function parseByteRecords(
  bytes: Uint8Array,
  ranges: readonly ByteRecord[],
  refs: readonly RecordRef[],
  issues: ParseIssue[],
): RawRecord[] {
  const out: RawRecord[] = [];
  ranges.forEach((r, i) => {
    const ref = refs[i]!;
    const raw = bytes.subarray(r.start, r.end);
    const nul = raw.indexOf(0);
    if (nul !== -1) {
      issues.push({ ...ref, message: nulMessage(raw, nul) });
      return;
    }
    const decoded = decodeRecord(raw);
    if (!decoded.ok) {
      issues.push({ ...ref, message: decoded.message });
      return;
    }
    const parsed = tryParse(decoded.text);
    if (parsed.ok) out.push({ ref, value: parsed.value });
    else
      issues.push({
        ...ref,
        message: `not valid JSON (${parsed.message}): ${preview(decoded.text)}`,
      });
  });
  return out;
}

async function readContainer(
  file: string,
  bytes: Uint8Array,
  container: Container,
): Promise<ContainerRead & { document?: unknown }> {
  const issues: ParseIssue[] = [];
  switch (container) {
    case "jsonl": {
      const { records, blank, lines } = splitJsonlBytes(bytes);
      return {
        records: parseByteRecords(
          bytes,
          records,
          records.map((r) => ({ file, line: r.line })),
          issues,
        ),
        issues,
        seen: records.length,
        lines,
        blank,
      };
    }
    case "json-array": {
      const split = splitJsonArrayBytes(bytes);
      if (split.error) issues.push({ file, line: split.error.line, message: split.error.message });
      return {
        records: parseByteRecords(bytes, split.records, elementRefs(file, split.records), issues),
        issues,
        seen: split.records.length,
        lines: countLines(bytes),
        blank: 0,
      };
    }
    case "json-document": {
      const decoded = decodeRecord(bytes.subarray(bomLength(bytes)));
      if (!decoded.ok) throw new LoadError(file, decoded.message);
      const parsed = tryParse(decoded.text);
      if (!parsed.ok)
        throw new LoadError(
          file,
          `is not JSON lines, and not one valid JSON document either (${parsed.message})`,
        );
      return {
        records: [],
        issues,
        seen: 0,
        lines: countLines(bytes),
        blank: 0,
        document: parsed.value,
      };
    }
    default:
      return readContainerExtra(file, bytes, container);
  }
}

function describeKnown(container: Container): string {
  const fitting = FORMATS.filter((f) => f.containers.includes(container));
  const all = fitting.length > 0 ? fitting : FORMATS;
  return all.map((f) => `${f.label} (keyed by ${f.groupKey})`).join("; ");
}

function rankCandidates(scores: Map<FormatSpec, number>): FormatCandidate[] {
  return [...scores.entries()]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([f, score]) => ({ id: f.id, label: f.label, score }));
}

/**
 * Pick the format: the forced one if given (it must fit the container), else the best-scoring match
 * on a sample of records (or on the whole document). A tie is never broken silently.
 *
 * @throws LoadError for an unknown or unfitting forced format, or no match; AmbiguousFormatError on a tie
 */
export function chooseFormat(
  file: string,
  container: Container,
  sample: readonly unknown[],
  document: unknown,
  forcedId: string | undefined,
): { spec: FormatSpec; candidates: FormatCandidate[] } {
  const forced = forcedId === undefined ? undefined : formatById(forcedId);
  if (forcedId !== undefined && forced === undefined) {
    throw new LoadError(
      file,
      `unknown format "${forcedId}"; known: ${FORMATS.map((f) => f.id).join(", ")}`,
    );
  }
  const scores = new Map<FormatSpec, number>();
  for (const f of FORMATS) {
    if (!f.containers.includes(container)) continue;
    if (container === "json-document") scores.set(f, f.explode?.(document) != null ? 3 : 0);
    else scores.set(f, Math.max(0, ...sample.map((v) => f.match(v))));
  }
  const candidates = rankCandidates(scores);
  if (forced !== undefined) {
    if (!forced.containers.includes(container)) {
      throw new LoadError(
        file,
        `${forced.label} is read from ${forced.containers.join(" or ")}, but this file is ${container}`,
      );
    }
    return { spec: forced, candidates };
  }
  const best = candidates[0];
  if (best === undefined) {
    throw new LoadError(
      file,
      `is in no known format. This looks like ${container}; known formats for it: ${describeKnown(container)}.`,
    );
  }
  const tied = candidates.filter((c) => c.score === best.score);
  if (tied.length > 1) throw new AmbiguousFormatError(file, tied);
  return { spec: formatById(best.id)!, candidates };
}

/**
 * Load a file.
 *
 * @param file the name used in every message
 * @throws LoadError when the file is empty, binary, in no known format, or yields no rollout at all;
 *   AmbiguousFormatError when two formats match equally well and none was chosen
 */
export async function loadBytes(
  file: string,
  bytes: Uint8Array,
  load: LoadOptions = {},
): Promise<LoadResult> {
  const text = asUtf8(bytes);
  const sniffed = sniffFile(file, text, load.format);
  const container = sniffed.container;
  const read = await readContainer(file, text, container);
  const options = load.options ?? {};
  const issues = [...read.issues];
  let records = read.records;
  let seen = read.seen;
  if (container === "json-array" && seen === 0 && issues.length === 0)
    throw new LoadError(file, "holds an empty JSON array ([]): there are no records in it to load");

  const { spec, candidates } = chooseFormat(
    file,
    container,
    sniffed.sample ?? read.records.slice(0, SAMPLE_LINES).map((r) => r.value),
    read.document,
    // A zip is its format's from its members' names, even when no record in it can be read.
    load.format ?? read.format,
  );
  if (container === "json-document") {
    const entries = spec.explode?.(read.document) ?? [];
    records = entries.map((e) => ({ ref: { file, line: 0, member: e.path }, value: e.value }));
    seen = records.length;
    if (seen === 0) throw new LoadError(file, emptyMessage(spec, { document: read.document }));
  }
  let split = 0;
  if (spec.explodeRecord !== undefined) {
    const parts = explodeRecords(records, spec.explodeRecord);
    split = parts.length - records.length;
    records = parts;
    seen += split;
  }

  const drafts: RolloutDraft[] = [];
  let rejected = read.seen - read.records.length;
  for (const r of records) {
    const guarded = recordGuardIssue(r.ref, r.value);
    if (guarded !== null) {
      rejected++;
      issues.push(guarded);
      continue;
    }
    const outcome = spec.record(r.ref, r.value, options);
    if (outcome.ok) drafts.push(outcome.value);
    else {
      rejected++;
      issues.push(...outcome.issues);
    }
  }
  const grouped = groupDrafts(drafts);
  for (const issue of grouped.issues) issues.push(issue); // no spread: it may hold 100,000s
  rejected += grouped.issues.length;
  // Members in natural order: "[2]" before "[10]", "samples[9]" before "samples[10]".
  issues.sort(
    (a, b) =>
      a.line - b.line || (a.member ?? "").localeCompare(b.member ?? "", "en", { numeric: true }),
  );
  const rollouts = grouped.groups.reduce((s, g) => s + g.rollouts.length, 0);
  if (rollouts === 0) {
    const detail = issues
      .slice(0, 3)
      .map(
        (i) =>
          `${i.line > 0 ? `line ${i.line}` : (i.member ?? "")}: ${i.field ? `${i.field}: ` : ""}${i.message}`,
      );
    throw new LoadError(
      file,
      `no rollout could be read as ${spec.label} (${seen} record(s), every one rejected)` +
        (detail.length > 0 ? `; first problems: ${detail.join("; ")}` : ""),
    );
  }
  return {
    file,
    container,
    format: spec.id,
    formatLabel: spec.label,
    groupKey: spec.groupKey,
    candidates,
    groups: grouped.groups,
    issues,
    stats: {
      lines: read.lines,
      records: seen,
      rollouts,
      rejected,
      blank: read.blank,
      ...(split > 0 ? { split } : {}),
    },
  };
}

/**
 * Records split by the format into one per rollout (see FormatSpec.explodeRecord). A record the
 * guard refuses is not split: it stays one record, rejected with the guard's issue.
 */
function explodeRecords(
  records: readonly RawRecord[],
  explode: NonNullable<FormatSpec["explodeRecord"]>,
): RawRecord[] {
  const out: RawRecord[] = [];
  for (const r of records) {
    const parts = recordGuardIssue(r.ref, r.value) === null ? explode(r.value) : null;
    if (parts === null || parts.length === 0) {
      out.push(r);
      continue;
    }
    for (const p of parts) {
      const member = r.ref.member === undefined ? p.member : `${r.ref.member}${p.member}`;
      out.push({ ref: { ...r.ref, member }, value: p.value });
    }
  }
  return out;
}

/** Load from text (tests, small inputs). */
export function loadText(file: string, text: string, load: LoadOptions = {}): Promise<LoadResult> {
  return loadBytes(file, new TextEncoder().encode(text), load);
}
