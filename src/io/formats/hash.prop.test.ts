import { createHash } from "node:crypto";

import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";

import { sha256Hex, shortHash } from "./hash.ts";

const nodeSha256 = (text: string): string =>
  createHash("sha256").update(text, "utf8").digest("hex");

describe("sha256Hex", () => {
  // Lengths around the 55/56/64-byte padding edges, long texts and every kind of code point
  // (lone surrogates encode as U+FFFD in both).
  test.prop([fc.string({ unit: "grapheme", maxLength: 300 })])("equals node:crypto's", (text) => {
    expect(sha256Hex(text)).toBe(nodeSha256(text));
  });
  test.prop([fc.string({ unit: "binary", maxLength: 200 })])(
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
});
