/**
 * The main thread's side of the health worker: one worker on a `WorkerChannel`, one run's health
 * at a time. A newer request cancels the one in flight by terminating its worker (a large run's
 * health takes seconds; its result would be stale on arrival), and the next starts a fresh one.
 * Without Workers (jsdom, a browser that refuses them) the health is computed on the main thread.
 */
import type { RunHealth } from "../core/index.ts";
import { computeRunHealth } from "./healthCompute.ts";
import type { HealthReply, HealthRequest } from "./healthProtocol.ts";
import { WorkerChannel } from "./workerChannel.ts";

const channel = new WorkerChannel<HealthRequest, HealthReply>(
  () => new Worker(new URL("./health.worker.ts", import.meta.url), { type: "module" }),
);

/** A request in flight: its result, and how to give up on it. */
export interface HealthJob {
  readonly result: Promise<RunHealth>;
  /** Stop computing (the worker is terminated); the result rejects with "cancelled". */
  cancel(): void;
}

export const HEALTH_CANCELLED = "cancelled";

/** The run's health over these groups, in the worker. */
export function requestRunHealth(input: Omit<HealthRequest, "kind" | "requestId">): HealthJob {
  const requestId = channel.nextRequestId();
  // Only a request still in flight is cancelled: terminating the worker stops every request it
  // holds, and a later one may be running by then.
  let inFlight = false;
  const result = new Promise<RunHealth>((resolve, reject) => {
    inFlight = channel.send(
      { kind: "health", requestId, ...input },
      {
        reply: (reply) => {
          inFlight = false;
          if (reply.kind === "error") reject(new Error(reply.message));
          else resolve(reply.result);
          return true;
        },
        stopped: (reason, detail) => {
          inFlight = false;
          reject(
            new Error(reason === "terminated" ? detail : `the health worker stopped: ${detail}`),
          );
        },
      },
    );
    if (inFlight) return;
    try {
      resolve(computeRunHealth(input));
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
  return {
    result,
    cancel: () => {
      if (inFlight) channel.terminate(HEALTH_CANCELLED);
    },
  };
}
