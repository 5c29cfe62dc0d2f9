/**
 * The typed protocol between the main thread and the verifier worker: the spec and what each
 * rollout's verifiers read (core `verifierInput`, small and cloneable) go in; one outcome row per
 * input comes back. A worker of its own, so a run can be stopped by terminating it: a user's
 * pattern that backtracks catastrophically must not block clustering or the page.
 */
import type { VerifierInput, VerifierRun, VerifierSpec } from "../core/index.ts";

export interface VerifyRequest {
  readonly kind: "verify";
  readonly requestId: number;
  readonly spec: VerifierSpec;
  readonly inputs: readonly VerifierInput[];
}

export type VerifyReply =
  | { readonly kind: "verify"; readonly requestId: number; readonly run: VerifierRun }
  | { readonly kind: "error"; readonly requestId: number; readonly message: string };
