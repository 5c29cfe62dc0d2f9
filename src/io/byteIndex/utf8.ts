/**
 * UTF-8 bytes to a string, the same string `new TextDecoder("utf-8", { ignoreBOM: true })` gives
 * (WHATWG decoding: each maximal invalid subpart becomes one U+FFFD; a leading U+FEFF is kept,
 * since a value may legitimately start with one; the file's own BOM is handled by byte offset).
 *
 * Why not always `TextDecoder`: in Chromium every `decode` call that returns a new string costs
 * 2-9 µs (Blink makes the string and hands it to V8), whatever its length up to about 1 KB, while
 * `String.fromCharCode` over the same bytes costs 0.2-1 µs below 256 bytes and 3.8 µs at 1,000.
 * The indexer decodes two or three short strings per row (ids, group ids), which made `decode`
 * 26% of a small-row load in the worker (1.7 s of 6.4 s for 500 MB). In Node `decode` costs
 * 0.1-0.2 µs at any of these lengths, while `fromCharCode` grows to ~3 µs at 1 KB, so the
 * cut-over to the native decoder depends on the runtime: past 32 bytes in Node (agent transcripts
 * indexed at 550 MB/s against 400 with 1 KB), past 1 KB elsewhere.
 */

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Whether this is Node, whose `TextDecoder` answers short inputs in about 0.1 µs. */
const NODE =
  typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node ===
  "string";

/** Longest byte range `decodeUtf8Js` takes (`fromCharCode.apply` gets one argument per byte). */
export const JS_DECODE_LIMIT = 1024;
/** Longest byte range `decodeUtf8` decodes in JS; longer ranges go to `TextDecoder`. */
export const JS_DECODE_MAX = NODE ? 32 : JS_DECODE_LIMIT;

/**
 * Reused code-unit buffer for the non-ASCII path. It never holds more than `JS_DECODE_LIMIT` units
 * (one per byte at most), well under any engine's limit on `apply`'s arguments.
 */
const units: number[] = [];

/** WHATWG's UTF-8 decoder over [start, end), in JS. */
function decodeSlow(buf: Uint8Array, start: number, end: number): string {
  let n = 0;
  let needed = 0;
  let seen = 0;
  let point = 0;
  let lower = 0x80;
  let upper = 0xbf;
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    if (needed === 0) {
      if (b <= 0x7f) units[n++] = b;
      else if (b >= 0xc2 && b <= 0xdf) {
        needed = 1;
        point = b & 0x1f;
      } else if (b >= 0xe0 && b <= 0xef) {
        if (b === 0xe0) lower = 0xa0;
        else if (b === 0xed) upper = 0x9f;
        needed = 2;
        point = b & 0x0f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        if (b === 0xf0) lower = 0x90;
        else if (b === 0xf4) upper = 0x8f;
        needed = 3;
        point = b & 0x07;
      } else units[n++] = 0xfffd;
      continue;
    }
    if (b < lower || b > upper) {
      // The sequence so far is one maximal subpart: one U+FFFD, and this byte starts afresh.
      needed = seen = point = 0;
      lower = 0x80;
      upper = 0xbf;
      units[n++] = 0xfffd;
      i--;
      continue;
    }
    lower = 0x80;
    upper = 0xbf;
    point = (point << 6) | (b & 0x3f);
    if (++seen !== needed) continue;
    if (point > 0xffff) {
      point -= 0x10000;
      units[n++] = 0xd800 | (point >> 10);
      units[n++] = 0xdc00 | (point & 0x3ff);
    } else units[n++] = point;
    needed = seen = point = 0;
  }
  if (needed !== 0) units[n++] = 0xfffd;
  units.length = n;
  return String.fromCharCode.apply(null, units);
}

/** The bytes [start, end) of `buf` decoded as UTF-8, exactly as `TextDecoder` (ignoreBOM) would. */
export function decodeUtf8(buf: Uint8Array, start: number, end: number): string {
  if (end - start > JS_DECODE_MAX) return decoder.decode(buf.subarray(start, end));
  return decodeUtf8Js(buf, start, end);
}

/** `decodeUtf8` in JS, for ranges of at most `JS_DECODE_LIMIT` bytes. */
export function decodeUtf8Js(buf: Uint8Array, start: number, end: number): string {
  let i = start;
  while (i < end && buf[i]! < 0x80) i++;
  if (i === end) {
    // One call gives a flat string; `+=` past 12 characters would build cons-string chains, which
    // doubled the bytes an interned id kept.
    return String.fromCharCode.apply(null, buf.subarray(start, end) as unknown as number[]);
  }
  return decodeSlow(buf, start, end);
}
