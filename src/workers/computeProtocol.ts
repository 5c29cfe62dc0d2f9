/**
 * The typed protocol between the main thread and the compute worker (clustering off the main
 * thread: 64 long texts take tens of milliseconds, performance.md section 5).
 */
import type { ClusterResult } from "../core/index.ts";

export interface ClusterRequest {
  readonly kind: "cluster";
  readonly requestId: number;
  readonly texts: readonly string[];
  readonly n: number;
  readonly threshold: number;
}

/** Clusters plus the k x k similarity matrix (row-major), which the clusters view draws. */
export type ClusterOutput = ClusterResult & { readonly similarity: Float64Array };

export type ComputeRequest = ClusterRequest;

export type ComputeReply =
  | { readonly kind: "cluster"; readonly requestId: number; readonly result: ClusterOutput }
  | { readonly kind: "error"; readonly requestId: number; readonly message: string };
