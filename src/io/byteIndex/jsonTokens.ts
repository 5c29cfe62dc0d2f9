/**
 * The byte tokenizer of the JSONL index: finding a byte (four at a time), closing quotes, numbers,
 * literals, Python's bare tokens and string unescaping, over a `Uint8Array` with no decoding of
 * what is skipped. Pure functions; jsonlIndexer.ts walks lines with them.
 */

import { JsonlBadReason, JsonlTag } from "./jsonlTypes.ts";
import { decodeUtf8 } from "./utf8.ts";

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;
export const LBRACKET = 0x5b;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const CR = 0x0d;
export const LF = 0x0a;

export const encoder = new TextEncoder();

/** JSON whitespace that can occur inside a line (LF ends the line). */
function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === CR;
}

export function skipSpace(buf: Uint8Array, i: number, end: number): number {
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
export function closingQuote(
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
export function sameShort(a: Uint8Array, start: number, b: Uint8Array, length: number): boolean {
  for (let k = 0; k < length; k++) if (a[start + k] !== b[k]) return false;
  return true;
}

/** Whether `a`'s bytes from `start` equal `b`'s first `length` bytes, compared 4 at a time. */
export function sameWords(
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

export function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

/** End of the JSON number starting at `i`, or -InvalidValue. Grammar only; the caller checks what follows. */
export function numberEnd(buf: Uint8Array, i: number, end: number): number {
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
export function numberValue(buf: Uint8Array, start: number, end: number): number {
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
export function literalAt(buf: Uint8Array, i: number, end: number): number {
  const b = buf[i];
  const entry =
    b === 0x74 ? LITERALS[0]! : b === 0x66 ? LITERALS[1]! : b === 0x6e ? LITERALS[2]! : null;
  if (entry === null) return -1;
  const [word, tag] = entry;
  if (i + word.length > end) return -1;
  for (let k = 1; k < word.length; k++) if (buf[i + k] !== word[k]) return -1;
  return tag;
}

export const PYTHON_TOKENS: readonly (readonly [Uint8Array, string])[] = [
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
export function pythonTokenAt(buf: Uint8Array, i: number, end: number): number {
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
export function decodeString(buf: Uint8Array, start: number, end: number): string | null {
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
export function fnv1a(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
  return h >>> 0;
}
