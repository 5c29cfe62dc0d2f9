/**
 * Exact all-pairs n-gram Jaccard for one group, fast (performance.md section 5), two ways:
 *
 * - up to 32 texts whose n-grams pack into 64 bits (every text at n <= 3; the texts' distinct
 *   code points are numbered from 0, see symbolBuffer): each n-gram's key is its symbols side by
 *   side, keeping per distinct n-gram the mask of the texts that have it (at the key itself for up
 *   to 8 texts and 21-bit keys, else in a hash table); pairs count the masks holding both bits
 *   (ngramSimilarityByMasks);
 * - else rolling hash -> group-local dictionary -> one bitset row per text -> AND + popcount
 *   (ngramSimilarityByIds).
 *
 * Exact, not "exact up to hash collisions": a packed key is the n-gram itself, and the dictionary
 * remembers where each n-gram was first seen and compares code points whenever two hashes match,
 * so two different n-grams never share an id. Both are tested equal to the naive Set<string>
 * definition (ngramSimilarityNaive) and to each other, and measured against it in bench/.
 *
 * The dictionary is plain functions over typed arrays, not a class: a class instance per call let V8
 * drop its optimised code after a full GC, which made the next call 2-10x slower (bench/README.md).
 */
import { randomFmix32 } from "../util/random.ts";
import { ngramClean } from "./ngrams.ts";

const HASH_BASE = 0x01000193;
/** The dictionary's first size at most (it grows past it); a small group starts smaller. */
const INITIAL_SLOTS = 1 << 15;
const MIN_SLOTS = 64;

/**
 * The dictionary's first size for a buffer of `positions` code points: room for every n-gram at
 * half load (there are at most `positions` distinct ones), capped at INITIAL_SLOTS. A fixed 32K-slot
 * table (256 KB, filled with -1) per call cost more than hashing a group of short texts: 36% of a
 * 150,000-group `analyze`, plus the GCs its external memory triggered (bench/README.md, runs).
 */
function initialSlots(positions: number): number {
  let slots = MIN_SLOTS;
  while (slots < positions * 2 && slots < INITIAL_SLOTS) slots *= 2;
  return slots;
}
/** Above this many 32-bit words of bitsets, compare sorted id lists instead (same result, less memory). */
const BITSET_WORD_LIMIT = 1 << 22;

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
function symbolBuffer(texts: readonly string[]): {
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

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Interleaved [hash, id] open-addressing slots, -1 id = empty, rebuilt at twice the size. */
function growTable(table: Int32Array, slots: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(slots * 2).fill(-1);
  const mask = slots - 1;
  for (let o = 0; o < table.length; o += 2) {
    if (table[o + 1] === -1) continue;
    let slot = randomFmix32(table[o]! >>> 0) & mask;
    while (next[(slot << 1) + 1] !== -1) slot = (slot + 1) & mask;
    next[slot << 1] = table[o]!;
    next[(slot << 1) + 1] = table[o + 1]!;
  }
  return next;
}

/**
 * Dense ids for every n-gram position: `ids[p]` is the id of the n-gram starting at buffer offset p
 * (for p within a text of length >= n). Returns the number of distinct n-grams.
 */
function assignGramIds(all: Int32Array, starts: Int32Array, n: number, ids: Int32Array): number {
  let slots = initialSlots(all.length);
  let table = new Int32Array(slots * 2).fill(-1);
  let mask = slots - 1;
  // At most one n-gram per position: a small group needs a small table (it grows past 1024).
  let firstAt = new Int32Array(Math.max(16, Math.min(1024, all.length)));
  let vocabulary = 0;
  let pow = 1;
  for (let j = 1; j < n; j++) pow = Math.imul(pow, HASH_BASE);
  for (let t = 0; t + 1 < starts.length; t++) {
    const s = starts[t]!;
    const e = starts[t + 1]!;
    if (e - s < n) continue;
    let h = 0;
    for (let j = 0; j < n; j++) h = (Math.imul(h, HASH_BASE) + all[s + j]!) | 0;
    for (let p = s; p + n <= e; p++) {
      if (p > s) h = (Math.imul(h - Math.imul(all[p - 1]!, pow), HASH_BASE) + all[p + n - 1]!) | 0;
      let slot = randomFmix32(h >>> 0) & mask;
      let id: number;
      for (;;) {
        const b = slot << 1;
        id = table[b + 1]!;
        if (id === -1) {
          id = vocabulary++;
          if (id >= firstAt.length) {
            const grown = new Int32Array(firstAt.length * 2);
            grown.set(firstAt);
            firstAt = grown;
          }
          firstAt[id] = p;
          table[b] = h;
          table[b + 1] = id;
          if (vocabulary * 2 > slots) {
            slots *= 2;
            mask = slots - 1;
            table = growTable(table, slots);
          }
          break;
        }
        if (table[b] === h) {
          // Same hash: the same n-gram only if the code points agree.
          const q = firstAt[id]!;
          let j = 0;
          while (j < n && all[p + j] === all[q + j]) j++;
          if (j === n) break;
        }
        slot = (slot + 1) & mask;
      }
      ids[p] = id;
    }
  }
  return vocabulary;
}

function jaccard(sizeA: number, sizeB: number, inter: number): number {
  if (sizeA === 0 && sizeB === 0) return 1.0;
  if (sizeA === 0 || sizeB === 0) return 0.0;
  return inter / (sizeA + sizeB - inter);
}

/**
 * All-pairs Jaccard similarity of the texts' character n-gram sets, exactly equal to
 * {@link ngramSimilarityNaive}. Cost: O(total characters) to build, O(k^2 * V / 32) for the pairs.
 *
 * @returns a k x k row-major matrix with 1 on the diagonal
 */
export function ngramSimilarity(texts: readonly string[], n: number): Float64Array {
  const { all, starts, bits } = symbolBuffer(texts);
  return similarityOfSymbols(all, starts, n, bits);
}

/** {@link ngramSimilarityOfSymbols} of symbols below 2^bits. */
function similarityOfSymbols(
  all: Int32Array,
  starts: Int32Array,
  n: number,
  bits: number,
): Float64Array {
  return starts.length - 1 <= MASK_TEXTS && n * bits <= 64
    ? ngramSimilarityByMasks(all, starts, n, bits)
    : ngramSimilarityByIds(all, starts, n);
}

/**
 * All-pairs Jaccard of the n-gram sets of k symbol sequences, by the same rule as the texts' code
 * points (methods.md 1.4): every window of n symbols; a sequence shorter than n is one gram, itself;
 * an empty one is the empty set. Sequence t is `all[starts[t]..starts[t+1])`; symbols are any
 * non-negative integers (code points, or the ids of tool calls: ./toolCalls.ts).
 *
 * @returns a k x k row-major matrix with 1 on the diagonal
 */
export function ngramSimilarityOfSymbols(
  all: Int32Array,
  starts: Int32Array,
  n: number,
): Float64Array {
  let or = 0;
  for (let p = 0; p < all.length; p++) or |= all[p]!;
  return similarityOfSymbols(all, starts, n, 32 - Math.clz32(or) || 1);
}

/**
 * {@link ngramSimilarityOfSymbols} by the dictionary of ids and one bitset row per text: any number
 * of texts and symbols. The fast path (ngramSimilarityByMasks) covers most groups; this one the
 * rest, and the tests compare the two.
 */
export function ngramSimilarityByIds(all: Int32Array, starts: Int32Array, n: number): Float64Array {
  const k = starts.length - 1;
  const ids = new Int32Array(all.length);
  let vocabulary = assignGramIds(all, starts, n, ids);
  // A text shorter than n has one "gram", itself; it can equal only an identical short text.
  const shortIds = new Map<string, number>();
  const shortOf = new Int32Array(k).fill(-1);
  for (let t = 0; t < k; t++) {
    const length = starts[t + 1]! - starts[t]!;
    if (length === 0 || length >= n) continue;
    const key = all.subarray(starts[t], starts[t + 1]).join(",");
    let id = shortIds.get(key);
    if (id === undefined) {
      id = vocabulary++;
      shortIds.set(key, id);
    }
    shortOf[t] = id;
  }
  /** Calls `visit` with every id of text t (n-gram ids with repeats, or its short-text id). */
  const eachId = (t: number, visit: (id: number) => void): void => {
    if (shortOf[t]! >= 0) visit(shortOf[t]!);
    else for (let p = starts[t]!; p + n <= starts[t + 1]!; p++) visit(ids[p]!);
  };
  const out = new Float64Array(k * k);
  const words = (vocabulary + 31) >>> 5;
  if (k * words <= BITSET_WORD_LIMIT) {
    const rows = new Uint32Array(k * words);
    const sizes = new Int32Array(k);
    // Words past the highest id a text uses are zero: pairs only AND the shorter used prefix.
    const used = new Int32Array(k);
    for (let t = 0; t < k; t++) {
      const offset = t * words;
      let maxId = -1;
      eachId(t, (id) => {
        rows[offset + (id >>> 5)]! |= 1 << (id & 31);
        if (id > maxId) maxId = id;
      });
      used[t] = maxId < 0 ? 0 : (maxId >>> 5) + 1;
      let size = 0;
      for (let w = 0; w < used[t]!; w++) size += popcount(rows[offset + w]!);
      sizes[t] = size;
    }
    for (let i = 0; i < k; i++) {
      out[i * k + i] = 1;
      const oi = i * words;
      for (let j = i + 1; j < k; j++) {
        const oj = j * words;
        const limit = Math.min(used[i]!, used[j]!);
        let inter = 0;
        for (let w = 0; w < limit; w++) inter += popcount(rows[oi + w]! & rows[oj + w]!);
        const s = jaccard(sizes[i]!, sizes[j]!, inter);
        out[i * k + j] = s;
        out[j * k + i] = s;
      }
    }
    return out;
  }
  const sets = Array.from({ length: k }, (_, t) => {
    const list: number[] = [];
    eachId(t, (id) => list.push(id));
    const sorted = Int32Array.from(list).sort();
    let u = 0;
    for (let p = 0; p < sorted.length; p++)
      if (p === 0 || sorted[p] !== sorted[p - 1]) sorted[u++] = sorted[p]!;
    return sorted.subarray(0, u);
  });
  for (let i = 0; i < k; i++) {
    out[i * k + i] = 1;
    for (let j = i + 1; j < k; j++) {
      const a = sets[i]!;
      const b = sets[j]!;
      let p = 0;
      let q = 0;
      let inter = 0;
      while (p < a.length && q < b.length) {
        if (a[p]! < b[q]!) p++;
        else if (a[p]! > b[q]!) q++;
        else {
          inter++;
          p++;
          q++;
        }
      }
      const s = jaccard(a.length, b.length, inter);
      out[i * k + j] = s;
      out[j * k + i] = s;
    }
  }
  return out;
}

/** Up to this many texts, each n-gram's set of texts is one 32-bit mask (ngramSimilarityByMasks). */
const MASK_TEXTS = 32;
/** The mask table's first size at most (it grows past it). */
const MASK_INITIAL_SLOTS = 1 << 12;
/** Up to this many texts, the masks are first counted by value (a table of 2^k counts). */
const HISTOGRAM_TEXTS = 10;
/**
 * The mask table, shared by the calls (allocating and zeroing one per group cost more than hashing
 * a small group) and left zeroed by each. A slot is [key, mask] (keys of one word) or [key high,
 * key low, mask] (two words); mask 0 = empty.
 */
let maskTable = new Int32Array(MASK_INITIAL_SLOTS * 3);
/** Counts of each mask value (HISTOGRAM_TEXTS), shared and left zeroed as the table. */
const maskCounts = new Int32Array(1 << HISTOGRAM_TEXTS);

/** The slot of a key in a table of 2^slotBits slots (Fibonacci hashing of the key's words). */
function maskSlot(hi: number, lo: number, slotBits: number): number {
  return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> (32 - slotBits);
}

/** Doubles the shared table from 2^slotBits slots of `stride` words: every key moves to its slot. */
function growMaskTable(slotBits: number, stride: number): void {
  const size = (1 << slotBits) * stride;
  const old = maskTable.slice(0, size);
  maskTable.fill(0, 0, size);
  if (maskTable.length < size * 2) maskTable = new Int32Array(size * 2);
  const table = maskTable;
  const mask = (2 << slotBits) - 1;
  for (let o = 0; o < size; o += stride) {
    if (old[o + stride - 1] === 0) continue;
    let slot = maskSlot(stride === 3 ? old[o]! : 0, old[o + stride - 2]!, slotBits + 1);
    while (table[slot * stride + stride - 1] !== 0) slot = (slot + 1) & mask;
    table.set(old.subarray(o, o + stride), slot * stride);
  }
}

/** The table's first size (log2): room for every window at half load, at most MASK_INITIAL_SLOTS. */
function maskSlotBits(positions: number): number {
  let slotBits = 6;
  while (1 << slotBits < positions * 2 && 1 << slotBits < MASK_INITIAL_SLOTS) slotBits++;
  return slotBits;
}

/**
 * Fills the shared table with every distinct n-gram of the texts and the mask of the texts holding
 * it, keys of one word (n * bits <= 32). Returns the table's size (log2).
 */
function maskNarrow(all: Int32Array, starts: Int32Array, n: number, bits: number): number {
  const k = starts.length - 1;
  let slotBits = maskSlotBits(all.length);
  if (maskTable.length < 2 << slotBits) maskTable = new Int32Array(2 << slotBits);
  let table = maskTable;
  let count = 0;
  let limit = 1 << (slotBits - 1);
  let shift = 32 - slotBits;
  let mask = (1 << slotBits) - 1;
  const keyMask = n * bits >= 32 ? -1 : (1 << (n * bits)) - 1;
  for (let t = 0; t < k; t++) {
    const s = starts[t]!;
    const e = starts[t + 1]!;
    if (e - s < n) continue;
    const bit = 1 << t;
    let key = 0;
    for (let j = 0; j < n - 1; j++) key = (key << bits) | all[s + j]!;
    for (let p = s + n - 1; p < e; p++) {
      key = ((key << bits) | all[p]!) & keyMask;
      let slot = Math.imul(key, 0x9e3779b1) >>> shift;
      for (;;) {
        const b = slot << 1;
        const m = table[b + 1]!;
        if (m === 0) {
          table[b] = key;
          table[b + 1] = bit;
          if (++count > limit) {
            growMaskTable(slotBits, 2);
            slotBits++;
            table = maskTable;
            limit = 1 << (slotBits - 1);
            shift = 32 - slotBits;
            mask = (1 << slotBits) - 1;
          }
          break;
        }
        if (table[b] === key) {
          table[b + 1] = m | bit;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
  }
  return slotBits;
}

/** {@link maskNarrow} for keys of two words (32 < n * bits <= 64): [high, low, mask] slots. */
function maskWide(all: Int32Array, starts: Int32Array, n: number, bits: number): number {
  const k = starts.length - 1;
  let slotBits = maskSlotBits(all.length);
  if (maskTable.length < (1 << slotBits) * 3) maskTable = new Int32Array((1 << slotBits) * 3);
  let table = maskTable;
  let count = 0;
  let limit = 1 << (slotBits - 1);
  let mask = (1 << slotBits) - 1;
  const hiBits = n * bits - 32;
  const hiMask = hiBits >= 32 ? -1 : (1 << hiBits) - 1;
  const carry = 32 - bits;
  for (let t = 0; t < k; t++) {
    const s = starts[t]!;
    const e = starts[t + 1]!;
    if (e - s < n) continue;
    const bit = 1 << t;
    let hi = 0;
    let lo = 0;
    for (let j = 0; j < n - 1; j++) {
      hi = (hi << bits) | (lo >>> carry);
      lo = (lo << bits) | all[s + j]!;
    }
    for (let p = s + n - 1; p < e; p++) {
      hi = ((hi << bits) | (lo >>> carry)) & hiMask;
      lo = (lo << bits) | all[p]!;
      let slot = maskSlot(hi, lo, slotBits);
      for (;;) {
        const b = slot * 3;
        const m = table[b + 2]!;
        if (m === 0) {
          table[b] = hi;
          table[b + 1] = lo;
          table[b + 2] = bit;
          if (++count > limit) {
            growMaskTable(slotBits, 3);
            slotBits++;
            table = maskTable;
            limit = 1 << (slotBits - 1);
            mask = (1 << slotBits) - 1;
          }
          break;
        }
        if (table[b + 1] === lo && table[b] === hi) {
          table[b + 2] = m | bit;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
  }
  return slotBits;
}

/** Up to this many texts, and keys of up to DIRECT_KEY_BITS, masks are one byte at the key itself. */
const DIRECT_TEXTS = 8;
/** 21 bits: trigrams of ASCII (2 MB of masks, allocated once a group needs them). */
const DIRECT_KEY_BITS = 21;
/** Each key's mask (maskDirect), left zeroed by each call; `directUsed` lists the keys set. */
let directMasks: Uint8Array | null = null;
let directUsed = new Int32Array(1 << 12);

/**
 * {@link maskNarrow} without hashing, for at most 8 texts and keys of at most 21 bits: the mask of
 * the n-gram with key K is `directMasks[K]` (a group of 8 rows of 1,200 characters took ~25% less
 * than through the table). Returns the number of distinct n-grams, their keys in `directUsed`.
 */
function maskDirect(all: Int32Array, starts: Int32Array, n: number, bits: number): number {
  const k = starts.length - 1;
  const masks = (directMasks ??= new Uint8Array(1 << DIRECT_KEY_BITS));
  if (directUsed.length < Math.min(all.length, 1 << DIRECT_KEY_BITS))
    directUsed = new Int32Array(
      Math.min(Math.max(all.length, directUsed.length * 2), 1 << DIRECT_KEY_BITS),
    );
  const used = directUsed;
  const keyMask = (1 << (n * bits)) - 1;
  let count = 0;
  for (let t = 0; t < k; t++) {
    const s = starts[t]!;
    const e = starts[t + 1]!;
    if (e - s < n) continue;
    const bit = 1 << t;
    let key = 0;
    for (let j = 0; j < n - 1; j++) key = (key << bits) | all[s + j]!;
    for (let p = s + n - 1; p < e; p++) {
      key = ((key << bits) | all[p]!) & keyMask;
      const m = masks[key]!;
      if (m === 0) used[count++] = key;
      masks[key] = m | bit;
    }
  }
  return count;
}

/**
 * Adds `times` distinct grams held by the texts of mask m: to each text's size, and to the
 * intersection of each pair, `inter[j * k + i]` for i < j.
 */
function countMask(
  m: number,
  times: number,
  k: number,
  sizes: Int32Array,
  inter: Int32Array,
  members: Int32Array,
): void {
  let c = 0;
  for (let x = m; x !== 0;) {
    const low = x & -x;
    x ^= low;
    const t = 31 - Math.clz32(low);
    sizes[t]! += times;
    const row = t * k;
    for (let q = 0; q < c; q++) inter[row + members[q]!]! += times;
    members[c++] = t;
  }
}

/**
 * All-pairs Jaccard as {@link ngramSimilarityByIds}, for at most 32 texts of symbols below 2^bits
 * where n * bits <= 64 (texts: any n <= 3, and n <= 9 for up to 128 distinct characters, see
 * symbolBuffer). An n-gram's key is its symbols side by side, so two n-grams share a key only when
 * they are equal: nothing is verified. A table (maskDirect's bytes, else maskNarrow's or maskWide's
 * hash table) keeps, for each distinct n-gram, the mask of the texts holding it; the intersection of texts i and
 * j is then the number of masks holding both bits, and a text's set size the number holding its
 * bit: the bitsets' counts, so the same Jaccard.
 */
function ngramSimilarityByMasks(
  all: Int32Array,
  starts: Int32Array,
  n: number,
  bits: number,
): Float64Array {
  const k = starts.length - 1;
  const sizes = new Int32Array(k);
  const inter = new Int32Array(k * k);
  const members = new Int32Array(MASK_TEXTS);
  if (k <= DIRECT_TEXTS && n * bits <= DIRECT_KEY_BITS) {
    const count = maskDirect(all, starts, n, bits);
    const masks = directMasks!;
    for (let u = 0; u < count; u++) {
      const key = directUsed[u]!;
      maskCounts[masks[key]!]!++;
      masks[key] = 0;
    }
  } else {
    const stride = n * bits > 32 ? 3 : 2;
    const slotBits =
      stride === 3 ? maskWide(all, starts, n, bits) : maskNarrow(all, starts, n, bits);
    const table = maskTable;
    const size = (1 << slotBits) * stride;
    if (k <= HISTOGRAM_TEXTS)
      for (let o = stride - 1; o < size; o += stride) maskCounts[table[o]!]!++;
    else
      for (let o = stride - 1; o < size; o += stride)
        if (table[o] !== 0) countMask(table[o]!, 1, k, sizes, inter, members);
    table.fill(0, 0, size);
  }
  if (k <= HISTOGRAM_TEXTS) {
    maskCounts[0] = 0;
    for (let m = 1; m < 1 << k; m++) {
      if (maskCounts[m] === 0) continue;
      countMask(m, maskCounts[m]!, k, sizes, inter, members);
      maskCounts[m] = 0;
    }
  }
  // A text shorter than n has one "gram", itself; it can equal only an identical short text.
  let short: Map<string, number> | null = null;
  for (let t = 0; t < k; t++) {
    const length = starts[t + 1]! - starts[t]!;
    if (length === 0 || length >= n) continue;
    short ??= new Map();
    const key = all.subarray(starts[t], starts[t + 1]).join(",");
    short.set(key, (short.get(key) ?? 0) | (1 << t));
  }
  if (short !== null) for (const m of short.values()) countMask(m, 1, k, sizes, inter, members);
  const out = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    out[i * k + i] = 1;
    for (let j = i + 1; j < k; j++) {
      const s = jaccard(sizes[i]!, sizes[j]!, inter[j * k + i]!);
      out[i * k + j] = s;
      out[j * k + i] = s;
    }
  }
  return out;
}
