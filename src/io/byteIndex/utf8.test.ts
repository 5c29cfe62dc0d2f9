import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeUtf8, decodeUtf8Js, JS_DECODE_LIMIT, JS_DECODE_MAX } from "./utf8";

const reference = new TextDecoder("utf-8", { ignoreBOM: true });
const encoder = new TextEncoder();

/** Bytes that stress the decoder: valid text, lone continuation and lead bytes, cut sequences. */
const awkwardBytes = fc
  .array(
    fc.oneof(
      fc.string({ unit: "binary", maxLength: 12 }).map((s) => Array.from(encoder.encode(s))),
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 6 }),
      fc.array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 4 }),
      fc.constantFrom(
        [0xef, 0xbb, 0xbf],
        [0xed, 0xa0, 0x80],
        [0xf4, 0x90, 0x80, 0x80],
        [0xe0, 0x80],
        [0xf0, 0x9f, 0x98],
      ),
    ),
    { maxLength: 40 },
  )
  .map((parts) => Uint8Array.from(parts.flat()));

describe("decodeUtf8", () => {
  it("decodes ASCII, multi-byte text, surrogate pairs and a kept BOM like TextDecoder", () => {
    for (const text of [
      "",
      "s-0000000/0",
      "héllo wörld",
      "日本語",
      "😀 x 😀",
      "\uFEFFbom",
      "a\u0000b",
    ]) {
      const bytes = encoder.encode(text);
      expect(decodeUtf8(bytes, 0, bytes.length)).toBe(text);
      expect(decodeUtf8Js(bytes, 0, bytes.length)).toBe(text);
    }
  });

  it("replaces each maximal invalid subpart with one U+FFFD", () => {
    const cases: [number[], string][] = [
      [[0x80], "\uFFFD"],
      [[0xc0, 0x80], "\uFFFD\uFFFD"],
      [[0xe0, 0x80, 0x80], "\uFFFD\uFFFD\uFFFD"],
      [[0xe2, 0x82], "\uFFFD"],
      [[0xe2, 0x82, 0x41], "\uFFFDA"],
      [[0xed, 0xa0, 0x80], "\uFFFD\uFFFD\uFFFD"],
      [[0xf0, 0x9f, 0x98], "\uFFFD"],
      [[0xf4, 0x90, 0x80, 0x80], "\uFFFD\uFFFD\uFFFD\uFFFD"],
      [[0xff, 0x41], "\uFFFDA"],
    ];
    for (const [bytes, want] of cases) {
      const u = Uint8Array.from(bytes);
      expect(decodeUtf8(u, 0, u.length)).toBe(want);
      expect(decodeUtf8Js(u, 0, u.length)).toBe(want);
      expect(reference.decode(u)).toBe(want);
    }
  });

  it("equals TextDecoder on any bytes and any range of them, in JS or not (fast-check)", () => {
    fc.assert(
      fc.property(awkwardBytes, fc.nat(), fc.nat(), (bytes, a, b) => {
        const start = bytes.length === 0 ? 0 : a % (bytes.length + 1);
        const end = start + (bytes.length === 0 ? 0 : b % (bytes.length - start + 1));
        const want = reference.decode(bytes.subarray(start, end));
        expect(decodeUtf8(bytes, start, end)).toBe(want);
        const jsEnd = Math.min(end, start + JS_DECODE_LIMIT);
        expect(decodeUtf8Js(bytes, start, jsEnd)).toBe(
          reference.decode(bytes.subarray(start, jsEnd)),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("equals TextDecoder on either side of the JS cut-over", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: JS_DECODE_MAX - 8, max: JS_DECODE_MAX + 8 }),
        fc.string({ unit: "binary", maxLength: 4 }),
        (length, tail) => {
          const bytes = encoder.encode("x".repeat(length) + tail);
          expect(decodeUtf8(bytes, 0, bytes.length)).toBe(reference.decode(bytes));
          const cut = Math.max(0, bytes.length - 2);
          expect(decodeUtf8(bytes, 1, cut)).toBe(reference.decode(bytes.subarray(1, cut)));
          const js = encoder.encode("x".repeat(Math.min(length, JS_DECODE_LIMIT - 16)) + tail);
          expect(decodeUtf8Js(js, 0, js.length)).toBe(reference.decode(js));
        },
      ),
      { numRuns: 300 },
    );
  });
});
