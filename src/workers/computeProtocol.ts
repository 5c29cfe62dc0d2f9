/**
 * The typed protocol between the main thread and the compute worker (clustering off the main
 * thread: 64 long texts take tens of milliseconds, performance.md section 5).
 */
import { ngramJaccard, ngramSet, type ClusterResult } from "../core/index.ts";

export interface ClusterRequest {
  readonly kind: "cluster";
  readonly requestId: number;
  readonly texts: readonly string[];
  readonly n: number;
  readonly threshold: number;
}

/** Clusters plus the k x k similarity matrix (row-major), which the clusters view draws. */
export type ClusterOutput = ClusterResult & { readonly similarity: Float64Array };

/** "Find similar": one text against many (the rollouts of other groups), n-gram Jaccard. */
export interface SimilarRequest {
  readonly kind: "similar";
  readonly requestId: number;
  readonly query: string;
  readonly texts: readonly string[];
  readonly n: number;
}

export type ComputeRequest = ClusterRequest | SimilarRequest;

export type ComputeReply =
  | { readonly kind: "cluster"; readonly requestId: number; readonly result: ClusterOutput }
  /** Similarity of the query with texts[i], in request order. */
  | { readonly kind: "similar"; readonly requestId: number; readonly result: Float64Array }
  | { readonly kind: "error"; readonly requestId: number; readonly message: string };

/**
 * One text against many by the Jaccard definition (core's ngramSet/ngramJaccard), shared by the
 * worker and the client's main-thread fallback: linear in the number of texts, where the all-pairs
 * matrix would be quadratic in every rollout of the dataset.
 */
export function similarToQuery(query: string, texts: readonly string[], n: number): Float64Array {
  const q = ngramSet(query, n);
  const out = new Float64Array(texts.length);
  for (let i = 0; i < texts.length; i++) out[i] = ngramJaccard(q, ngramSet(texts[i]!, n));
  return out;
}
