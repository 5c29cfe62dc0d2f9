/**
 * The main thread's side of the compute worker: one long-lived worker, request ids, and a
 * main-thread fallback when Workers are unavailable (jsdom, or a browser that refuses them).
 */
import {
  similarityCluster,
  similarityToQuery,
  type SimilarityInput,
  type SimilarityOn,
} from "../core/index.ts";
import type { ClusterOutput, ComputeReply, ComputeRequest } from "./computeProtocol.ts";

let worker: Worker | null = null;
let workerUnavailable = false;
let nextId = 1;
const pending = new Map<
  number,
  { resolve: (r: ClusterOutput | Float64Array) => void; reject: (e: Error) => void }
>();

function computeWorker(): Worker | null {
  if (worker !== null || workerUnavailable) return worker;
  try {
    const w = new Worker(new URL("./compute.worker.ts", import.meta.url), { type: "module" });
    w.onmessage = (event: MessageEvent<ComputeReply>) => {
      const reply = event.data;
      const waiting = pending.get(reply.requestId);
      if (waiting === undefined) return;
      pending.delete(reply.requestId);
      if (reply.kind === "error") waiting.reject(new Error(reply.message));
      else waiting.resolve(reply.result);
    };
    w.onerror = (event) => {
      // A crashed worker fails what it held; the next request starts a new one.
      for (const waiting of pending.values())
        waiting.reject(new Error(`the compute worker stopped: ${event.message}`));
      pending.clear();
      w.terminate();
      if (worker === w) worker = null;
    };
    worker = w;
    return w;
  } catch {
    workerUnavailable = true;
    return null;
  }
}

/**
 * Single-linkage clusters of a group's rollouts under the similarity settings (core
 * `similarityCluster`: text, tool calls or both), computed in the worker.
 *
 * @throws (rejects) RangeError-like errors for invalid settings, with core's message
 */
export function clusterRollouts(
  inputs: readonly SimilarityInput[],
  config: { readonly n: number; readonly threshold: number; readonly on: SimilarityOn },
): Promise<ClusterOutput> {
  const w = typeof Worker === "undefined" ? null : computeWorker();
  if (w === null) {
    try {
      return Promise.resolve(similarityCluster(inputs, config));
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }
  const requestId = nextId++;
  const request: ComputeRequest = { kind: "cluster", requestId, inputs, ...config };
  return new Promise((resolve, reject) => {
    pending.set(requestId, {
      resolve: (r) => (r instanceof Float64Array ? reject(mismatch()) : resolve(r)),
      reject,
    });
    w.postMessage(request);
  });
}

const mismatch = () => new Error("the compute worker answered with the wrong kind of result");

/**
 * The similarity of `query` with each candidate ("find similar"; core `similarityToQuery` under
 * what the setting compares), in the worker.
 *
 * @returns similarity[i] for candidates[i], in [0, 1]
 */
export function similarRollouts(
  query: SimilarityInput,
  candidates: readonly SimilarityInput[],
  n: number,
  on: SimilarityOn,
): Promise<Float64Array> {
  const w = typeof Worker === "undefined" ? null : computeWorker();
  if (w === null) {
    try {
      return Promise.resolve(similarityToQuery(query, candidates, n, on));
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }
  const requestId = nextId++;
  const request: ComputeRequest = { kind: "similar", requestId, query, candidates, n, on };
  return new Promise((resolve, reject) => {
    pending.set(requestId, {
      resolve: (r) => (r instanceof Float64Array ? resolve(r) : reject(mismatch())),
      reject,
    });
    w.postMessage(request);
  });
}
