/**
 * The JSONL byte index's public types: options, value tags, bad-line reasons and the snapshot a
 * worker posts (jsonlIndexer.ts builds them; rowStore.ts holds them).
 */

/** Lines longer than this (bytes, excluding the line break) are indexed but never held or decoded. */
export const JSONL_DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

/**
 * Object/array values up to this many bytes are `JSON.parse`d in "parse" mode; larger ones are
 * hashed instead, because a parsed copy of a big nested value would defeat the point of an index
 * (and V8 allocates strings of 128 KB or more in the slow large-object space, performance.md §1).
 */
export const JSONL_DEFAULT_MAX_PARSE_BYTES = 64 * 1024;

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
