/// <reference lib="webworker" />
/** The verifier worker: a thin switch over the protocol onto core's `verifierScore`. */
import { verifierScore } from "../core/index.ts";
import type { VerifyReply, VerifyRequest } from "./verifyProtocol.ts";

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = (event: MessageEvent<VerifyRequest>) => {
  const request = event.data;
  let reply: VerifyReply;
  try {
    reply = {
      kind: "verify",
      requestId: request.requestId,
      run: verifierScore(request.spec, request.inputs),
    };
  } catch (e) {
    reply = {
      kind: "error",
      requestId: request.requestId,
      message: e instanceof Error ? e.message : String(e),
    };
  }
  self.postMessage(reply);
};
