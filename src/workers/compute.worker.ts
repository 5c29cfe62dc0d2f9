/// <reference lib="webworker" />
/** The compute worker: a thin switch over the protocol onto src/core. */
import { similarityCluster, similarityToQuery } from "../core/index.ts";
import type { ComputeReply, ComputeRequest } from "./computeProtocol.ts";

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = (event: MessageEvent<ComputeRequest>) => {
  const request = event.data;
  let reply: ComputeReply;
  try {
    if (request.kind === "similar") {
      const result = similarityToQuery(request.query, request.candidates, request.n, request.on);
      reply = { kind: "similar", requestId: request.requestId, result };
      self.postMessage(reply, [result.buffer]);
    } else {
      const result = similarityCluster(request.inputs, {
        n: request.n,
        threshold: request.threshold,
        on: request.on,
      });
      reply = { kind: "cluster", requestId: request.requestId, result };
      self.postMessage(reply, [result.similarity.buffer]);
    }
  } catch (e) {
    reply = {
      kind: "error",
      requestId: request.requestId,
      message: e instanceof Error ? e.message : String(e),
    };
    self.postMessage(reply);
  }
};
