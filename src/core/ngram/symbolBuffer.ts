/**
 * symbolBuffer: a group's texts as one buffer of narrow symbols (each distinct code point numbered
 * from 0), what both exact similarity paths (./similarityByMasks.ts, ./similarityByIds.ts) read.
 */
import { ngramClean } from "./ngrams.ts";

/** Up to this many symbols (4 MB), symbolBuffer fills one buffer shared by the calls. */
const SHARED_SYMBOLS = 1 << 20;
/**
 * symbolBuffer's buffer: a new one per group (40 KB for 8 texts of 1,200 characters) was
 * allocated, zeroed and collected for nothing, as external memory that brings GCs nearer.
 */
let sharedSymbols = new Int32Array(1 << 12);

/** A buffer of at least `size` symbols: the shared one (grown if needed) up to SHARED_SYMBOLS. */
function symbolsFor(size: number): Int32Array {
  if (size > SHARED_SYMBOLS) return new Int32Array(size);
  if (sharedSymbols.length < size)
    sharedSymbols = new Int32Array(
      Math.min(SHARED_SYMBOLS, Math.max(size, sharedSymbols.length * 2)),
    );
  return sharedSymbols;
}

/** JavaScript's `trim` whitespace below U+0080: tab, line feed, vertical tab, form feed, CR, space. */
function asciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Each ASCII code point's symbol in the current symbolBuffer call, -1 until met. */
const asciiSymbols = new Int32Array(0x80);

/**
 * Every text's cleaned code points (ngramClean) in one buffer, text t spanning
 * starts[t]..starts[t+1], as symbols: each distinct code point is the next free number from 0 in
 * the order met. Equal n-grams stay equal and different ones different, so every Jaccard is the
 * code points' own, while the symbols stay narrow (the ~40-80 characters of a group's texts fit 7
 * bits) to pack an n-gram into a few bits (ngramSimilarityByMasks). An ASCII text is lowercased
 * and trimmed here, without the copies of `toLowerCase().trim()` (the same result for ASCII); any
 * other text goes through ngramClean. `bits`: the width of the largest symbol. `all` may be a view
 * of the shared buffer: valid until the next call.
 */
export function symbolBuffer(texts: readonly string[]): {
  all: Int32Array;
  starts: Int32Array;
  bits: number;
} {
  const starts = new Int32Array(texts.length + 1);
  /** The length of the texts not yet read: what they need at most, but for lowercasing. */
  let rest = 0;
  for (const text of texts) rest += text.length;
  let all = symbolsFor(rest);
  const ascii = asciiSymbols.fill(-1);
  let symbols = 0;
  let k = 0;
  let wide: Map<number, number> | null = null;
  for (let t = 0; t < texts.length; t++) {
    const text = texts[t]!;
    rest -= text.length;
    starts[t] = k;
    let from = 0;
    let to = text.length;
    while (from < to && asciiSpace(text.charCodeAt(from))) from++;
    while (to > from && asciiSpace(text.charCodeAt(to - 1))) to--;
    let i = from;
    for (; i < to; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0x80) break;
      if (c >= 65 && c <= 90) c += 32;
      let symbol = ascii[c]!;
      if (symbol < 0) ascii[c] = symbol = symbols++;
      all[k++] = symbol;
    }
    if (i === to) continue;
    // Lowercasing outside ASCII may lengthen the text (U+0130 gives two code points).
    k = starts[t]!;
    const cleaned = ngramClean(text);
    if (k + cleaned.length + rest > all.length) {
      const grown = symbolsFor(Math.max(all.length * 2, k + cleaned.length + rest));
      grown.set(all.subarray(0, k));
      all = grown;
    }
    wide ??= new Map();
    for (let j = 0; j < cleaned.length; j++) {
      const c = cleaned.codePointAt(j)!;
      if (c > 0xffff) j++;
      let symbol = c < 0x80 ? ascii[c]! : (wide.get(c) ?? -1);
      if (symbol < 0) {
        symbol = symbols++;
        if (c < 0x80) ascii[c] = symbol;
        else wide.set(c, symbol);
      }
      all[k++] = symbol;
    }
  }
  starts[texts.length] = k;
  return { all: all.subarray(0, k), starts, bits: symbols <= 1 ? 1 : 32 - Math.clz32(symbols - 1) };
}
