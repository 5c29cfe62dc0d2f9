/**
 * The typed protocol between the main thread and the compute worker (clustering off the main
 * thread: 64 long texts take tens of milliseconds, performance.md section 5).
 */
import type { ClusterResult, SimilarityInput, SimilarityOn } from "../core/index.ts";

/** A group's rollouts (text and tool calls) to cluster under the similarity settings. */
export interface ClusterRequest {
  readonly kind: "cluster";
  readonly requestId: number;
  readonly inputs: readonly SimilarityInput[];
  readonly n: number;
  readonly threshold: number;
  readonly on: SimilarityOn;
}

/** Clusters plus the k x k similarity matrix (row-major), which the clusters view draws. */
export type ClusterOutput = ClusterResult & { readonly similarity: Float64Array };

/** "Find similar": one rollout against many (the rollouts of other groups). */
export interface SimilarRequest {
  readonly kind: "similar";
  readonly requestId: number;
  readonly query: SimilarityInput;
  readonly candidates: readonly SimilarityInput[];
  readonly n: number;
  readonly on: SimilarityOn;
}

export type ComputeRequest = ClusterRequest | SimilarRequest;

export type ComputeReply =
  | { readonly kind: "cluster"; readonly requestId: number; readonly result: ClusterOutput }
  /** Similarity of the query with candidates[i], in request order. */
  | { readonly kind: "similar"; readonly requestId: number; readonly result: Float64Array }
  | { readonly kind: "error"; readonly requestId: number; readonly message: string };
