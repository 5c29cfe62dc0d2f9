/**
 * Streaming byte-level JSONL indexer (performance.md sections 0, 2, 3 and 11).
 *
 * Owns: turning a file's bytes, pushed chunk by chunk, into a compact row index (byte offset, byte
 * length, 1-based line, and the values of a few top-level keys) without decoding the file or
 * `JSON.parse`-ing any whole line. Called by the indexing worker (browser, BYOB reader with one
 * reused 1 MB buffer) and by Node code that reads files in chunks. Pure TypeScript: no DOM and no
 * Node APIs, only `Uint8Array`, `TextDecoder` and `JSON.parse` of small slices.
 *
 * Why bytes: `JSON.parse` of a 200 MB dump runs at 144-317 MB/s and keeps the whole file as objects
 * (1.06-1.08x the file size on the heap, ~72 KB per long row), while a scanner that jumps over
 * strings with `Uint8Array.indexOf` indexes the same bytes at ~1.4 GB/s in 1 MB chunks and keeps
 * ~100 bytes per row with four keys (bench `index.jsonl.200MB`, `index.memory.perRow`). Rows are
 * decoded and parsed later, lazily, from `offset`/`length`.
 *
 * What it checks: only what it walks. At the top level it validates the object grammar (keys,
 * colons, commas, scalar tokens, nothing after the closing brace); inside skipped nested values it
 * only matches brackets and skips strings. Wanted values are decoded exactly as `JSON.parse` would
 * decode them. Anything else wrong with a line is left to the full parser, which reports details.
 */

import { FirstClaims } from "./firstClaims.ts";
import { decodeUtf8 } from "./utf8.ts";

/** Lines longer than this (bytes, excluding the line break) are indexed but never held or decoded. */
export const JSONL_DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

/**
 * Object/array values up to this many bytes are `JSON.parse`d in "parse" mode; larger ones are
 * hashed instead, because a parsed copy of a big nested value would defeat the point of an index
 * (and V8 allocates strings of 128 KB or more in the slow large-object space, performance.md §1).
 */
export const JSONL_DEFAULT_MAX_PARSE_BYTES = 64 * 1024;

/**
 * Hard cap on `maxLineBytes`: a line in progress is copied into one growable carry buffer, and
 * typed arrays past 2 GiB are not portable across engines.
 */
const MAX_LINE_BYTES_CAP = 2 ** 31 - 16;

/**
 * What to keep when a wanted key's value is an object or array:
 * - `"hash"`: a 32-bit FNV-1a hash of the value's raw bytes (cheap equality / change detection);
 * - `"raw"`: the value's JSON text, decoded but not parsed;
 * - `"parse"`: `JSON.parse` of just that slice, when it is at most `maxParseBytes` (else a hash).
 */
export type JsonlCompositeMode = "raw" | "hash" | "parse";

/** One top-level key to extract from every line. */
export interface JsonlIndexKey {
  readonly name: string;
  /** What to keep for object/array values (strings, numbers and literals are always decoded). Default "hash". */
  readonly composite?: JsonlCompositeMode;
  /**
   * Intern values in a Map so repeats share one entry: strings (group ids) get one small integer
   * id, and in "parse" mode equal JSON texts share one parsed value (so treat parsed values as
   * read-only). Turn it off for keys whose values are all distinct (row ids) to save the Map entry
   * per row. Default true.
   */
  readonly intern?: boolean;
}

export interface JsonlIndexerOptions {
  /** Top-level keys to extract, by name or with per-key options. Keys inside nested values never match. */
  readonly keys: readonly (string | JsonlIndexKey)[];
  /** Lines longer than this many bytes are flagged "too large" and not held. Default 256 MiB, max ~2 GiB. */
  readonly maxLineBytes?: number;
  /** Largest object/array value `JSON.parse`d in "parse" mode. Default 64 KiB. */
  readonly maxParseBytes?: number;
  /** Rows the tables hold before their first growth. Default 1024. */
  readonly initialCapacity?: number;
}

/**
 * The kind of value a row holds for a key. Missing means the key is absent (or the line is bad or
 * too large); the other tags say how to read the numeric payload (`numberAt`, `stringIdAt`).
 */
export const JsonlTag = {
  Missing: 0,
  Null: 1,
  False: 2,
  True: 3,
  Number: 4,
  String: 5,
  Hash: 6,
  Raw: 7,
  Parsed: 8,
} as const;
export type JsonlTag = (typeof JsonlTag)[keyof typeof JsonlTag];

/** Why a line was not indexed as a row with values. 0 means it was. */
export const JsonlBadReason = {
  None: 0,
  NotObject: 1,
  Truncated: 2,
  ExpectedKey: 3,
  ExpectedColon: 4,
  ExpectedSeparator: 5,
  InvalidValue: 6,
  MismatchedBracket: 7,
  TrailingText: 8,
  InvalidString: 9,
  InvalidComposite: 10,
  TooLarge: 11,
  NulByte: 12,
} as const;
export type JsonlBadReason = (typeof JsonlBadReason)[keyof typeof JsonlBadReason];

const REASON_MESSAGES: readonly string[] = [
  "",
  "the line is not a JSON object",
  "the line ends inside the JSON object (truncated?)",
  "expected a quoted key",
  'expected ":" after a key',
  'expected "," or "}" after a value',
  "invalid value (expected a string, number, object, array, true, false or null)",
  "mismatched brackets",
  "unexpected text after the JSON object",
  "invalid string (bad escape or raw control character)",
  "invalid JSON inside a wanted value",
  "the line is too large to decode",
  "the line holds a raw NUL byte (binary data in a text file)",
];

/** A human-readable message for a bad-line reason, for progress and issue lists. */
export function jsonlBadReasonMessage(reason: JsonlBadReason): string {
  return REASON_MESSAGES[reason] ?? "unknown problem";
}

/** An object/array value as the key's composite mode kept it. */
export type JsonlComposite =
  | { readonly kind: "hash"; readonly hash: number }
  | { readonly kind: "raw"; readonly json: string }
  | { readonly kind: "parsed"; readonly value: unknown };

/** A wanted key's value: `undefined` when absent; scalars exactly as `JSON.parse` gives them. */
export type JsonlFieldValue = null | boolean | number | string | JsonlComposite | undefined;

export type JsonlRowStatus = "ok" | "bad" | "tooLarge";

/** One indexed line, materialised (for progress messages and tests; hot paths use the accessors). */
export interface JsonlIndexRow {
  /** Position in the index (0-based); not the line number. */
  readonly row: number;
  /** Byte offset of the line's first byte in the file (after a BOM on line 1). */
  readonly offset: number;
  /** Byte length, excluding the line break (LF or CRLF): `file.slice(offset, offset + length)`. */
  readonly length: number;
  /** 1-based line number, counting blank lines. */
  readonly line: number;
  readonly status: JsonlRowStatus;
  readonly reason: JsonlBadReason;
  /** One entry per configured key, in `keys` order; all `undefined` unless status is "ok". */
  readonly values: readonly JsonlFieldValue[];
}

/** A key's column in a snapshot: `nums[row]` is the number, string id, hash or parsed index per `tags[row]`. */
export interface JsonlKeyColumn {
  readonly name: string;
  readonly composite: JsonlCompositeMode;
  readonly intern: boolean;
  readonly tags: Uint8Array;
  readonly nums: Float64Array;
  /** String and raw-JSON values, indexed by `nums[row]` when the tag is String or Raw. */
  readonly strings: readonly string[];
  /** Parsed composite values, indexed by `nums[row]` when the tag is Parsed. */
  readonly parsed: readonly unknown[];
}

/**
 * A self-contained copy of the index, structured-clone friendly: post it from the worker with
 * `jsonlSnapshotTransfer(snapshot)` as the transfer list so the typed arrays move instead of copying.
 */
export interface JsonlIndexSnapshot {
  readonly rowCount: number;
  readonly lineCount: number;
  readonly blankCount: number;
  readonly badCount: number;
  readonly tooLargeCount: number;
  readonly bytes: number;
  readonly offsets: Float64Array;
  /** `0xffffffff` marks a length of 2^32 - 1 bytes or more (only too-large lines); see `longLengths`. */
  readonly lengths: Uint32Array;
  readonly longLengths: readonly (readonly [row: number, length: number])[];
  readonly lines: Uint32Array;
  readonly reasons: Uint8Array;
  readonly keys: readonly JsonlKeyColumn[];
}

/** The buffers of a snapshot, for `postMessage(snapshot, jsonlSnapshotTransfer(snapshot))`. */
export function jsonlSnapshotTransfer(snapshot: JsonlIndexSnapshot): ArrayBuffer[] {
  const buffers: ArrayBufferLike[] = [
    snapshot.offsets.buffer,
    snapshot.lengths.buffer,
    snapshot.lines.buffer,
    snapshot.reasons.buffer,
  ];
  for (const k of snapshot.keys) buffers.push(k.tags.buffer, k.nums.buffer);
  return buffers.filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
}

const LONG_LENGTH = 0xffffffff;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const COMMA = 0x2c;
const COLON = 0x3a;
const CR = 0x0d;
const LF = 0x0a;

const encoder = new TextEncoder();

/** JSON whitespace that can occur inside a line (LF ends the line). */
function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === CR;
}

function skipSpace(buf: Uint8Array, i: number, end: number): number {
  while (i < end && isSpace(buf[i]!)) i++;
  return i;
}

/** Bytes scanned one at a time before the word loop (or `indexOf`) takes over: short finds are common. */
const SHORT_SCAN = 24;

/**
 * Index of the first `byte` in [from, end), or -1. The first bytes one at a time, then, when
 * `words` views the same bytes as `buf` (`Int32Array` over an aligned buffer: `wordsOf`), four
 * bytes a step: a word holds `byte` exactly when `x = word ^ byte * 0x01010101` has a zero byte,
 * which `(x - 0x01010101) & ~x & 0x80808080` tells without false positives. This runs 4 times
 * as fast as `Uint8Array.indexOf` in Chromium and 1.7 times in Node (bench/README.md, ninth
 * pass); without `words` (an unaligned view) it is `indexOf`.
 */
export function findByte(
  buf: Uint8Array,
  byte: number,
  from: number,
  end: number,
  words: Int32Array | null = null,
): number {
  let stop = from + SHORT_SCAN;
  stop = Math.min(end, stop + 3 - ((stop + 3) % 4));
  let i = from;
  for (; i < stop; i++) if (buf[i] === byte) return i;
  if (i >= end) return -1;
  if (words === null) {
    const q = buf.indexOf(byte, i);
    return q === -1 || q >= end ? -1 : q;
  }
  // `i` is a multiple of 4 here: word k is bytes [4k, 4k + 4).
  const pattern = Math.imul(byte, 0x01010101);
  const lastWord = end >>> 2;
  for (let k = i >>> 2; k < lastWord; k++) {
    const x = words[k]! ^ pattern;
    if (((x - 0x01010101) & ~x & 0x80808080) !== 0) {
      for (let j = k * 4; j < k * 4 + 4; j++) if (buf[j] === byte) return j;
    }
  }
  for (let j = Math.max(i, lastWord * 4); j < end; j++) if (buf[j] === byte) return j;
  return -1;
}

/** An `Int32Array` over `buf`'s whole words when its bytes start 4-aligned, else null (see `findByte`). */
export function wordsOver(buf: Uint8Array): Int32Array | null {
  return buf.byteOffset % 4 === 0
    ? new Int32Array(buf.buffer, buf.byteOffset, buf.length >>> 2)
    : null;
}

/**
 * Index of the quote closing the string whose body starts at `from`, or -1 if the line ends first.
 * A quote preceded by an odd run of backslashes is escaped; the run never crosses the opening quote.
 */
function closingQuote(
  buf: Uint8Array,
  from: number,
  end: number,
  words: Int32Array | null,
): number {
  let at = from;
  for (;;) {
    const q = findByte(buf, QUOTE, at, end, words);
    if (q === -1) return -1;
    if (buf[q - 1] !== BACKSLASH) return q;
    let b = q - 1;
    while (b >= from && buf[b] === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    at = q + 1;
  }
}

/** Whether `a`'s bytes from `start` equal `b`'s first `length` bytes, one at a time (short runs). */
function sameShort(a: Uint8Array, start: number, b: Uint8Array, length: number): boolean {
  for (let k = 0; k < length; k++) if (a[start + k] !== b[k]) return false;
  return true;
}

/** Whether `a`'s bytes from `start` equal `b`'s first `length` bytes, compared 4 at a time. */
function sameWords(
  a: DataView<ArrayBufferLike>,
  start: number,
  b: DataView,
  length: number,
): boolean {
  let k = 0;
  for (; k + 4 <= length; k += 4) if (a.getInt32(start + k) !== b.getInt32(k)) return false;
  for (; k < length; k++) if (a.getUint8(start + k) !== b.getUint8(k)) return false;
  return true;
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

/** End of the JSON number starting at `i`, or -InvalidValue. Grammar only; the caller checks what follows. */
function numberEnd(buf: Uint8Array, i: number, end: number): number {
  if (buf[i] === 0x2d) i++;
  if (i >= end) return -JsonlBadReason.InvalidValue;
  if (buf[i] === 0x30) i++;
  else if (isDigit(buf[i]!)) while (i < end && isDigit(buf[i]!)) i++;
  else return -JsonlBadReason.InvalidValue;
  if (i < end && buf[i] === 0x2e) {
    i++;
    if (i >= end || !isDigit(buf[i]!)) return -JsonlBadReason.InvalidValue;
    while (i < end && isDigit(buf[i]!)) i++;
  }
  if (i < end && (buf[i] === 0x65 || buf[i] === 0x45)) {
    i++;
    if (i < end && (buf[i] === 0x2b || buf[i] === 0x2d)) i++;
    if (i >= end || !isDigit(buf[i]!)) return -JsonlBadReason.InvalidValue;
    while (i < end && isDigit(buf[i]!)) i++;
  }
  return i;
}

/** The double `JSON.parse` gives for the number token in [start, end): exact integers fast, else `Number`. */
function numberValue(buf: Uint8Array, start: number, end: number): number {
  const negative = buf[start] === 0x2d;
  const digits = negative ? start + 1 : start;
  if (end - digits <= 15) {
    let v = 0;
    let i = digits;
    for (; i < end; i++) {
      const b = buf[i]!;
      if (b < 0x30 || b > 0x39) break;
      v = v * 10 + (b - 0x30);
    }
    if (i === end) return negative ? -v : v;
  }
  let text = "";
  for (let i = start; i < end; i++) text += String.fromCharCode(buf[i]!);
  return Number(text);
}

const LITERALS: readonly (readonly [Uint8Array, JsonlTag])[] = [
  [encoder.encode("true"), JsonlTag.True],
  [encoder.encode("false"), JsonlTag.False],
  [encoder.encode("null"), JsonlTag.Null],
];

/** The literal's tag if `true`/`false`/`null` starts at `i`, else -1. */
function literalAt(buf: Uint8Array, i: number, end: number): number {
  const b = buf[i];
  const entry =
    b === 0x74 ? LITERALS[0]! : b === 0x66 ? LITERALS[1]! : b === 0x6e ? LITERALS[2]! : null;
  if (entry === null) return -1;
  const [word, tag] = entry;
  if (i + word.length > end) return -1;
  for (let k = 1; k < word.length; k++) if (buf[i + k] !== word[k]) return -1;
  return tag;
}

const PYTHON_TOKENS: readonly (readonly [Uint8Array, string])[] = [
  [encoder.encode("NaN"), "NaN"],
  [encoder.encode("Infinity"), "Infinity"],
  [encoder.encode("-Infinity"), "-Infinity"],
];

/**
 * Python's bare `NaN`, `Infinity` or `-Infinity` (what `json.dumps` writes) starting at `i`: its
 * index in PYTHON_TOKENS, else -1. The full parser reads them as the strings "NaN", "Infinity" and
 * "-Infinity" (containers/pythonJson.ts), so the index keeps them as those strings too, and a row
 * the full parser accepts is never a bad line here.
 */
function pythonTokenAt(buf: Uint8Array, i: number, end: number): number {
  const b = buf[i];
  // "N", "I", or "-I": one comparison on the hot path for every other value.
  const t = b === 0x4e ? 0 : b === 0x49 ? 1 : b === 0x2d && buf[i + 1] === 0x49 ? 2 : -1;
  if (t < 0) return -1;
  const word = PYTHON_TOKENS[t]![0];
  if (i + word.length > end) return -1;
  for (let k = 1; k < word.length; k++) if (buf[i + k] !== word[k]) return -1;
  return t;
}

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  return -1;
}

/**
 * The string whose body is [start, end) (between the quotes), JSON-unescaped, or null where
 * `JSON.parse` would throw (a bad escape or a raw control character). `\uXXXX` pairs become the
 * same UTF-16 code units `JSON.parse` produces, lone surrogates included.
 */
function decodeString(buf: Uint8Array, start: number, end: number): string | null {
  let j = start;
  while (j < end) {
    const b = buf[j]!;
    if (b === BACKSLASH || b < 0x20) break;
    j++;
  }
  if (j === end) return decodeUtf8(buf, start, end);
  let out = "";
  let segment = start;
  while (j < end) {
    const b = buf[j]!;
    if (b < 0x20) return null;
    if (b !== BACKSLASH) {
      j++;
      continue;
    }
    if (j > segment) out += decodeUtf8(buf, segment, j);
    const e = buf[j + 1];
    let ch: string;
    switch (e) {
      case 0x22:
        ch = '"';
        break;
      case 0x5c:
        ch = "\\";
        break;
      case 0x2f:
        ch = "/";
        break;
      case 0x62:
        ch = "\b";
        break;
      case 0x66:
        ch = "\f";
        break;
      case 0x6e:
        ch = "\n";
        break;
      case 0x72:
        ch = "\r";
        break;
      case 0x74:
        ch = "\t";
        break;
      case 0x75: {
        if (j + 6 > end) return null;
        let code = 0;
        for (let k = j + 2; k < j + 6; k++) {
          const h = hexValue(buf[k]!);
          if (h < 0) return null;
          code = code * 16 + h;
        }
        out += String.fromCharCode(code);
        j += 6;
        segment = j;
        continue;
      }
      default:
        return null;
    }
    out += ch;
    j += 2;
    segment = j;
  }
  if (end > segment) out += decodeUtf8(buf, segment, end);
  return out;
}

/** 32-bit FNV-1a over raw bytes: stable across runs and engines, for "hash" mode. */
function fnv1a(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
  return h >>> 0;
}

interface Column {
  readonly name: string;
  readonly bytes: Uint8Array;
  /** The name needs no escaping in JSON, so an unescaped key matches it byte for byte. */
  readonly plain: boolean;
  readonly composite: JsonlCompositeMode;
  readonly intern: boolean;
  tags: Uint8Array;
  nums: Float64Array;
  strings: string[];
  /** An interned key's strings, each to its index in `strings` (a typed table: firstClaims.ts). */
  ids: FirstClaims | null;
  parsed: unknown[];
  /** "parse" mode with interning: JSON text to index in `parsed`. */
  parsedIds: Map<string, number> | null;
  /**
   * An interned key's last string value, as its raw bytes (between the quotes, in
   * `lastBytes[0, lastLength)`, -1 for none) and its id: rows of a group repeat their group id and
   * prompt, and equal bytes decode to the same string, so a repeat skips the decoding and the
   * table lookup.
   */
  lastBytes: Uint8Array;
  lastView: DataView;
  lastLength: number;
  lastId: number;
}

/**
 * Strings up to this many bytes are unescaped in JS; longer ones by `JSON.parse` of their JSON
 * text, which is native. Either is remembered as an interned key's last value (`Column.lastBytes`).
 */
const SHORT_STRING = 32;
/** Longest string remembered as a key's last value. */
const LAST_MAX_BYTES = 64 * 1024;

/**
 * Incremental JSONL indexer. Push the file's bytes in order with `push` (chunks may split a line,
 * a UTF-8 sequence or the BOM anywhere), then call `finish` once. Every line ends up as exactly one
 * of: a row (status "ok", "bad" or "tooLarge") or a blank line, so `rowCount + blankCount ===
 * lineCount`. Never throws on input bytes; only on misuse (a key listed twice, push after finish).
 *
 * Chunks are never retained: the caller may reuse its buffer as soon as `push` returns (BYOB
 * reader). Only the unfinished tail of a line is copied, into one growable carry buffer; a line
 * over `maxLineBytes` stops being copied and is skipped to its newline.
 *
 * Memory: per row 8 (offset) + 4 (length) + 4 (line) + 1 (reason) bytes, plus 9 per key (tag and
 * a float64 payload), plus the strings themselves, held once per distinct value when interned.
 * With `group_id`, `id` (not interned), `reward` and `rewards` ("parse") that is ~99 bytes per row
 * in total (bench `index.memory.perRow`), against ~72 KB per row as parsed objects.
 */
export class JsonlIndexer {
  /** The configured keys, in the order `values` and key indexes use. */
  readonly keys: readonly string[];
  private readonly maxLineBytes: number;
  private readonly maxParseBytes: number;
  private readonly columns: Column[];

  private capacity: number;
  private n = 0;
  private offsets: Float64Array;
  private lengths: Uint32Array;
  private lines: Uint32Array;
  private reasons: Uint8Array;
  private readonly longLengths = new Map<number, number>();

  /** File offset of the next chunk's first byte (equals the bytes pushed so far). */
  private base = 0;
  /** File offset where the unfinished line started, or -1 when the last chunk ended a line. */
  private pendingStart = -1;
  private carry = new Uint8Array(64 * 1024);
  private carryLength = 0;
  /** True while skipping an over-long line to its newline without holding it. */
  private skipping = false;
  /** Last byte seen of a skipped line, to drop the CR of a CRLF split across chunks. */
  private skippedLast = 0;
  /** The file's first bytes, to recognise a BOM at the start of a line that is not held. */
  private readonly head = new Uint8Array(3);
  private headLength = 0;
  private stack = new Uint8Array(256);
  private viewBuf: Uint8Array | null = null;
  /** `wordsOver` of `wordsBuf`, the buffer last walked: the word view `findByte` scans with. */
  private wordsBuf: Uint8Array | null = null;
  private words: Int32Array | null = null;
  /** The buffer `nulWithin` last searched, from where, and its next NUL there (-1: none). */
  private nulBuf: Uint8Array | null = null;
  private nulFrom = 0;
  private nulAt = -1;
  private view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  /** Per key, table sizes before the current line, to drop what a line that turns out bad added. */
  private readonly stringMarks: Int32Array;
  private readonly parsedMarks: Int32Array;

  private lineNumber = 0;
  private blank = 0;
  private bad = 0;
  private tooLarge = 0;
  private finished = false;

  constructor(options: JsonlIndexerOptions) {
    const seen = new Set<string>();
    this.columns = options.keys.map((k) => {
      const spec = typeof k === "string" ? { name: k } : k;
      if (seen.has(spec.name)) throw new Error(`jsonl index: key "${spec.name}" is listed twice`);
      seen.add(spec.name);
      const intern = spec.intern ?? true;
      const bytes = encoder.encode(spec.name);
      return {
        name: spec.name,
        bytes,
        plain: !bytes.some((b) => b === BACKSLASH || b === QUOTE || b < 0x20),
        composite: spec.composite ?? "hash",
        intern,
        tags: new Uint8Array(0),
        nums: new Float64Array(0),
        strings: [],
        ids: intern ? new FirstClaims() : null,
        parsed: [],
        parsedIds: intern ? new Map<string, number>() : null,
        lastBytes: new Uint8Array(0),
        lastView: new DataView(new ArrayBuffer(0)),
        lastLength: -1,
        lastId: -1,
      };
    });
    this.keys = this.columns.map((c) => c.name);
    this.stringMarks = new Int32Array(this.columns.length);
    this.parsedMarks = new Int32Array(this.columns.length);
    this.maxLineBytes = Math.max(
      0,
      Math.min(options.maxLineBytes ?? JSONL_DEFAULT_MAX_LINE_BYTES, MAX_LINE_BYTES_CAP),
    );
    this.maxParseBytes = options.maxParseBytes ?? JSONL_DEFAULT_MAX_PARSE_BYTES;
    this.capacity = Math.max(16, options.initialCapacity ?? 1024);
    this.offsets = new Float64Array(this.capacity);
    this.lengths = new Uint32Array(this.capacity);
    this.lines = new Uint32Array(this.capacity);
    this.reasons = new Uint8Array(this.capacity);
    for (const c of this.columns) {
      c.tags = new Uint8Array(this.capacity);
      c.nums = new Float64Array(this.capacity);
    }
  }

  /** Rows indexed so far: ok, bad and too-large lines (blank lines are only counted). */
  get rowCount(): number {
    return this.n;
  }
  /** Lines completed so far, blank ones included. */
  get lineCount(): number {
    return this.lineNumber;
  }
  get blankCount(): number {
    return this.blank;
  }
  /** Rows that are not JSON objects or are malformed where the scanner walked. */
  get badCount(): number {
    return this.bad;
  }
  get tooLargeCount(): number {
    return this.tooLarge;
  }
  get okCount(): number {
    return this.n - this.bad - this.tooLarge;
  }
  /** Bytes pushed so far, for progress. */
  get bytesRead(): number {
    return this.base;
  }
  get isFinished(): boolean {
    return this.finished;
  }

  /** Index of a configured key by name, or -1. */
  keyIndex(name: string): number {
    return this.keys.indexOf(name);
  }

  /**
   * Index the next chunk of the file. Returns how many rows it completed (read them with
   * `rowsSince`). The chunk is not retained, so a reused buffer may be refilled right after.
   */
  push(chunk: Uint8Array): number {
    if (this.finished) throw new Error("jsonl index: push() after finish()");
    const size = chunk.length;
    if (size === 0) return 0;
    const before = this.n;
    this.nulBuf = null;
    for (let i = 0; this.headLength < 3 && i < size; i++) this.head[this.headLength++] = chunk[i]!;
    let pos = 0;
    if (this.pendingStart >= 0) {
      const nl = findByte(chunk, LF, 0, size, this.wordsOf(chunk));
      const stop = nl === -1 ? size : nl;
      if (!this.skipping && this.carryLength + stop > this.maxLineBytes + 4) {
        // Over the limit even after dropping a CR and a BOM: stop holding it.
        this.skipping = true;
        if (this.carryLength > 0) this.skippedLast = this.carry[this.carryLength - 1]!;
        this.carryLength = 0;
        this.releaseCarry();
      }
      if (this.skipping) {
        if (stop > 0) this.skippedLast = chunk[stop - 1]!;
        if (nl === -1) {
          this.base += size;
          return 0;
        }
        this.skippedLine(this.base + nl);
      } else {
        this.appendCarry(chunk, 0, stop);
        if (nl === -1) {
          this.base += size;
          return 0;
        }
        this.line(this.carry, 0, this.carryLength, this.pendingStart);
        this.nulBuf = null;
        this.carryLength = 0;
        this.releaseCarry();
      }
      this.pendingStart = -1;
      pos = nl + 1;
    }
    const words = this.wordsOf(chunk);
    while (pos < size) {
      const nl = findByte(chunk, LF, pos, size, words);
      if (nl === -1) break;
      this.line(chunk, pos, nl, this.base + pos);
      pos = nl + 1;
    }
    if (pos < size) {
      this.pendingStart = this.base + pos;
      if (size - pos > this.maxLineBytes + 4) {
        this.skipping = true;
        this.skippedLast = chunk[size - 1]!;
      } else {
        this.appendCarry(chunk, pos, size);
      }
    }
    this.base += size;
    return this.n - before;
  }

  /**
   * End of file: index a last line that has no final newline, and trim the tables to size. A file
   * ending in a newline has no extra empty line (as `split` + drop-last would say).
   */
  finish(): number {
    if (this.finished) return 0;
    const before = this.n;
    this.nulBuf = null;
    if (this.pendingStart >= 0) {
      if (this.skipping) this.skippedLine(this.base);
      else if (!(this.pendingStart === 0 && this.carryLength === 3 && this.headIsBom())) {
        // A file that is only a BOM has no lines.
        this.line(this.carry, 0, this.carryLength, this.pendingStart);
      }
      this.pendingStart = -1;
    }
    this.finished = true;
    this.carry = new Uint8Array(0);
    this.carryLength = 0;
    this.stack = new Uint8Array(0);
    this.wordsBuf = this.words = this.viewBuf = null;
    this.resize(this.n);
    for (const c of this.columns) {
      // Exact-size copies: a grown array keeps up to half its slots spare.
      c.strings = c.strings.slice();
      c.parsed = c.parsed.slice();
    }
    return this.n - before;
  }

  offsetAt(row: number): number {
    return this.offsets[row]!;
  }
  lengthAt(row: number): number {
    const l = this.lengths[row]!;
    return l === LONG_LENGTH ? (this.longLengths.get(row) ?? l) : l;
  }
  lineAt(row: number): number {
    return this.lines[row]!;
  }
  reasonAt(row: number): JsonlBadReason {
    return this.reasons[row] as JsonlBadReason;
  }
  statusAt(row: number): JsonlRowStatus {
    const r = this.reasons[row]!;
    return r === 0 ? "ok" : r === JsonlBadReason.TooLarge ? "tooLarge" : "bad";
  }
  tagAt(row: number, key: number): JsonlTag {
    return this.columns[key]!.tags[row] as JsonlTag;
  }
  /**
   * The number when the tag is Number (or the hash when it is Hash), else NaN. Out-of-range
   * literals such as `1e400` give Infinity, as `JSON.parse` does; the full parser rejects them.
   */
  numberAt(row: number, key: number): number {
    const c = this.columns[key]!;
    const t = c.tags[row];
    return t === JsonlTag.Number || t === JsonlTag.Hash ? c.nums[row]! : NaN;
  }
  /** The key's interned string id (index into `stringsOf(key)`) when the tag is String, else -1. */
  stringIdAt(row: number, key: number): number {
    const c = this.columns[key]!;
    return c.tags[row] === JsonlTag.String ? c.nums[row]! : -1;
  }
  /** The string value when the tag is String, else undefined. */
  stringAt(row: number, key: number): string | undefined {
    const c = this.columns[key]!;
    return c.tags[row] === JsonlTag.String ? c.strings[c.nums[row]!] : undefined;
  }
  /** The key's distinct strings (and raw JSON texts), in first-seen order; ids index into it. */
  stringsOf(key: number): readonly string[] {
    return this.columns[key]!.strings;
  }

  /** The key's value in a row: `undefined` when absent, scalars as `JSON.parse` gives them. */
  valueAt(row: number, key: number): JsonlFieldValue {
    const c = this.columns[key]!;
    const payload = c.nums[row]!;
    switch (c.tags[row]) {
      case JsonlTag.Null:
        return null;
      case JsonlTag.False:
        return false;
      case JsonlTag.True:
        return true;
      case JsonlTag.Number:
        return payload;
      case JsonlTag.String:
        return c.strings[payload];
      case JsonlTag.Hash:
        return { kind: "hash", hash: payload };
      case JsonlTag.Raw:
        return { kind: "raw", json: c.strings[payload]! };
      case JsonlTag.Parsed:
        return { kind: "parsed", value: c.parsed[payload] };
      default:
        return undefined;
    }
  }

  /** A row's values (`valueAt` for every key) written into `out`, reused between rows. */
  valuesInto(row: number, out: JsonlFieldValue[]): JsonlFieldValue[] {
    const columns = this.columns;
    out.length = columns.length;
    for (let k = 0; k < columns.length; k++) out[k] = this.valueAt(row, k);
    return out;
  }

  /** One row, materialised. */
  row(row: number): JsonlIndexRow {
    return {
      row,
      offset: this.offsets[row]!,
      length: this.lengthAt(row),
      line: this.lines[row]!,
      status: this.statusAt(row),
      reason: this.reasonAt(row),
      values: this.columns.map((_, k) => this.valueAt(row, k)),
    };
  }

  /**
   * Rows `start` to `end` (exclusive, default all so far), materialised: a worker calls this after
   * each `push` with its previous `rowCount` to post progress and the first complete group early.
   */
  rowsSince(start: number, end: number = this.n): JsonlIndexRow[] {
    const out: JsonlIndexRow[] = [];
    for (let r = Math.max(0, start); r < Math.min(end, this.n); r++) out.push(this.row(r));
    return out;
  }

  /** A copy of the whole index as plain typed arrays and arrays (see `JsonlIndexSnapshot`). */
  snapshot(): JsonlIndexSnapshot {
    const n = this.n;
    return {
      rowCount: n,
      lineCount: this.lineNumber,
      blankCount: this.blank,
      badCount: this.bad,
      tooLargeCount: this.tooLarge,
      bytes: this.base,
      offsets: this.offsets.slice(0, n),
      lengths: this.lengths.slice(0, n),
      longLengths: [...this.longLengths],
      lines: this.lines.slice(0, n),
      reasons: this.reasons.slice(0, n),
      keys: this.columns.map((c) => ({
        name: c.name,
        composite: c.composite,
        intern: c.intern,
        tags: c.tags.slice(0, n),
        nums: c.nums.slice(0, n),
        strings: [...c.strings],
        parsed: [...c.parsed],
      })),
    };
  }

  // ---- streaming internals ----

  /**
   * Whether `buf` holds a NUL in [start, end). The next NUL of the buffer is searched once and
   * kept, so a chunk without one (the common case) costs one `indexOf` instead of one per line.
   * Lines are asked in order within a buffer; `push` and `finish` forget the buffer, since a
   * reused one (BYOB, or the carry) may hold other bytes by the next call.
   */
  private nulWithin(buf: Uint8Array, start: number, end: number): boolean {
    if (buf !== this.nulBuf || start < this.nulFrom) {
      this.nulBuf = buf;
      this.nulFrom = start;
      this.nulAt = findByte(buf, 0, start, buf.length, this.wordsOf(buf));
    } else if (this.nulAt !== -1 && this.nulAt < start) {
      this.nulFrom = start;
      this.nulAt = findByte(buf, 0, start, buf.length, this.wordsOf(buf));
    }
    return this.nulAt !== -1 && this.nulAt < end;
  }

  private wordsOf(buf: Uint8Array): Int32Array | null {
    if (buf !== this.wordsBuf) {
      this.wordsBuf = buf;
      this.words = wordsOver(buf);
    }
    return this.words;
  }

  /** A DataView of `buf` (a chunk or the carry), kept while the same array is walked. */
  private viewOf(buf: Uint8Array): DataView<ArrayBufferLike> {
    if (buf !== this.viewBuf) {
      this.viewBuf = buf;
      this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    }
    return this.view;
  }

  private headIsBom(): boolean {
    return (
      this.headLength === 3 &&
      this.head[0] === 0xef &&
      this.head[1] === 0xbb &&
      this.head[2] === 0xbf
    );
  }

  private appendCarry(chunk: Uint8Array, start: number, end: number): void {
    const need = this.carryLength + (end - start);
    if (need > this.carry.length) {
      // Doubling, but never past the longest line that is still held (maxLineBytes + CR + BOM).
      const grown = new Uint8Array(
        Math.max(need, Math.min(this.carry.length * 2, this.maxLineBytes + 4)),
      );
      grown.set(this.carry.subarray(0, this.carryLength));
      this.carry = grown;
    }
    this.carry.set(chunk.subarray(start, end), this.carryLength);
    this.carryLength = need;
  }

  /** After a very long line, give the big carry buffer back instead of holding it for the file. */
  private releaseCarry(): void {
    if (this.carry.length > 16 * 1024 * 1024) this.carry = new Uint8Array(64 * 1024);
  }

  /** An over-long line that ended at file offset `end` (its LF, or end of file), never held. */
  private skippedLine(end: number): void {
    this.lineNumber++;
    let start = this.pendingStart;
    if (start === 0 && this.headIsBom()) start = 3;
    const stop = this.skippedLast === CR ? end - 1 : end;
    this.addRow(start, stop - start, JsonlBadReason.TooLarge);
    this.tooLarge++;
    this.skipping = false;
    this.skippedLast = 0;
  }

  private grow(): void {
    this.resize(Math.max(16, this.capacity * 2));
  }

  /** Reallocate every column to `capacity` rows (doubling while indexing, exact at the end). */
  private resize(capacity: number): void {
    const n = this.n;
    const f64 = (a: Float64Array): Float64Array => {
      const b = new Float64Array(capacity);
      b.set(a.subarray(0, n));
      return b;
    };
    const u32 = (a: Uint32Array): Uint32Array => {
      const b = new Uint32Array(capacity);
      b.set(a.subarray(0, n));
      return b;
    };
    const u8 = (a: Uint8Array): Uint8Array => {
      const b = new Uint8Array(capacity);
      b.set(a.subarray(0, n));
      return b;
    };
    this.offsets = f64(this.offsets);
    this.lengths = u32(this.lengths);
    this.lines = u32(this.lines);
    this.reasons = u8(this.reasons);
    for (const c of this.columns) {
      c.tags = u8(c.tags);
      c.nums = f64(c.nums);
    }
    this.capacity = capacity;
  }

  private addRow(offset: number, length: number, reason: number): number {
    if (this.n === this.capacity) this.grow();
    const row = this.n++;
    this.offsets[row] = offset;
    if (length >= LONG_LENGTH) {
      this.lengths[row] = LONG_LENGTH;
      this.longLengths.set(row, length);
    } else this.lengths[row] = length;
    this.lines[row] = this.lineNumber;
    this.reasons[row] = reason;
    return row;
  }

  /** One complete line: bytes [start, end) of `buf` (no LF), starting at file offset `offset`. */
  private line(buf: Uint8Array, start: number, end: number, offset: number): void {
    this.lineNumber++;
    if (end > start && buf[end - 1] === CR) end--;
    if (
      offset === 0 &&
      end - start >= 3 &&
      buf[start] === 0xef &&
      buf[start + 1] === 0xbb &&
      buf[start + 2] === 0xbf
    ) {
      start += 3;
      offset += 3;
    }
    if (end - start > this.maxLineBytes) {
      this.addRow(offset, end - start, JsonlBadReason.TooLarge);
      this.tooLarge++;
      return;
    }
    const first = skipSpace(buf, start, end);
    if (first === end) {
      this.blank++;
      return;
    }
    // A NUL spoils its own line (JSON text never holds one), wherever the scan would skip it.
    if (this.nulWithin(buf, first, end)) {
      this.addRow(offset, end - start, JsonlBadReason.NulByte);
      this.bad++;
      return;
    }
    const row = this.addRow(offset, end - start, 0);
    this.wordsOf(buf);
    const columns = this.columns;
    for (let k = 0; k < columns.length; k++) {
      this.stringMarks[k] = columns[k]!.strings.length;
      this.parsedMarks[k] = columns[k]!.parsed.length;
    }
    const reason = this.scanObject(buf, first, end, row);
    if (reason !== 0) {
      this.reasons[row] = reason;
      this.bad++;
      for (let k = 0; k < columns.length; k++) {
        const c = columns[k]!;
        c.tags[row] = JsonlTag.Missing;
        c.nums[row] = 0;
        // Drop what this line appended, unless interned: a Map may already point at it.
        if (!c.intern) {
          c.strings.length = this.stringMarks[k]!;
          c.parsed.length = this.parsedMarks[k]!;
        }
      }
    }
  }

  /** Walk the top-level object starting at `i` ("{" expected); returns 0 or a bad reason. */
  private scanObject(buf: Uint8Array, i: number, end: number, row: number): number {
    if (buf[i] !== LBRACE) return JsonlBadReason.NotObject;
    i = skipSpace(buf, i + 1, end);
    if (i >= end) return JsonlBadReason.Truncated;
    if (buf[i] === RBRACE)
      return skipSpace(buf, i + 1, end) === end ? 0 : JsonlBadReason.TrailingText;
    for (;;) {
      if (buf[i] !== QUOTE) return JsonlBadReason.ExpectedKey;
      const q = closingQuote(buf, i + 1, end, this.words);
      if (q < 0) return JsonlBadReason.Truncated;
      const key = this.matchKey(buf, i + 1, q);
      if (key === -2) return JsonlBadReason.InvalidString;
      i = skipSpace(buf, q + 1, end);
      if (i >= end) return JsonlBadReason.Truncated;
      if (buf[i] !== COLON) return JsonlBadReason.ExpectedColon;
      i = skipSpace(buf, i + 1, end);
      if (i >= end) return JsonlBadReason.Truncated;
      i = key < 0 ? this.skipValue(buf, i, end) : this.readValue(buf, i, end, row, key);
      if (i < 0) return -i;
      i = skipSpace(buf, i, end);
      if (i >= end) return JsonlBadReason.Truncated;
      const c = buf[i];
      if (c === COMMA) {
        i = skipSpace(buf, i + 1, end);
        if (i >= end) return JsonlBadReason.Truncated;
        continue;
      }
      if (c === RBRACE) return skipSpace(buf, i + 1, end) === end ? 0 : JsonlBadReason.TrailingText;
      return JsonlBadReason.ExpectedSeparator;
    }
  }

  /** The wanted key whose name is the string body [start, end), -1 for none, -2 for a bad escape. */
  private matchKey(buf: Uint8Array, start: number, end: number): number {
    const length = end - start;
    const columns = this.columns;
    for (let k = 0; k < columns.length; k++) {
      const c = columns[k]!;
      const want = c.bytes;
      if (want.length !== length || !c.plain) continue;
      let j = 0;
      while (j < length && buf[start + j] === want[j]) j++;
      if (j === length) return k;
    }
    // A key spelled with escapes ("\u0069d" is "id") can only match after decoding.
    if (findByte(buf, BACKSLASH, start, end) === -1) return -1;
    const name = decodeString(buf, start, end);
    if (name === null) return -2;
    return this.keys.indexOf(name);
  }

  /** End of the value starting at `i` (not kept), or a negated bad reason. */
  private skipValue(buf: Uint8Array, i: number, end: number): number {
    const c = buf[i]!;
    if (c === QUOTE) {
      const q = closingQuote(buf, i + 1, end, this.words);
      return q < 0 ? -JsonlBadReason.Truncated : q + 1;
    }
    if (c === LBRACE || c === LBRACKET) return this.nestedEnd(buf, i, end);
    const token = pythonTokenAt(buf, i, end);
    if (token >= 0) return i + PYTHON_TOKENS[token]![0].length;
    if (c === 0x2d || isDigit(c)) return numberEnd(buf, i, end);
    const literal = literalAt(buf, i, end);
    if (literal < 0) return -JsonlBadReason.InvalidValue;
    return i + (literal === JsonlTag.False ? 5 : 4);
  }

  /**
   * End of the object or array opening at `i`: bracket matching with a byte stack (no recursion,
   * so deep nesting cannot overflow), strings jumped over with `indexOf`.
   */
  private nestedEnd(buf: Uint8Array, i: number, end: number): number {
    let stack = this.stack;
    let depth = 0;
    for (; i < end; i++) {
      const c = buf[i]!;
      if (c === QUOTE) {
        const q = closingQuote(buf, i + 1, end, this.words);
        if (q < 0) return -JsonlBadReason.Truncated;
        i = q;
      } else if (c === LBRACE || c === LBRACKET) {
        if (depth === stack.length) {
          const grown = new Uint8Array(Math.max(256, stack.length * 2));
          grown.set(stack);
          this.stack = stack = grown;
        }
        stack[depth++] = c;
      } else if (c === RBRACE || c === 0x5d) {
        // "}" and "]" are their openers + 2.
        if (stack[--depth] !== c - 2) return -JsonlBadReason.MismatchedBracket;
        if (depth === 0) return i + 1;
      }
    }
    return -JsonlBadReason.Truncated;
  }

  /** Decode and store the value of wanted key `key` starting at `i`; its end, or a negated reason. */
  private readValue(buf: Uint8Array, i: number, end: number, row: number, key: number): number {
    const col = this.columns[key]!;
    const c = buf[i]!;
    if (c === QUOTE) {
      const q = closingQuote(buf, i + 1, end, this.words);
      if (q < 0) return -JsonlBadReason.Truncated;
      // An interned key's value is compared with the key's last one as bytes first (a group's
      // rows repeat its group id and prompt): equal bytes are the same string, so a repeat skips
      // the decoding and the table lookup.
      const length = q - i - 1;
      if (
        length === col.lastLength &&
        (length <= SHORT_STRING
          ? sameShort(buf, i + 1, col.lastBytes, length)
          : sameWords(this.viewOf(buf), i + 1, col.lastView, length))
      ) {
        col.tags[row] = JsonlTag.String;
        col.nums[row] = col.lastId;
        return q + 1;
      }
      let text: string;
      if (length <= SHORT_STRING) {
        const s = decodeString(buf, i + 1, q);
        if (s === null) return -JsonlBadReason.InvalidString;
        text = s;
      } else {
        // A long string: its JSON text decoded and unescaped natively by JSON.parse.
        try {
          text = JSON.parse(decodeUtf8(buf, i, q + 1)) as string;
        } catch {
          return -JsonlBadReason.InvalidString;
        }
      }
      this.storeString(col, row, text, JsonlTag.String);
      if (col.ids !== null) {
        // Interned ids outlive a line that turns out bad, so the remembered id stays valid.
        col.lastId = col.nums[row]!;
        if (length <= LAST_MAX_BYTES) {
          if (col.lastBytes.length < length) {
            col.lastBytes = new Uint8Array(Math.max(256, length * 2));
            col.lastView = new DataView(col.lastBytes.buffer);
          }
          col.lastBytes.set(buf.subarray(i + 1, q));
          col.lastLength = length;
        } else col.lastLength = -1;
      }
      return q + 1;
    }
    if (c === LBRACE || c === LBRACKET) {
      const stop = this.nestedEnd(buf, i, end);
      if (stop < 0) return stop;
      const mode = col.composite;
      if (mode === "raw") {
        this.storeString(col, row, decodeUtf8(buf, i, stop), JsonlTag.Raw);
      } else if (mode === "parse" && stop - i <= this.maxParseBytes) {
        const json = decodeUtf8(buf, i, stop);
        let id = col.parsedIds?.get(json);
        if (id === undefined) {
          let value: unknown;
          try {
            value = JSON.parse(json);
          } catch {
            return -JsonlBadReason.InvalidComposite;
          }
          id = col.parsed.push(value) - 1;
          col.parsedIds?.set(json, id);
        }
        col.tags[row] = JsonlTag.Parsed;
        col.nums[row] = id;
      } else {
        col.tags[row] = JsonlTag.Hash;
        col.nums[row] = fnv1a(buf, i, stop);
      }
      return stop;
    }
    const token = pythonTokenAt(buf, i, end);
    if (token >= 0) {
      const [word, text] = PYTHON_TOKENS[token]!;
      this.storeString(col, row, text, JsonlTag.String);
      return i + word.length;
    }
    if (c === 0x2d || isDigit(c)) {
      const stop = numberEnd(buf, i, end);
      if (stop < 0) return stop;
      col.tags[row] = JsonlTag.Number;
      col.nums[row] = numberValue(buf, i, stop);
      return stop;
    }
    const literal = literalAt(buf, i, end);
    if (literal < 0) return -JsonlBadReason.InvalidValue;
    col.tags[row] = literal;
    col.nums[row] = 0;
    return i + (literal === JsonlTag.False ? 5 : 4);
  }

  private storeString(col: Column, row: number, s: string, tag: JsonlTag): void {
    let id: number;
    if (col.ids !== null) {
      id = col.ids.claim(s, col.strings.length);
      if (id === col.strings.length) col.strings.push(s);
    } else id = col.strings.push(s) - 1;
    col.tags[row] = tag;
    col.nums[row] = id;
  }
}

/**
 * Index a whole file given as chunks (any iterable of byte arrays, e.g. one `Uint8Array`, or a
 * Node read loop's buffers) and return the finished indexer. For tests and the CLI; the worker
 * drives `JsonlIndexer` itself to report progress between chunks.
 */
export function indexJsonl(
  chunks: Iterable<Uint8Array>,
  options: JsonlIndexerOptions,
): JsonlIndexer {
  const indexer = new JsonlIndexer(options);
  for (const chunk of chunks) indexer.push(chunk);
  indexer.finish();
  return indexer;
}
