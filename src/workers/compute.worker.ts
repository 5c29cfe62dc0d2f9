/// <reference lib="webworker" />
/** The compute worker: a thin switch over the protocol onto src/core. */
import { ngramCluster } from "../core/index.ts";
import { similarToQuery, type ComputeReply, type ComputeRequest } from "./computeProtocol.ts";

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = (event: MessageEvent<ComputeRequest>) => {
  const request = event.data;
  let reply: ComputeReply;
  try {
    if (request.kind === "similar") {
      const result = similarToQuery(request.query, request.texts, request.n);
      reply = { kind: "similar", requestId: request.requestId, result };
      self.postMessage(reply, [result.buffer]);
    } else {
      const result = ngramCluster(request.texts, { n: request.n, threshold: request.threshold });
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
