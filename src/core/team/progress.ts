/**
 * A queue's progress (issue 18): per person, groups assigned and submitted ("12 of 40") and the
 * next one to do; overall, the places (one per person and group) assigned and submitted; which
 * groups are complete and which overlap groups are ready for agreement.
 *
 * Only assigned places count: a submission for a group a person was not given is not progress on
 * this queue. When the work lists one person's group twice, the later entry counts (as in
 * `teamAgreement`).
 */
import type { GroupId } from "../types.ts";
import type { TeamAssignment, TeamUserName, TeamWorkStatus } from "./types.ts";

export interface TeamCount {
  readonly assigned: number;
  readonly submitted: number;
}

export interface TeamPersonProgress extends TeamCount {
  readonly user: TeamUserName;
  /** Their first group, in queue order, not submitted yet; null when every one is. */
  readonly next: GroupId | null;
}

export interface TeamProgress {
  /** Each annotator of the assignment, in its order. */
  readonly people: readonly TeamPersonProgress[];
  /** Every place (a person and a group of theirs): the sums of `people`. */
  readonly places: TeamCount;
  /** Groups in the queue. */
  readonly groups: number;
  /** Groups with at least one assignee, every one of whom submitted, in queue order. */
  readonly complete: readonly GroupId[];
  /**
   * Overlap groups at least two of whose assignees submitted, in queue order: those two (or more)
   * submitted annotations are what agreement compares.
   */
  readonly overlapReady: readonly GroupId[];
}

/** The key of one person's group: `teamLatestWork`'s map is keyed so. */
export function teamWorkKey(user: TeamUserName, groupId: GroupId): string {
  return `${user}\u0000${groupId}`;
}

/** The work by person and group (`teamWorkKey`), the later of two entries for the same place. */
export function teamLatestWork<W extends TeamWorkStatus>(work: readonly W[]): Map<string, W> {
  return new Map(work.map((w) => [teamWorkKey(w.user, w.groupId), w]));
}

/** A queue's progress from its assignment and the work so far (drafts and submissions). */
export function teamProgress(
  assignment: TeamAssignment,
  work: readonly TeamWorkStatus[],
): TeamProgress {
  const latest = teamLatestWork(work);
  const submitted = (user: TeamUserName, groupId: GroupId) =>
    latest.get(teamWorkKey(user, groupId))?.submitted === true;
  const people = assignment.annotators.map((user): TeamPersonProgress => {
    const groups = Object.hasOwn(assignment.byUser, user) ? assignment.byUser[user]! : [];
    const done = groups.filter((g) => submitted(user, g)).length;
    const next = groups.find((g) => !submitted(user, g)) ?? null;
    return { user, assigned: groups.length, submitted: done, next };
  });
  const complete: GroupId[] = [];
  const overlapReady: GroupId[] = [];
  for (const groupId of assignment.queue) {
    const users = Object.hasOwn(assignment.byGroup, groupId) ? assignment.byGroup[groupId]! : [];
    const done = users.filter((u) => submitted(u, groupId)).length;
    if (users.length > 0 && done === users.length) complete.push(groupId);
    if (users.length >= 2 && done >= 2) overlapReady.push(groupId);
  }
  return {
    people,
    places: {
      assigned: people.reduce((s, p) => s + p.assigned, 0),
      submitted: people.reduce((s, p) => s + p.submitted, 0),
    },
    groups: assignment.queue.length,
    complete,
    overlapReady,
  };
}

/** "12 of 40": submitted of assigned, as a person's queue shows it. */
export function teamProgressText(count: TeamCount): string {
  return `${count.submitted} of ${count.assigned}`;
}
