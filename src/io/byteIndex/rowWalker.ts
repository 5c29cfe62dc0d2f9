/**
 * The JSONL index's walk of one line: the top-level object's grammar, the wanted keys' values
 * decoded as `JSON.parse` would (an interned key's repeated value compared as bytes first), the
 * rest skipped by bracket matching and `findByte`. jsonlIndexer.ts cuts the file into lines and
 * calls `line` for each; rowStore.ts holds what it finds.
 */

import {
  BACKSLASH,
  closingQuote,
  COLON,
  COMMA,
  CR,
  decodeString,
  findByte,
  fnv1a,
  isDigit,
  LBRACE,
  LBRACKET,
  literalAt,
  numberEnd,
  numberValue,
  PYTHON_TOKENS,
  pythonTokenAt,
  QUOTE,
  RBRACE,
  sameShort,
  sameWords,
  skipSpace,
  wordsOver,
} from "./jsonTokens.ts";
import {
  JSONL_DEFAULT_MAX_LINE_BYTES,
  JSONL_DEFAULT_MAX_PARSE_BYTES,
  JsonlBadReason,
  JsonlTag,
  type JsonlIndexerOptions,
} from "./jsonlTypes.ts";
import { JsonlRowStore } from "./rowStore.ts";
import { decodeUtf8 } from "./utf8.ts";

/**
 * Hard cap on `maxLineBytes`: a line in progress is copied into one growable carry buffer, and
 * typed arrays past 2 GiB are not portable across engines.
 */
const MAX_LINE_BYTES_CAP = 2 ** 31 - 16;

/**
 * Strings up to this many bytes are unescaped in JS; longer ones by `JSON.parse` of their JSON
 * text, which is native. Either is remembered as an interned key's last value (`Column.lastBytes`).
 */
const SHORT_STRING = 32;
/** Longest string remembered as a key's last value. */
const LAST_MAX_BYTES = 64 * 1024;

/** Walks lines into a row store; `JsonlIndexer` feeds it the file's lines. */
export class JsonlRowWalker extends JsonlRowStore {
  protected readonly maxLineBytes: number;
  private readonly maxParseBytes: number;
  private stack = new Uint8Array(256);
  private viewBuf: Uint8Array | null = null;
  private view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  /** `wordsOver` of `wordsBuf`, the buffer last walked: the word view `findByte` scans with. */
  private wordsBuf: Uint8Array | null = null;
  private words: Int32Array | null = null;
  /** The buffer `nulWithin` last searched, from where, and its next NUL there (-1: none). */
  private nulBuf: Uint8Array | null = null;
  private nulFrom = 0;
  private nulAt = -1;
  /** Per key, table sizes before the current line, to drop what a line that turns out bad added. */
  private readonly stringMarks: Int32Array;
  private readonly parsedMarks: Int32Array;

  constructor(options: JsonlIndexerOptions) {
    super(options);
    this.stringMarks = new Int32Array(this.columns.length);
    this.parsedMarks = new Int32Array(this.columns.length);
    this.maxLineBytes = Math.max(
      0,
      Math.min(options.maxLineBytes ?? JSONL_DEFAULT_MAX_LINE_BYTES, MAX_LINE_BYTES_CAP),
    );
    this.maxParseBytes = options.maxParseBytes ?? JSONL_DEFAULT_MAX_PARSE_BYTES;
  }

  /**
   * Forget the buffer last searched for NULs: a reused buffer (BYOB, or the carry) may hold other
   * bytes by the next call.
   */
  protected forgetBuffer(): void {
    this.nulBuf = null;
  }

  /** At the end of the file: drop the walk's scratch buffers and views. */
  protected releaseWalk(): void {
    this.stack = new Uint8Array(0);
    this.wordsBuf = this.words = this.viewBuf = null;
    this.nulBuf = null;
  }

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

  protected wordsOf(buf: Uint8Array): Int32Array | null {
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

  /** One complete line: bytes [start, end) of `buf` (no LF), starting at file offset `offset`. */
  protected line(buf: Uint8Array, start: number, end: number, offset: number): void {
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
}
