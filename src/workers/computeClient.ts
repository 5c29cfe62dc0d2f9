/**
 * The main thread's side of the compute worker: one long-lived worker on a `WorkerChannel`, and a
 * main-thread fallback when Workers are unavailable (jsdom, or a browser that refuses them).
 */
import {
  similarityCluster,
  similarityToQuery,
  type SimilarityInput,
  type SimilarityOn,
} from "../core/index.ts";
import type { ClusterOutput, ComputeReply, ComputeRequest } from "./computeProtocol.ts";
import { WorkerChannel } from "./workerChannel.ts";

const channel = new WorkerChannel<ComputeRequest, ComputeReply>(
  () => new Worker(new URL("./compute.worker.ts", import.meta.url), { type: "module" }),
);

/** What each request kind answers with. */
interface ComputeResults {
  readonly cluster: ClusterOutput;
  readonly similar: Float64Array;
}

/**
 * Run a request in the worker and take its result when the reply carries the same `kind` tag;
 * without Workers, run `here` on the main thread instead.
 */
function ask<K extends keyof ComputeResults>(
  kind: K,
  request: (requestId: number) => ComputeRequest & { readonly kind: K },
  here: () => ComputeResults[K],
): Promise<ComputeResults[K]> {
  return new Promise((resolve, reject) => {
    const sent = channel.send(request(channel.nextRequestId()), {
      reply: (reply) => {
        if (reply.kind === "error") reject(new Error(reply.message));
        // The tag matches, so the result is this kind's (TypeScript cannot narrow a generic K).
        else if (reply.kind === kind) resolve(reply.result as ComputeResults[K]);
        else reject(new Error("the compute worker answered with the wrong kind of result"));
        return true;
      },
      // Only a crash stops this long-lived worker; the next request starts a new one.
      stopped: (_reason, detail) => reject(new Error(`the compute worker stopped: ${detail}`)),
    });
    if (sent) return;
    try {
      resolve(here());
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
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
  return ask(
    "cluster",
    (requestId) => ({ kind: "cluster", requestId, inputs, ...config }),
    () => similarityCluster(inputs, config),
  );
}

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
  return ask(
    "similar",
    (requestId) => ({ kind: "similar", requestId, query, candidates, n, on }),
    () => similarityToQuery(query, candidates, n, on),
  );
}
