/** What the judge planners share: passes, outcome checks, per-group results (not exported from core). */
import type { GroupId, RolloutGroup } from "../types.ts";
import { JUDGE_GROUP_RESULT_EMPTY, type JudgeGroupResult } from "./runs.ts";
import type { JudgeFailure } from "./types.ts";
import type { JudgeTaskOutcome, JudgeTaskSpec } from "./plan.ts";

export function passIndices(rewards: readonly number[], threshold: number): number[] {
  return rewards.flatMap((r, i) => (Number.isFinite(r) && r >= threshold ? [i] : []));
}

export function checkOutcomes<T>(
  tasks: readonly JudgeTaskSpec<T>[],
  outcomes: readonly JudgeTaskOutcome<T>[],
): void {
  if (outcomes.length !== tasks.length)
    throw new Error(`expected ${tasks.length} judge outcomes, got ${outcomes.length}`);
  for (const [i, o] of outcomes.entries())
    if (o.id !== tasks[i]!.id)
      throw new Error(`judge outcome ${i} is for "${o.id}", not "${tasks[i]!.id}"`);
}

export const isCancelled = (o: JudgeTaskOutcome<unknown>): boolean =>
  !o.ok && o.error.kind === "cancelled";

/**
 * The results of a plan with one task per covered group (gar, cluster): a failed request is the
 * group's error, a cancelled one leaves the group out, a reply becomes `result`.
 */
export function resultsPerGroup<T>(
  tasks: readonly JudgeTaskSpec<T>[],
  covered: readonly RolloutGroup[],
  outcomes: readonly JudgeTaskOutcome<T>[],
  result: (group: RolloutGroup, value: T) => JudgeGroupResult,
): Record<GroupId, JudgeGroupResult> {
  checkOutcomes(tasks, outcomes);
  const out: Record<GroupId, JudgeGroupResult> = {};
  for (const [i, o] of outcomes.entries()) {
    if (isCancelled(o)) continue;
    const group = covered[i]!;
    out[group.id] = o.ok ? result(group, o.value) : { ...JUDGE_GROUP_RESULT_EMPTY, error: o.error };
  }
  return out;
}

export function failureText(error: JudgeFailure): string {
  return `${error.kind}: ${error.message}`;
}
