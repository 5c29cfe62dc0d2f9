/**
 * The first row that claimed each rollout id, for the index's duplicate check (indexedFile.ts):
 * one claim per row of a file that gives ids. A `Map<string, number>` (a `get`, then a `set`) of
 * 300,000 ids cost about 0.5-0.9 µs per row on this machine, most of the index's per-row work on
 * small rows: each probe of a table that size misses the cache. Here one claim is one probe
 * sequence in one typed array whose slot holds the hash and the claim side by side (one cache
 * line), and a key's string is compared only when its 32-bit hash matches. Ids and rows are
 * appended in claim order, so a growth copies only the slots.
 */

/** FNV-1a over the UTF-16 code units, finished with a multiply-xorshift so low bits mix. */
export function idHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

/**
 * Ids per chunk. Pushing 300,000 ids and rows onto two growing arrays took 90% of the claims'
 * time (each growth of a large array copies it in the old generation); fixed-size chunks filled
 * by index never grow.
 */
const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;

export class FirstClaims {
  /** Two words per slot: the id's hash, then 1 + its index in `ids` (0: the slot is empty). */
  private table: Uint32Array;
  private mask: number;
  /** Ids in claim order, in chunks of {@link CHUNK} (assigned, never pushed: see below). */
  private readonly chunks: string[][] = [];
  /** First rows in claim order. */
  private rows = new Int32Array(1024);
  private count = 0;

  constructor(expected = 1024) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.table = new Uint32Array(capacity * 2);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count;
  }

  private idAt(claim: number): string {
    return this.chunks[claim >>> CHUNK_BITS]![claim & (CHUNK - 1)]!;
  }

  /** The first row that claimed `id`, or undefined. */
  get(id: string): number | undefined {
    const h = idHash(id);
    const table = this.table;
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const claim = table[slot * 2 + 1]!;
      if (claim === 0) return undefined;
      if (table[slot * 2] === h && this.idAt(claim - 1) === id) return this.rows[claim - 1];
    }
  }

  /**
   * `row` claims `id`: the row that claimed it first, which is `row` itself when nothing had
   * (and it is recorded).
   */
  claim(id: string, row: number): number {
    if ((this.count + 1) * 2 > this.mask + 1) this.grow();
    const h = idHash(id);
    const table = this.table;
    let slot = h & this.mask;
    for (; ; slot = (slot + 1) & this.mask) {
      const claim = table[slot * 2 + 1]!;
      if (claim === 0) break;
      if (table[slot * 2] === h && this.idAt(claim - 1) === id) return this.rows[claim - 1]!;
    }
    const k = this.count++;
    if ((k & (CHUNK - 1)) === 0) this.chunks.push(new Array<string>(CHUNK));
    this.chunks[k >>> CHUNK_BITS]![k & (CHUNK - 1)] = id;
    if (k === this.rows.length) {
      const rows = new Int32Array(k * 2);
      rows.set(this.rows);
      this.rows = rows;
    }
    this.rows[k] = row;
    table[slot * 2] = h;
    table[slot * 2 + 1] = k + 1;
    return row;
  }

  /** Every id and its first row, in claim order. */
  *entries(): IterableIterator<[string, number]> {
    for (let k = 0; k < this.count; k++) yield [this.idAt(k), this.rows[k]!];
  }

  private grow(): void {
    const old = this.table;
    const capacity = (this.mask + 1) * 2;
    const table = new Uint32Array(capacity * 2);
    const mask = capacity - 1;
    for (let at = 0; at < old.length; at += 2) {
      const claim = old[at + 1]!;
      if (claim === 0) continue;
      const h = old[at]!;
      let slot = h & mask;
      while (table[slot * 2 + 1] !== 0) slot = (slot + 1) & mask;
      table[slot * 2] = h;
      table[slot * 2 + 1] = claim;
    }
    this.table = table;
    this.mask = mask;
  }
}
