/**
 * A team queue's groups (issue 18): the candidates a filter keeps, over plain per-group facts (so
 * the server builds a queue from a run without the studio), and the queue itself, every candidate
 * or a seeded sample of k. The flags are core's (`groupFlags`) and the sample is the review flow's
 * draw (`reviewQueue`), so a filter or a seed picks the same groups in the browser, the review
 * flow and a team queue.
 */
import { reviewQueue } from "../analysis/reviewQueue.ts";
import type { GroupId } from "../types.ts";
import { groupFlags } from "../util/passk.ts";

/** A group a queue may hold: its id and training step (null without one). */
export interface TeamCandidate {
  readonly id: GroupId;
  readonly step: number | null;
}

/** What a filter reads of a group. */
export interface TeamGroupFacts extends TeamCandidate {
  /** Each rollout's reward (NaN when unscored). */
  readonly rewards: readonly number[];
  /** Each rollout passed (`teamGroupFacts`: reward >= the pass threshold, as the browser counts). */
  readonly passed: readonly boolean[];
}

/** Training steps, both ends included. */
export interface TeamStepRange {
  readonly from: number;
  readonly to: number;
}

/** The queue filters; every checked one must hold (as in the group browser). */
export interface TeamFilter {
  /** Groups with both passes and failures. */
  readonly mixedOnly: boolean;
  /** Groups whose finite rewards are all equal (advantages all 0); never an unscored group. */
  readonly zeroStdOnly: boolean;
  /** Groups of these steps; a group without a step is then left out. Null: every step. */
  readonly steps: TeamStepRange | null;
}

export const TEAM_FILTER_NONE: TeamFilter = { mixedOnly: false, zeroStdOnly: false, steps: null };

/**
 * A group's facts with passes counted as the group browser counts them (`groupRewardStats`: a
 * reward >= the pass threshold passes; NaN never does).
 */
export function teamGroupFacts(
  id: GroupId,
  step: number | null,
  rewards: readonly number[],
  passThreshold: number,
): TeamGroupFacts {
  return { id, step, rewards, passed: rewards.map((r) => r >= passThreshold) };
}

/** Does the filter keep this group? Mixed and zero std are core's `groupFlags`. */
export function teamFilterKeeps(group: TeamGroupFacts, filter: TeamFilter): boolean {
  const flags = groupFlags(group.rewards, group.passed);
  return (
    (!filter.mixedOnly || flags.mixed) &&
    (!filter.zeroStdOnly || flags.zeroStd) &&
    (filter.steps === null ||
      (group.step !== null && group.step >= filter.steps.from && group.step <= filter.steps.to))
  );
}

/** The groups the filter keeps, in the given order, as queue candidates. */
export function teamCandidates(
  groups: readonly TeamGroupFacts[],
  filter: TeamFilter,
): TeamCandidate[] {
  return groups.filter((g) => teamFilterKeeps(g, filter)).map((g) => ({ id: g.id, step: g.step }));
}

/** Every candidate, or a seeded sample of `size` of them. */
export type TeamQueueSelection =
  | { readonly kind: "all" }
  | { readonly kind: "sample"; readonly size: number; readonly seed: number };

/**
 * Why a selection cannot be drawn, or null: a sample's size must be a whole number >= 1 and its
 * seed a whole number >= 0 (as `judge --sample N --seed S` takes them).
 */
export function teamSelectionProblem(selection: TeamQueueSelection): string | null {
  if (selection.kind === "all") return null;
  if (!Number.isInteger(selection.size) || selection.size < 1)
    return `a sample's size must be a whole number of at least 1, got ${selection.size}`;
  if (!Number.isInteger(selection.seed) || selection.seed < 0)
    return `a sample's seed must be a whole number of at least 0, got ${selection.seed}`;
  return null;
}

/**
 * The queue: ordered group ids. The order is by step (ascending; groups without a step last) and,
 * within a step, the candidates' order; a repeated id is kept once, where it first appears.
 *
 * A sample draws the `size` candidates with the smallest seeded hash of their id (`reviewQueue`'s
 * draw: the same seed draws the same groups whatever the candidates' order, and a group's chance
 * does not depend on the others), then lists them in the queue's order. A size at least the
 * number of candidates takes them all.
 *
 * @throws RangeError when `teamSelectionProblem` names a problem
 */
export function teamQueue(
  candidates: readonly TeamCandidate[],
  selection: TeamQueueSelection,
): GroupId[] {
  const problem = teamSelectionProblem(selection);
  if (problem !== null) throw new RangeError(problem);
  const seen = new Set<GroupId>();
  const unique: TeamCandidate[] = [];
  for (const c of candidates) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    unique.push(c);
  }
  const ordered = unique
    .map((c, index) => ({ c, index }))
    .sort(
      (a, b) =>
        stepKey(a.c.step) - stepKey(b.c.step) ||
        (a.c.step ?? 0) - (b.c.step ?? 0) ||
        a.index - b.index,
    )
    // reviewQueue's sample reads ids only (its `mixed` is for its own "mixed" mode).
    .map(({ c }) => ({ id: c.id, mixed: false }));
  if (selection.kind === "all") return ordered.map((c) => c.id);
  return reviewQueue(ordered, selection);
}

/** 0 for a group with a step, 1 without: steps first. */
function stepKey(step: number | null): number {
  return step === null ? 1 : 0;
}
