/**
 * Seeded randomness. Core code never calls Math.random: every random choice takes a seed, so a
 * bootstrap interval, a tournament or a split is the same on every machine and in every run.
 */

/** mulberry32: a small, fast 32-bit PRNG. Returns a function yielding floats in [0, 1). */
export function randomMulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** MurmurHash3's 32-bit finaliser: spreads the bits of a 32-bit integer. */
export function randomFmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A stable hash of a string and a seed to a float in [0, 1). Depends on nothing but its inputs. */
export function randomHash01(key: string, seed: number): number {
  let h = 0x811c9dc5 ^ randomFmix32(seed >>> 0);
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return randomFmix32(h) / 4294967296;
}
