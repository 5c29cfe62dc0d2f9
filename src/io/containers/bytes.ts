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
export function splitJsonlBytes(bytes: Uint8Array): {
  records: ByteRecord[];
  blank: number;
  lines: number;
} {
  const records: ByteRecord[] = [];
  let blank = 0;
  let start = bomLength(bytes);
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
        let backslashes = 0;
        for (let b = q - 1; b > i && bytes[b] === 0x5c; b--) backslashes++;
        if (backslashes % 2 === 0) {
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

/** True when the bytes look binary: a NUL in the first 8 KB (no text format here contains one). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}
