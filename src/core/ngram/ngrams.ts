/**
 * Character n-grams and Jaccard similarity, as benchmax's current diversity reward defines them
 * (methods.md 1.4). This file is the naive, obviously-correct definition; ./similarity.ts is the fast
 * exact method and is tested equal to this one.
 */

export interface NgramConfig {
  /** n-gram length in Unicode code points; at least 1. benchmax default 3. */
  readonly n: number;
  /** Jaccard at or above this links two rollouts (inclusive); in [0, 1]. benchmax default 0.5. */
  readonly threshold: number;
}

export const NGRAM_DEFAULTS: NgramConfig = { n: 3, threshold: 0.5 };

/** benchmax's `NgramDiversityConfig` validation, with its messages. */
export function ngramValidateConfig(config: NgramConfig): void {
  if (!(Number.isInteger(config.n) && config.n >= 1)) throw new RangeError("n must be positive");
  if (!(config.threshold >= 0 && config.threshold <= 1)) {
    throw new RangeError("similarity_threshold must be within [0, 1]");
  }
}

/** The text a set is built from: Python's `text.lower().strip()`; nothing else is normalised. */
export function ngramClean(text: string): string {
  return text.toLowerCase().trim();
}

/**
 * The n-gram set of a text: every window of n code points of the cleaned text. A cleaned text
 * shorter than n gives `{cleaned}`; an empty one gives the empty set.
 */
export function ngramSet(text: string, n: number): Set<string> {
  const cps = Array.from(ngramClean(text));
  const out = new Set<string>();
  if (cps.length === 0) return out;
  if (cps.length < n) {
    out.add(cps.join(""));
    return out;
  }
  for (let i = 0; i + n <= cps.length; i++) out.add(cps.slice(i, i + n).join(""));
  return out;
}

/** Jaccard similarity: 1.0 for two empty sets, 0.0 when exactly one is empty, else |A∩B| / |A∪B|. */
export function ngramJaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1.0;
  if (a.size === 0 || b.size === 0) return 0.0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let inter = 0;
  for (const g of small) if (large.has(g)) inter++;
  return inter / (a.size + b.size - inter);
}

/**
 * All-pairs Jaccard by the definition: one `Set<string>` per text. The baseline the benchmark
 * measures the fast method against. Returns a k x k row-major matrix with 1 on the diagonal.
 */
export function ngramSimilarityNaive(texts: readonly string[], n: number): Float64Array {
  const sets = texts.map((t) => ngramSet(t, n));
  const k = texts.length;
  const out = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    out[i * k + i] = 1;
    for (let j = i + 1; j < k; j++) {
      const s = ngramJaccard(sets[i]!, sets[j]!);
      out[i * k + j] = s;
      out[j * k + i] = s;
    }
  }
  return out;
}
