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
 * The texts become symbols in ./symbolBuffer.ts; the two paths are ./similarityByMasks.ts and
 * ./similarityByIds.ts.
 */
import { symbolBuffer } from "./symbolBuffer.ts";
import { ngramSimilarityByIds } from "./similarityByIds.ts";
import { MASK_TEXTS, ngramSimilarityByMasks } from "./similarityByMasks.ts";

export { ngramSimilarityByIds };

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
