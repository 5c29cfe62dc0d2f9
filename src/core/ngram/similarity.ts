/**
 * Exact all-pairs n-gram Jaccard for one group, fast (performance.md section 5):
 * rolling hash -> group-local dictionary -> one bitset row per text -> AND + popcount.
 *
 * Exact, not "exact up to hash collisions": the dictionary stores where each n-gram was first seen
 * and compares code points whenever two hashes match, so two different n-grams never share an id.
 * Measured in bench/ against the naive Set<string> definition (ngramSimilarityNaive).
 */
import { randomFmix32 } from "../util/random.ts";
import { ngramClean } from "./ngrams.ts";

const HASH_BASE = 0x01000193;
const INITIAL_SLOTS = 1 << 15;
/** Above this many 32-bit words of bitsets, compare sorted id lists instead (same result, less memory). */
const BITSET_WORD_LIMIT = 1 << 22;

function codePoints(text: string): Int32Array {
  const cleaned = ngramClean(text);
  const out = new Int32Array(cleaned.length);
  let k = 0;
  for (let i = 0; i < cleaned.length; i++) {
    const c = cleaned.codePointAt(i)!;
    out[k++] = c;
    if (c > 0xffff) i++;
  }
  return out.subarray(0, k);
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Open-addressing dictionary from n-gram to dense id, verifying code points on every hash match. */
class GramDictionary {
  private slotHash = new Int32Array(INITIAL_SLOTS);
  private slotId = new Int32Array(INITIAL_SLOTS).fill(-1);
  private mask = INITIAL_SLOTS - 1;
  private idText: Int32Array<ArrayBuffer> = new Int32Array(1024);
  private idPos: Int32Array<ArrayBuffer> = new Int32Array(1024);
  size = 0;
  private readonly texts: readonly Int32Array[];
  private readonly n: number;

  constructor(texts: readonly Int32Array[], n: number) {
    this.texts = texts;
    this.n = n;
  }

  private same(t: number, p: number, id: number): boolean {
    const a = this.texts[t]!;
    const b = this.texts[this.idText[id]!]!;
    const q = this.idPos[id]!;
    for (let j = 0; j < this.n; j++) if (a[p + j] !== b[q + j]) return false;
    return true;
  }

  /** The id of the n-gram starting at position p of text t, adding it if new. */
  idOf(hash: number, t: number, p: number): number {
    let slot = randomFmix32(hash >>> 0) & this.mask;
    for (;;) {
      const id = this.slotId[slot]!;
      if (id === -1) return this.insert(slot, hash, t, p);
      if (this.slotHash[slot] === hash && this.same(t, p, id)) return id;
      slot = (slot + 1) & this.mask;
    }
  }

  private insert(slot: number, hash: number, t: number, p: number): number {
    const id = this.size++;
    if (id >= this.idText.length) {
      const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.idText = grow(this.idText);
      this.idPos = grow(this.idPos);
    }
    this.idText[id] = t;
    this.idPos[id] = p;
    this.slotHash[slot] = hash;
    this.slotId[slot] = id;
    if (this.size * 2 > this.slotId.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const oldHash = this.slotHash;
    const oldId = this.slotId;
    const slots = oldId.length * 2;
    this.slotHash = new Int32Array(slots);
    this.slotId = new Int32Array(slots).fill(-1);
    this.mask = slots - 1;
    for (let s = 0; s < oldId.length; s++) {
      const id = oldId[s]!;
      if (id === -1) continue;
      let slot = randomFmix32(oldHash[s]! >>> 0) & this.mask;
      while (this.slotId[slot] !== -1) slot = (slot + 1) & this.mask;
      this.slotHash[slot] = oldHash[s]!;
      this.slotId[slot] = id;
    }
  }
}

/** Per text, the ids of its n-grams (with repeats), and the dictionary size V. */
function gramIds(texts: readonly string[], n: number): { ids: Int32Array[]; vocabulary: number } {
  const cps = texts.map(codePoints);
  const dict = new GramDictionary(cps, n);
  const shortIds = new Map<string, number>();
  let pow = 1;
  for (let j = 1; j < n; j++) pow = Math.imul(pow, HASH_BASE);
  const ids = cps.map((c, t) => {
    if (c.length === 0) return new Int32Array(0);
    if (c.length < n) {
      // A short text's only "gram" is itself; it can equal only another identical short text.
      const key = String.fromCodePoint(...c);
      let id = shortIds.get(key);
      if (id === undefined) {
        id = -1 - shortIds.size;
        shortIds.set(key, id);
      }
      return Int32Array.of(id);
    }
    const out = new Int32Array(c.length - n + 1);
    let h = 0;
    for (let j = 0; j < n; j++) h = (Math.imul(h, HASH_BASE) + c[j]!) | 0;
    out[0] = dict.idOf(h, t, 0);
    for (let p = 1; p + n <= c.length; p++) {
      h = (Math.imul(h - Math.imul(c[p - 1]!, pow), HASH_BASE) + c[p + n - 1]!) | 0;
      out[p] = dict.idOf(h, t, p);
    }
    return out;
  });
  // Short-text ids were negative placeholders; move them after the n-gram ids.
  const base = dict.size;
  for (const row of ids) if (row.length === 1 && row[0]! < 0) row[0] = base + (-1 - row[0]!);
  return { ids, vocabulary: base + shortIds.size };
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
  const k = texts.length;
  const out = new Float64Array(k * k);
  const { ids, vocabulary } = gramIds(texts, n);
  const words = (vocabulary + 31) >>> 5;
  if (k * words <= BITSET_WORD_LIMIT) {
    const rows = new Uint32Array(k * words);
    const sizes = new Int32Array(k);
    ids.forEach((row, t) => {
      const offset = t * words;
      for (const id of row) rows[offset + (id >>> 5)]! |= 1 << (id & 31);
      let size = 0;
      for (let w = 0; w < words; w++) size += popcount(rows[offset + w]!);
      sizes[t] = size;
    });
    for (let i = 0; i < k; i++) {
      out[i * k + i] = 1;
      const oi = i * words;
      for (let j = i + 1; j < k; j++) {
        const oj = j * words;
        let inter = 0;
        for (let w = 0; w < words; w++) inter += popcount(rows[oi + w]! & rows[oj + w]!);
        const s = jaccard(sizes[i]!, sizes[j]!, inter);
        out[i * k + j] = s;
        out[j * k + i] = s;
      }
    }
    return out;
  }
  const sets = ids.map((row) => {
    const sorted = Int32Array.from(row).sort();
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
