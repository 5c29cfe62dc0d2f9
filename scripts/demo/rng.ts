/**
 * The demo's randomness: one mulberry32 stream (src/core) with the draws the generator makes, and a
 * bounds-checked index. Every choice in the demo comes from here, so a seed fixes the bytes.
 */
import { randomMulberry32 } from "../../src/core/index.ts";

export class Rng {
  readonly #next: () => number;
  constructor(seed: number) {
    this.#next = randomMulberry32(seed);
  }
  /** An integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.#next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.#next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return at(items, Math.floor(this.#next() * items.length));
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.#next() * (i + 1));
      const tmp = at(out, i);
      out[i] = at(out, j);
      out[j] = tmp;
    }
    return out;
  }
  chars(alphabet: string, n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.#next() * alphabet.length)] ?? "";
    return s;
  }
  digits(n: number): string {
    return this.chars("0123456789", n);
  }
}

export function at<T>(items: readonly T[], i: number): T {
  const x = items[i];
  if (x === undefined) throw new RangeError(`index ${i} out of range (length ${items.length})`);
  return x;
}
