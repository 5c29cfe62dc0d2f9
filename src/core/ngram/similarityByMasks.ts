/**
 * Exact all-pairs n-gram Jaccard for up to 32 texts whose n-grams pack into 64 bits
 * (ngramSimilarityByMasks): per distinct n-gram, the mask of the texts holding it, kept at the key
 * itself or in a shared hash table; pairs count the masks holding both bits.
 */
import { jaccard } from "./similarityByIds.ts";

/** Up to this many texts, each n-gram's set of texts is one 32-bit mask (ngramSimilarityByMasks). */
export const MASK_TEXTS = 32;
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
export function ngramSimilarityByMasks(
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
