/// <reference lib="webworker" />
/** The health worker: a thin switch over the protocol onto src/core (./healthCompute.ts). */
import { computeRunHealth } from "./healthCompute.ts";
import type { HealthReply, HealthRequest } from "./healthProtocol.ts";

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = (event: MessageEvent<HealthRequest>) => {
  const request = event.data;
  let reply: HealthReply;
  try {
    reply = { kind: "health", requestId: request.requestId, result: computeRunHealth(request) };
  } catch (e) {
    reply = {
      kind: "error",
      requestId: request.requestId,
      message: e instanceof Error ? e.message : String(e),
    };
  }
  self.postMessage(reply);
};
