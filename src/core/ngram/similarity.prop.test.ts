/**
 * The fast exact similarity (bitsets over a verified n-gram dictionary) must equal the naive
 * Set<string> definition to the bit, for any text: unicode, astral code points, case, surrounding
 * whitespace, empty and short texts, and groups big enough to grow the dictionary or to switch to
 * the sorted-id path. Golden vectors live in ngram.test.ts.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { randomMulberry32 } from "../util/random.ts";
import { ngramJaccard, ngramSet, ngramSimilarityNaive } from "./ngrams.ts";
import { ngramSimilarity } from "./similarity.ts";

/** Letters in both cases, accented and astral ones (emoji, math letters): many shared n-grams. */
const smallAlphabet = fc.constantFrom(
  "a",
  "b",
  "A",
  "B",
  " ",
  "é",
  "É",
  "ß",
  "İ",
  "\u{1F600}",
  "\u{1D538}",
  "\u{10400}",
  "\u{1F44D}\u{1F3FD}",
);
const whitespace = fc.string({
  unit: fc.constantFrom(" ", "\t", "\n", "\u00A0", "\u3000"),
  maxLength: 3,
});
/** Lone surrogates are legal in JS strings; both methods must read each as one code point. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

const text = fc.oneof(
  fc.constant(""),
  fc.string({ unit: smallAlphabet, maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.string({ unit: fc.oneof(smallAlphabet, loneSurrogate), maxLength: 10 }),
  fc
    .tuple(whitespace, fc.string({ unit: smallAlphabet, maxLength: 8 }), whitespace)
    .map(([a, b, c]) => a + b + c),
);

/** Texts drawn partly from a shared pool, so groups contain duplicates and near-duplicates. */
const group = fc
  .array(text, { minLength: 1, maxLength: 4 })
  .chain((pool) => fc.array(fc.oneof(fc.constantFrom(...pool), text), { maxLength: 12 }));

const n = fc.integer({ min: 1, max: 6 });

/** similarity.ts's private sizes, restated so the big tests can check they really cross them. */
const INITIAL_SLOTS = 1 << 15;
const BITSET_WORD_LIMIT = 1 << 22;
/** The number of distinct n-grams of a group (the dictionary's size V). */
const vocabulary = (texts: readonly string[], size: number): number =>
  new Set(texts.flatMap((t) => [...ngramSet(t, size)])).size;

const expectSame = (fast: Float64Array, naive: Float64Array): void => {
  expect(fast.length).toBe(naive.length);
  for (let i = 0; i < naive.length; i++) {
    if (fast[i] !== naive[i]) expect.fail(`entry ${i}: exact ${fast[i]} !== naive ${naive[i]}`);
  }
};

describe("ngramSimilarity equals ngramSimilarityNaive exactly", () => {
  test.prop([group, n], { numRuns: 500 })(
    "random unicode groups of 0 to 12 texts",
    (texts, size) => {
      expectSame(ngramSimilarity(texts, size), ngramSimilarityNaive(texts, size));
    },
  );

  /**
   * 8 texts of 30k code points over ~5000 symbols give ~240k distinct trigrams, far past the
   * dictionary's initial 32K slots, so it rehashes several times.
   */
  const largeAlphabet = fc
    .integer({ min: 0x20, max: 0x20 + 5000 })
    .map((c) => String.fromCodePoint(c));
  test.prop(
    [
      fc.array(fc.string({ unit: largeAlphabet, minLength: 30_000, maxLength: 30_000 }), {
        minLength: 8,
        maxLength: 8,
      }),
      fc.integer({ min: 2, max: 4 }),
    ],
    { numRuns: 2 },
  )("8 texts of 30k chars: the dictionary rehashes", (texts, size) => {
    expect(vocabulary(texts, size)).toBeGreaterThan(INITIAL_SLOTS);
    expectSame(ngramSimilarity(texts, size), ngramSimilarityNaive(texts, size));
  });

  /**
   * Past 2^22 bitset words (k * V / 32) the exact method compares sorted id lists instead. 1000
   * texts of 210 code points (one of 20 shared 60-char stems each, so pairs overlap) cross that
   * limit. The naive all-pairs matrix takes ~3 s here, so a sample of pairs is checked against the
   * same definition (ngramJaccard of ngramSet) that ngramSimilarityNaive uses.
   */
  test.prop([fc.integer()], { numRuns: 1 })(
    "1000 texts: the sorted-id path, on sampled pairs",
    (seed) => {
      const rnd = randomMulberry32(seed);
      const glyph = () => String.fromCodePoint(0x4e00 + Math.floor(rnd() * 3000));
      const chars = (len: number) => Array.from({ length: len }, glyph).join("");
      const stems = Array.from({ length: 20 }, () => chars(60));
      const texts = Array.from({ length: 1000 }, (_, i) => stems[i % 20]! + chars(150));
      const k = texts.length;
      const fast = ngramSimilarity(texts, 3);
      const sets = texts.map((t) => ngramSet(t, 3));
      expect(k * Math.ceil(vocabulary(texts, 3) / 32)).toBeGreaterThan(BITSET_WORD_LIMIT);
      let overlapping = 0;
      for (let s = 0; s < 3000; s++) {
        const i = Math.floor(rnd() * k);
        // Half the samples pair texts with the same stem.
        const j = s % 2 === 0 ? (i + 20 * (1 + Math.floor(rnd() * 49))) % k : Math.floor(rnd() * k);
        const expected = i === j ? 1 : ngramJaccard(sets[i]!, sets[j]!);
        if (expected > 0 && i !== j) overlapping++;
        if (fast[i * k + j] !== expected)
          expect.fail(`(${i}, ${j}): exact ${fast[i * k + j]} !== ${expected}`);
      }
      expect(overlapping).toBeGreaterThan(1000);
    },
  );
});
