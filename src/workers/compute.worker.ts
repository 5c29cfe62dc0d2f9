/// <reference lib="webworker" />
/** The compute worker: a thin switch over the protocol onto src/core. */
import { ngramCluster } from "../core/index.ts";
import type { ComputeReply, ComputeRequest } from "./computeProtocol.ts";

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = (event: MessageEvent<ComputeRequest>) => {
  const request = event.data;
  let reply: ComputeReply;
  try {
    const result = ngramCluster(request.texts, { n: request.n, threshold: request.threshold });
    reply = { kind: "cluster", requestId: request.requestId, result };
    self.postMessage(reply, [result.similarity.buffer]);
  } catch (e) {
    reply = {
      kind: "error",
      requestId: request.requestId,
      message: e instanceof Error ? e.message : String(e),
    };
    self.postMessage(reply);
  }
};
