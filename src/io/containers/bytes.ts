/**
 * Byte-level splitting of JSONL and JSON arrays, so a file is never decoded whole: each record's
 * bytes are decoded on their own, with a guard against Chromium's silent "" for strings over
 * 512 Mi characters (performance.md section 4).
 */

/** Chromium returns "" (no error) when decoded text would exceed 536,870,888 chars; stay well under. */
export const MAX_DECODE_BYTES = 256 * 1024 * 1024;

/**
 * `ignoreBOM`: a U+FEFF at the start of a record is kept, so JSON.parse refuses it as the byte index
 * does. Only the file's own BOM is skipped, by byte offset (`bomLength`); the default decoder would
 * strip one at the start of every record and accept, say, a line from a file concatenated into the
 * middle of another that the large-file path rejects (found by fuzzing the two against each other).
 */
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

export type Decoded =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/** Decode one record's bytes, refusing sizes that cannot be decoded safely. */
export function decodeRecord(bytes: Uint8Array): Decoded {
  if (bytes.length > MAX_DECODE_BYTES) {
    return {
      ok: false,
      message: `the row is too large to decode (${bytes.length.toLocaleString("en-US")} bytes; the limit is ${MAX_DECODE_BYTES.toLocaleString("en-US")})`,
    };
  }
  return { ok: true, text: decoder.decode(bytes) };
}

/** Skip a UTF-8 byte-order mark. */
export function bomLength(bytes: Uint8Array): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

export interface ByteRecord {
  /** 1-based line of the record's first byte. */
  readonly line: number;
  readonly start: number;
  readonly end: number;
}

const isSpace = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** Number of lines in the bytes: newlines, plus one if the last line has no final newline. */
export function countLines(bytes: Uint8Array): number {
  let lines = 0;
  let at = bytes.indexOf(0x0a);
  let last = -1;
  while (at !== -1) {
    lines++;
    last = at;
    at = bytes.indexOf(0x0a, at + 1);
  }
  return last === bytes.length - 1 || bytes.length === bomLength(bytes) ? lines : lines + 1;
}

/**
 * Non-blank lines as byte ranges (a trailing CR is excluded), the count of blank lines, and the
 * count of all lines (what {@link countLines} gives, from the same pass over the bytes).
 */
export function splitJsonlBytes(
  bytes: Uint8Array,
  fileStart = true,
): {
  records: ByteRecord[];
  blank: number;
  lines: number;
} {
  const records: ByteRecord[] = [];
  let blank = 0;
  // Only the file's own first bytes can be its BOM; a slice from a later line keeps what it holds.
  let start = fileStart ? bomLength(bytes) : 0;
  let line = 1;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    const next = end === -1 ? bytes.length : end + 1;
    if (end === -1) end = bytes.length;
    let stop = end;
    if (stop > start && bytes[stop - 1] === 0x0d) stop--;
    let s = start;
    while (s < stop && isSpace(bytes[s]!)) s++;
    if (s === stop) blank++;
    else records.push({ line, start, end: stop });
    line++;
    start = next;
  }
  return { records, blank, lines: line - 1 };
}

/** True when the quote at `q` is escaped: an odd run of backslashes before it, after `open`. */
function escapedQuote(bytes: Uint8Array, q: number, open: number): boolean {
  let backslashes = 0;
  for (let b = q - 1; b > open && bytes[b] === 0x5c; b--) backslashes++;
  return backslashes % 2 === 1;
}

/** The parts as one array, in order. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export interface ByteArraySplit {
  readonly records: readonly ByteRecord[];
  /** Set when the array is malformed: unterminated, or junk after it. Elements before it are kept. */
  readonly error: { readonly line: number; readonly message: string } | null;
}

/**
 * Split a top-level JSON array into its elements' byte ranges without parsing them, so one bad
 * element costs one record, not the file. The caller has checked the first non-space byte is "[".
 */
export function splitJsonArrayBytes(bytes: Uint8Array): ByteArraySplit {
  const records: ByteRecord[] = [];
  let line = 1;
  let i = bomLength(bytes);
  for (; i < bytes.length && bytes[i] !== 0x5b; i++) if (bytes[i] === 0x0a) line++;
  i++;
  let depth = 0;
  let start = -1;
  let startLine = line;
  const close = (end: number): void => {
    if (start === -1) return;
    let e = end;
    while (e > start && isSpace(bytes[e - 1]!)) e--;
    records.push({ line: startLine, start, end: e });
    start = -1;
  };
  for (; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x0a) {
      line++;
      continue;
    }
    if (c === 0x22) {
      if (start === -1) {
        start = i;
        startLine = line;
      }
      // Jump to the closing quote: find the next quote not preceded by an odd run of backslashes.
      let j = i + 1;
      for (;;) {
        const q = bytes.indexOf(0x22, j);
        if (q === -1) {
          j = bytes.length;
          break;
        }
        if (!escapedQuote(bytes, q, i)) {
          j = q;
          break;
        }
        j = q + 1;
      }
      for (let k = i + 1; k < j; k++) if (bytes[k] === 0x0a) line++;
      i = j;
      continue;
    }
    if (depth === 0 && (c === 0x2c || c === 0x5d)) {
      close(i);
      if (c === 0x5d) {
        let k = i + 1;
        while (k < bytes.length && isSpace(bytes[k]!)) k++;
        return {
          records,
          error:
            k === bytes.length ? null : { line, message: "unexpected text after the closing ]" },
        };
      }
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    if (start === -1 && !isSpace(c)) {
      start = i;
      startLine = line;
    }
  }
  close(bytes.length);
  // The file's end is on its last line: a final newline does not start another one.
  const last = bytes.length > 0 && bytes[bytes.length - 1] === 0x0a ? line - 1 : line;
  return {
    records,
    error: {
      line: Math.max(1, last),
      message: "the JSON array is not closed: the file ends early (truncated?)",
    },
  };
}

/** The first non-whitespace byte after any BOM, or -1. */
export function firstByte(bytes: Uint8Array): number {
  for (let i = bomLength(bytes); i < bytes.length; i++) if (!isSpace(bytes[i]!)) return bytes[i]!;
  return -1;
}

/** How much of a file's head `looksBinary` judges. */
const BINARY_SAMPLE_BYTES = 64 * 1024;

/**
 * True when the bytes are mostly not text: over a tenth of the first 64 KB are control bytes (NUL
 * and the other C0 codes a text file never holds) or bytes of no valid UTF-8 sequence. Compressed
 * and image data are around half; a text file with one stray NUL or a few Latin-1 bytes is far
 * below, and loads with only the lines that hold them rejected.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, BINARY_SAMPLE_BYTES);
  if (head.length === 0) return false;
  let odd = 0;
  for (let i = 0; i < head.length;) {
    const b = head[i]!;
    if (b < 0x80) {
      if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d && b !== 0x1b) odd++;
      i++;
      continue;
    }
    const need =
      b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    let ok = need > 0;
    for (let k = 1; ok && k <= need; k++) {
      const c = head[i + k];
      // A sequence cut by the end of the sample is not held against the file.
      if (c === undefined) break;
      ok = (c & 0xc0) === 0x80;
    }
    if (ok) i += need + 1;
    else {
      odd++;
      i++;
    }
  }
  return odd * 10 > head.length;
}

export type Utf16 = "utf-16le" | "utf-16be";

/** The UTF-16 encoding its byte-order mark names, or null. */
export function utf16Bom(bytes: Uint8Array): Utf16 | null {
  if (bytes.length < 2) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}

/**
 * UTF-16 text without a byte-order mark, guessed from its NULs: ASCII text in UTF-16 has a NUL in
 * every other byte (the high byte of each character), at even offsets for BE and odd ones for LE.
 */
export function looksUtf16WithoutBom(bytes: Uint8Array): Utf16 | null {
  const head = bytes.subarray(0, 4096 - (Math.min(bytes.length, 4096) % 2));
  const pairs = Math.floor(head.length / 2);
  if (pairs < 2) return null;
  let even = 0;
  let odd = 0;
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0 && head[i + 1] !== 0) even++;
    if (head[i + 1] === 0 && head[i] !== 0) odd++;
  }
  if (odd * 10 >= pairs * 9) return "utf-16le";
  if (even * 10 >= pairs * 9) return "utf-16be";
  return null;
}

/**
 * UTF-16 text (after its byte-order mark) as UTF-8 bytes, so every later step reads it as it reads
 * any file. Unpaired surrogates become U+FFFD, as a browser shows them.
 */
export function utf16ToUtf8(bytes: Uint8Array, encoding: Utf16): Uint8Array {
  return new TextEncoder().encode(new TextDecoder(encoding).decode(bytes.subarray(2)));
}

/** Where the file's text starts: the first byte of the line holding its first non-space byte. */
export function textLineStart(bytes: Uint8Array): number {
  const from = bomLength(bytes);
  for (let i = from; i < bytes.length; i++) {
    if (isSpace(bytes[i]!)) continue;
    const newline = bytes.lastIndexOf(0x0a, i);
    return newline >= from ? newline + 1 : from;
  }
  return -1;
}

/**
 * The extent of the top-level JSON value starting at `start` (a "{" or "["), from its brackets and
 * strings alone: `closed` with the end (exclusive) and whether a newline falls inside it; `open`
 * when the bytes end inside it; `broken` when it cannot be one JSON value (a string running past
 * its line, a bracket closing the wrong kind). Never parses: it runs at indexOf speed over strings.
 */
export type ValueExtent =
  | { readonly state: "closed"; readonly end: number; readonly multiline: boolean }
  | { readonly state: "open" | "broken" };

export function topValueExtent(bytes: Uint8Array, start: number): ValueExtent {
  const stack: number[] = [];
  let multiline = false;
  for (let i = start; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x22) {
      let j = i + 1;
      for (;;) {
        const q = bytes.indexOf(0x22, j);
        // JSON strings hold no raw newline: one before the closing quote is a cut line. (Searched
        // only up to the quote, so a long one-line document is scanned once, not once per string.)
        if (q === -1) return bytes.includes(0x0a, j) ? { state: "broken" } : { state: "open" };
        if (bytes.subarray(j, q).includes(0x0a)) return { state: "broken" };
        if (!escapedQuote(bytes, q, i)) {
          i = q;
          break;
        }
        j = q + 1;
      }
      continue;
    }
    if (c === 0x0a) multiline = true;
    else if (c === 0x7b || c === 0x5b) stack.push(c === 0x7b ? 0x7d : 0x5d);
    else if (c === 0x7d || c === 0x5d) {
      if (stack.pop() !== c) return { state: "broken" };
      if (stack.length === 0) return { state: "closed", end: i + 1, multiline };
    }
  }
  return { state: "open" };
}

/** True when every byte from `from` on is whitespace. */
export function onlySpaceFrom(bytes: Uint8Array, from: number): boolean {
  for (let i = from; i < bytes.length; i++) if (!isSpace(bytes[i]!)) return false;
  return true;
}
