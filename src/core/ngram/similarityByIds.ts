/**
 * Exact all-pairs n-gram Jaccard by a group-local dictionary: rolling hash -> dense n-gram ids ->
 * one bitset row per text -> AND + popcount (ngramSimilarityByIds), for any number of texts and
 * symbols. The dictionary remembers where each n-gram was first seen and compares code points
 * whenever two hashes match, so two different n-grams never share an id.
 *
 * The dictionary is plain functions over typed arrays, not a class: a class instance per call let V8
 * drop its optimised code after a full GC, which made the next call 2-10x slower (bench/README.md).
 */
import { randomFmix32 } from "../util/random.ts";

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

/** The Jaccard index of two sets from their sizes and intersection: 1 for two empty sets. */
export function jaccard(sizeA: number, sizeB: number, inter: number): number {
  if (sizeA === 0 && sizeB === 0) return 1.0;
  if (sizeA === 0 || sizeB === 0) return 0.0;
  return inter / (sizeA + sizeB - inter);
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
