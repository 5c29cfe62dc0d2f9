import { createHash } from "node:crypto";

import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";

import { encodeUtf8Into, sha256Hex, shortHash } from "./hash.ts";

const nodeSha256 = (text: string): string =>
  createHash("sha256").update(text, "utf8").digest("hex");

/**
 * Any UTF-16 code units, each width of UTF-8 and the surrogates (paired or not) well represented:
 * `fc.string`'s units never give a lone surrogate.
 */
const utf16 = (maxLength: number, minLength = 0) =>
  fc
    .array(
      fc.oneof(
        fc.integer({ min: 0, max: 0x7f }),
        fc.integer({ min: 0x80, max: 0x7ff }),
        fc.integer({ min: 0x800, max: 0xffff }),
        fc.integer({ min: 0xd800, max: 0xdbff }),
        fc.integer({ min: 0xdc00, max: 0xdfff }),
      ),
      { minLength, maxLength },
    )
    .map((units) => String.fromCharCode(...units));

describe("encodeUtf8Into", () => {
  test.prop([utf16(300)])(
    "writes TextEncoder's bytes for any UTF-16, lone surrogates included",
    (text) => {
      const out = new Uint8Array(text.length * 3);
      const n = encodeUtf8Into(text, out);
      expect([...out.subarray(0, n)]).toEqual([...new TextEncoder().encode(text)]);
    },
  );
});

describe("sha256Hex", () => {
  // Lengths around the 55/56/64-byte padding edges, long texts and every kind of code point
  // (lone surrogates encode as U+FFFD in both).
  test.prop([fc.string({ unit: "grapheme", maxLength: 300 })])("equals node:crypto's", (text) => {
    expect(sha256Hex(text)).toBe(nodeSha256(text));
  });
  test.prop([utf16(200)])(
    "equals node:crypto's on any UTF-16, lone surrogates included",
    (text) => {
      expect(sha256Hex(text)).toBe(nodeSha256(text));
    },
  );
  test.prop([fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 3000 })])(
    "equals node:crypto's at every padding edge and after a longer text",
    (short, long) => {
      // A long text first grows the reused buffer; the short one after it must not see its bytes.
      expect(sha256Hex("é".repeat(long))).toBe(nodeSha256("é".repeat(long)));
      expect(sha256Hex("a".repeat(short))).toBe(nodeSha256("a".repeat(short)));
      expect(shortHash("x".repeat(short))).toBe(nodeSha256("x".repeat(short)).slice(0, 12));
    },
  );
  test.prop([utf16(5000, 4000)], { numRuns: 20 })(
    "equals node:crypto's either side of the JS encoder's 4,096-unit limit",
    (text) => {
      expect(sha256Hex(text)).toBe(nodeSha256(text));
    },
  );
});
