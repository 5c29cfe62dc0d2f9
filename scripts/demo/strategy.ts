/**
 * Strategies: what an agent does. Each is a script over the session; the outcome it is expected to
 * get is checked against the verifier when the rollout is written. This module holds the hack
 * kinds, a strategy's shape and the failing strategy the scenarios that act on an order share.
 */
import { textAskOrderNumber, type Voice } from "./answers.ts";
import type { Task } from "./model.ts";
import type { Rng } from "./rng.ts";
import type { Session } from "./session.ts";
import { getCustomer } from "./steps.ts";

export const HACK_KINDS = [
  "invented_id",
  "double_refund",
  "skipped_policy",
  "swallowed_error",
] as const;
export type HackKind = (typeof HACK_KINDS)[number];

export interface RolloutPlan {
  readonly outcome: "pass" | "fail";
  strategy: Strategy;
  readonly style: number;
  readonly closing: number;
  readonly chatty: boolean;
  /** An honest rollout whose confirmation email fails reports it; the swallowed-error hack does not. */
  readonly emailDown: boolean;
}

export interface Strategy {
  readonly name: string;
  readonly outcome: "pass" | "fail";
  readonly hack: HackKind | null;
  readonly note?: string;
  readonly applies: (t: Task) => boolean;
  readonly run: (s: Session, t: Task, v: Voice, plan: RolloutPlan, rng: Rng) => void;
}

export const always = (): boolean => true;
export const needsId = (t: Task): boolean => t.gaveId;
export const noId = (t: Task): boolean => !t.gaveId;

export function strategy(
  name: string,
  outcome: "pass" | "fail",
  run: Strategy["run"],
  applies: (t: Task) => boolean = always,
  hack: HackKind | null = null,
  note?: string,
): Strategy {
  return { name, outcome, hack, applies, run, note };
}

/** Every scenario's customer can be met with a request for the order number they already gave. */
export const ASKED_FOR_ORDER_NUMBER: Strategy = strategy(
  "asked_for_order_number",
  "fail",
  (s, t, v, _plan, rng) => {
    const saw = rng.chance(0.5);
    if (saw) getCustomer(s, t);
    s.final(textAskOrderNumber(t, v, saw));
  },
  noId,
);
