/**
 * The main thread's side of the verifier worker: one worker per lane at a time, a deadline, and cancel by
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

/** A run that takes longer is stopped: a pattern may be backtracking without end. */
export const VERIFY_DEADLINE_MS = 60_000;

/**
 * A worker slot: the run that applies the spec, and the check before applying one ("preview"), so
 * that a check never stops the run that keeps the data scored, nor the other way round.
 */
export type VerifyLane = "apply" | "preview";

interface Slot {
  worker: Worker | null;
  /** A run is in flight on `worker`. */
  busy: boolean;
}

const slots: Record<VerifyLane, Slot> = {
  apply: { worker: null, busy: false },
  preview: { worker: null, busy: false },
};
let workerUnavailable = false;
let nextId = 1;

function startWorker(): Worker | null {
  if (workerUnavailable || typeof Worker === "undefined") return null;
  try {
    return new Worker(new URL("./verify.worker.ts", import.meta.url), { type: "module" });
  } catch {
    workerUnavailable = true;
    return null;
  }
}

/** Stop whatever the slot's worker is doing; the next run starts a fresh one. */
function stopWorker(slot: Slot): void {
  slot.worker?.terminate();
  slot.worker = null;
  slot.busy = false;
}

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
  const slot = slots[options.lane ?? "apply"];
  // One run at a time per lane: a new run replaces the one in flight, which its caller has given up on.
  if (slot.busy) stopWorker(slot);
  slot.worker ??= startWorker();
  const w = slot.worker;
  if (w === null) {
    try {
      return Promise.resolve(verifierScore(spec, inputs));
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }
  const requestId = nextId++;
  return new Promise<VerifierRun>((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (slot.worker === w) slot.busy = false;
    };
    // Stopping mid-run is termination: the worker may be inside one long pattern match.
    const onAbort = (): void => {
      done();
      if (slot.worker === w) stopWorker(slot);
      reject(new DOMException("the verifier run was cancelled", "AbortError"));
    };
    const timer = setTimeout(() => {
      done();
      if (slot.worker === w) stopWorker(slot);
      reject(
        new Error(
          `the verifiers did not finish in ${deadlineMs / 1000} s and were stopped; a pattern may backtrack without end`,
        ),
      );
    }, deadlineMs);
    if (options.signal?.aborted) {
      onAbort();
      return;
    }
    options.signal?.addEventListener("abort", onAbort);
    w.onmessage = (event: MessageEvent<VerifyReply>) => {
      const reply = event.data;
      if (reply.requestId !== requestId) return;
      done();
      if (reply.kind === "error") reject(new Error(reply.message));
      else resolve(reply.run);
    };
    w.onerror = (event) => {
      done();
      if (slot.worker === w) stopWorker(slot);
      reject(new Error(`the verifier worker stopped: ${event.message}`));
    };
    const request: VerifyRequest = { kind: "verify", requestId, spec, inputs };
    slot.busy = true;
    w.postMessage(request);
  });
}
