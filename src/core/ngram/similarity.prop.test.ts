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
import { ngramSimilarity, ngramSimilarityByIds, ngramSimilarityOfSymbols } from "./similarity.ts";

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
   * 8 texts of 30k code points over ~5000 symbols give ~240k distinct trigrams, far past the mask
   * table's initial 4K slots (and the ids' dictionary's 32K), so it grows several times.
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
  )("8 texts of 30k chars: the tables grow", (texts, size) => {
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

/**
 * The reference of ngramSimilarityOfSymbols, by its definition: each sequence's set of windows of n
 * symbols (the whole sequence when shorter, nothing when empty), as strings, and their Jaccard.
 */
function symbolSimilarityNaive(all: Int32Array, starts: Int32Array, size: number): Float64Array {
  const k = starts.length - 1;
  const sets = Array.from({ length: k }, (_, t) => {
    const symbols = [...all.subarray(starts[t], starts[t + 1])];
    const out = new Set<string>();
    if (symbols.length > 0 && symbols.length < size) out.add(symbols.join(","));
    for (let p = 0; p + size <= symbols.length; p++) out.add(symbols.slice(p, p + size).join(","));
    return out;
  });
  const out = new Float64Array(k * k);
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) out[i * k + j] = i === j ? 1 : ngramJaccard(sets[i]!, sets[j]!);
  return out;
}

/** Sequences as the similarity takes them: one buffer and each sequence's start. */
function symbolBuffer(sequences: readonly (readonly number[])[]): {
  all: Int32Array;
  starts: Int32Array;
} {
  const starts = new Int32Array(sequences.length + 1);
  sequences.forEach((s, t) => (starts[t + 1] = starts[t]! + s.length));
  return { all: Int32Array.from(sequences.flat()), starts };
}

/**
 * Sequences of symbols below 2^bits, mostly from a few shared symbols (so n-grams repeat across
 * sequences), for widths on both sides of each path: n * bits <= 32 (one-word keys), <= 64 (two),
 * and past 64 (the ids' dictionary).
 */
const symbolGroup = (maxTexts: number, maxLength: number) =>
  fc.integer({ min: 1, max: 31 }).chain((bits) => {
    const top = 2 ** bits - 1;
    const symbol = fc.oneof(
      fc.constantFrom(0, 1, top, top >>> 1),
      fc.integer({ min: 0, max: top }),
    );
    return fc.array(fc.array(symbol, { maxLength }), { minLength: 1, maxLength: 3 }).chain((pool) =>
      fc.array(
        fc.oneof(
          fc.constantFrom(...pool),
          fc.array(symbol, { maxLength }),
          // A pooled sequence cut or extended: shares some of its n-grams.
          fc
            .tuple(fc.constantFrom(...pool), fc.array(symbol, { maxLength: 3 }))
            .map(([a, b]) => [...a.slice(b.length), ...b]),
        ),
        { maxLength: maxTexts },
      ),
    );
  });

describe("ngramSimilarityOfSymbols (the mask table) equals the ids' bitsets and the definition", () => {
  test.prop([symbolGroup(12, 12), fc.integer({ min: 1, max: 9 })], { numRuns: 1000 })(
    "0 to 12 sequences, any width and n",
    (sequences, size) => {
      const { all, starts } = symbolBuffer(sequences);
      const fast = ngramSimilarityOfSymbols(all, starts, size);
      expectSame(fast, ngramSimilarityByIds(all, starts, size));
      expectSame(fast, symbolSimilarityNaive(all, starts, size));
    },
  );

  test.prop([symbolGroup(40, 6), fc.integer({ min: 1, max: 4 })], { numRuns: 200 })(
    "up to 40 sequences: masks by value (up to 10), one by one (up to 32), ids past 32",
    (sequences, size) => {
      const { all, starts } = symbolBuffer(sequences);
      const fast = ngramSimilarityOfSymbols(all, starts, size);
      expectSame(fast, ngramSimilarityByIds(all, starts, size));
      expectSame(fast, symbolSimilarityNaive(all, starts, size));
    },
  );

  /** 3,000 distinct n-grams per sequence: the table grows from its first 4K slots, several times. */
  test.prop(
    [
      fc.integer({ min: 1, max: 32 }),
      fc.constantFrom(1, 2, 3, 5),
      fc.integer({ min: 12, max: 20 }),
      fc.integer(),
    ],
    { numRuns: 12 },
  )("large groups: the table grows", (k, size, bits, seed) => {
    const rnd = randomMulberry32(seed);
    const stem = Array.from({ length: 2000 }, () => Math.floor(rnd() * 2 ** bits));
    const sequences = Array.from({ length: k }, () => [
      ...stem.slice(Math.floor(rnd() * 1000)),
      ...Array.from({ length: 3000 }, () => Math.floor(rnd() * 2 ** bits)),
    ]);
    const { all, starts } = symbolBuffer(sequences);
    const fast = ngramSimilarityOfSymbols(all, starts, size);
    expectSame(fast, ngramSimilarityByIds(all, starts, size));
    if (k <= 4) expectSame(fast, symbolSimilarityNaive(all, starts, size));
  });
});

/**
 * The texts' symbols: ASCII lowercased and trimmed in place, other texts through ngramClean, every
 * code point past ASCII renumbered from 128. Equal to the definition for mixes of ASCII (every
 * case, JavaScript's ASCII whitespace at both ends and inside, control characters) and code points
 * that lowercase to ASCII or to more than one code point, or trim away.
 */
describe("ngramSimilarity's symbols", () => {
  const unit = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom("a", "B", "z", "Z", "@", "[", "`", "{", "0") },
    { weight: 3, arbitrary: fc.constantFrom(" ", "\t", "\n", "\v", "\f", "\r", "\x1c", "\x00") },
    {
      weight: 2,
      arbitrary: fc.constantFrom("\u00A0", "\u3000", "\uFEFF", "\u212A", "\u0130", "\u03A3", "é"),
    },
    { weight: 1, arbitrary: fc.constantFrom("\u{1F600}", "\uD800", "\u{10400}") },
  );
  const asciiText = fc.string({
    unit: fc.constantFrom("a", "B", "z", "Z", " ", "\t", "\v", "\r", "\n"),
    maxLength: 16,
  });
  const mixed = fc.oneof(fc.string({ unit, maxLength: 16 }), asciiText);
  test.prop(
    [
      fc
        .array(mixed, { minLength: 1, maxLength: 3 })
        .chain((pool) => fc.array(fc.oneof(fc.constantFrom(...pool), mixed), { maxLength: 40 })),
      fc.integer({ min: 1, max: 9 }),
    ],
    { numRuns: 500 },
  )("ASCII and other texts, 0 to 40 of them, n up to 9", (texts, size) => {
    expectSame(ngramSimilarity(texts, size), ngramSimilarityNaive(texts, size));
  });

  /**
   * "İ" lowercases to two code points: texts of them outgrow the buffer sized by their lengths,
   * whether it is the shared one (up to 1M symbols) or one of their own (past it).
   */
  test("texts that lengthen when lowercased, on both sides of the shared buffer's size", () => {
    for (const length of [1_000, 3_000, 5_000, 9_000, 40_000, 600_000]) {
      // The ASCII text after one that lengthened needs the room that one took.
      for (const texts of [
        ["İ".repeat(length), "ix".repeat(length / 2)],
        ["İx".repeat(length / 2), "x".repeat(length), "İ".repeat(length), "ab"],
      ])
        for (const size of [1, 3])
          expectSame(ngramSimilarity(texts, size), ngramSimilarityNaive(texts, size));
    }
  });
});
