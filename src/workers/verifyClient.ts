/**
 * The main thread's side of the verifier worker: one `WorkerChannel` per lane, a deadline, and cancel by
 * termination (a stuck pattern cannot be interrupted any other way). Without Workers (jsdom, a
 * browser that refuses them) the run happens on the main thread. This module loads with the
 * verifier store, never with the first page.
 */
import {
  verifierScore,
  type VerifierInput,
  type VerifierRun,
  type VerifierSpec,
} from "../core/index.ts";
import type { VerifyReply, VerifyRequest } from "./verifyProtocol.ts";
import { WorkerChannel } from "./workerChannel.ts";

/** A run that takes longer is stopped: a pattern may be backtracking without end. */
export const VERIFY_DEADLINE_MS = 60_000;

/**
 * A worker slot: the run that applies the spec, and the check before applying one ("preview"), so
 * that a check never stops the run that keeps the data scored, nor the other way round.
 */
export type VerifyLane = "apply" | "preview";

const start = (): Worker =>
  new Worker(new URL("./verify.worker.ts", import.meta.url), { type: "module" });
const lanes: Record<VerifyLane, WorkerChannel<VerifyRequest, VerifyReply>> = {
  apply: new WorkerChannel(start),
  preview: new WorkerChannel(start),
};

const cancelled = (message: string): DOMException => new DOMException(message, "AbortError");

/**
 * Score the inputs with the spec's verifiers (core `verifierScore`) off the main thread. A run that
 * is aborted, or still going after `deadlineMs`, terminates the worker and rejects.
 */
export function verifyInputs(
  spec: VerifierSpec,
  inputs: readonly VerifierInput[],
  options: {
    readonly signal?: AbortSignal;
    readonly deadlineMs?: number;
    /** Which worker runs it (default "apply"). */
    readonly lane?: VerifyLane;
  } = {},
): Promise<VerifierRun> {
  const deadlineMs = options.deadlineMs ?? VERIFY_DEADLINE_MS;
  const channel = lanes[options.lane ?? "apply"];
  // One run at a time per lane: a new run replaces the one in flight, which its caller has given
  // up on (it is told so as an AbortError). Stopping mid-run is termination: the worker may be
  // inside one long pattern match.
  if (channel.pending > 0) channel.terminate("the verifier run was replaced by a newer one");
  return new Promise<VerifierRun>((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = (): void => {
      done();
      channel.terminate("the verifier run was cancelled");
    };
    if (options.signal?.aborted) {
      reject(cancelled("the verifier run was cancelled"));
      return;
    }
    const request: VerifyRequest = {
      kind: "verify",
      requestId: channel.nextRequestId(),
      spec,
      inputs,
    };
    const timer = setTimeout(() => {
      done();
      channel.forget(request.requestId);
      channel.terminate();
      reject(
        new Error(
          `the verifiers did not finish in ${deadlineMs / 1000} s and were stopped; a pattern may backtrack without end`,
        ),
      );
    }, deadlineMs);
    const sent = channel.send(request, {
      reply: (reply) => {
        done();
        if (reply.kind === "error") reject(new Error(reply.message));
        else resolve(reply.run);
        return true;
      },
      stopped: (reason, detail) => {
        done();
        reject(
          reason === "terminated"
            ? cancelled(detail)
            : new Error(`the verifier worker stopped: ${detail}`),
        );
      },
    });
    if (!sent) {
      done();
      try {
        resolve(verifierScore(spec, inputs));
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
      return;
    }
    options.signal?.addEventListener("abort", onAbort);
  });
}
