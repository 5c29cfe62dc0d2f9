/**
 * The JSONL index's row storage: per row its byte offset, length, line and bad reason, and per
 * wanted key a tag and a float64 payload (a number, an interned string's id, a hash or a parsed
 * value's index), in typed arrays that double as rows arrive (jsonlIndexer.ts fills them). The
 * accessors and `snapshot` read them back.
 */

import { FirstClaims } from "./firstClaims.ts";
import { BACKSLASH, encoder, QUOTE } from "./jsonTokens.ts";
import {
  JsonlBadReason,
  JsonlTag,
  type JsonlCompositeMode,
  type JsonlFieldValue,
  type JsonlIndexerOptions,
  type JsonlIndexRow,
  type JsonlIndexSnapshot,
  type JsonlRowStatus,
} from "./jsonlTypes.ts";

/** A length of 2^32 - 1 or more: the row's real length is in `longLengths`. */
const LONG_LENGTH = 0xffffffff;

/** One wanted key's values, row by row, and what its strings need for interning. */
export interface Column {
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
 * The typed tables of an index, without the walk that fills them: `JsonlIndexer` extends it with
 * `push` and `finish`. Memory: per row 8 (offset) + 4 (length) + 4 (line) + 1 (reason) bytes,
 * plus 9 per key.
 */
export class JsonlRowStore {
  /** The configured keys, in the order `values` and key indexes use. */
  readonly keys: readonly string[];
  protected readonly columns: Column[];

  protected capacity: number;
  protected n = 0;
  protected offsets: Float64Array;
  protected lengths: Uint32Array;
  protected lines: Uint32Array;
  protected reasons: Uint8Array;
  protected readonly longLengths = new Map<number, number>();
  /** File offset of the next chunk's first byte (equals the bytes pushed so far). */
  protected base = 0;
  protected lineNumber = 0;
  protected blank = 0;
  protected bad = 0;
  protected tooLarge = 0;

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

  /** Index of a configured key by name, or -1. */
  keyIndex(name: string): number {
    return this.keys.indexOf(name);
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

  protected grow(): void {
    this.resize(Math.max(16, this.capacity * 2));
  }

  /** Reallocate every column to `capacity` rows (doubling while indexing, exact at the end). */
  protected resize(capacity: number): void {
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

  protected addRow(offset: number, length: number, reason: number): number {
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

  protected storeString(col: Column, row: number, s: string, tag: JsonlTag): void {
    let id: number;
    if (col.ids !== null) {
      id = col.ids.claim(s, col.strings.length);
      if (id === col.strings.length) col.strings.push(s);
    } else id = col.strings.push(s) - 1;
    col.tags[row] = tag;
    col.nums[row] = id;
  }
}
