/**
 * Team mode's shared shapes (issue 18): a person's name and role, a queue's assignment, and one
 * person's work on one group. Users, tokens and the database live in the store and the server;
 * these are the plain values the pure rules of `core/team/` take and return, the same in the
 * server (which applies them) and the studio (which shows them).
 */
import type { GroupAnnotation } from "../analysis/annotations.ts";
import type { GroupId } from "../types.ts";

/** A person's user name (unique in a team: the key of their annotations). */
export type TeamUserName = string;

/** An annotator labels their queue; a lead makes queues, sees everyone's work and resolves. */
export type TeamRole = "annotator" | "lead";

/**
 * A queue handed out to annotators. `byGroup` is what a store keeps; `teamAssignmentOf` derives
 * the rest from it and the queue.
 */
export interface TeamAssignment {
  /** The queue: group ids in reading order. */
  readonly queue: readonly GroupId[];
  /** The annotators, in the order the lead gave them. */
  readonly annotators: readonly TeamUserName[];
  /** Per group of the queue, its annotators (one, or two for an overlap group), in annotator order. */
  readonly byGroup: Readonly<Record<GroupId, readonly TeamUserName[]>>;
  /** Per annotator (every one, possibly with none), their groups in queue order. */
  readonly byUser: Readonly<Record<TeamUserName, readonly GroupId[]>>;
  /** The groups given to two people or more, in queue order. */
  readonly overlap: readonly GroupId[];
}

/** Where one person stands on one group: whether they submitted it. */
export interface TeamWorkStatus {
  readonly user: TeamUserName;
  readonly groupId: GroupId;
  /**
   * They pressed submit. Until then the annotation is a draft: it counts for no agreement and, in
   * a blind queue, the rewards and judge verdicts stay hidden from them (`teamVisibility`).
   */
  readonly submitted: boolean;
}

/** One person's annotation of one group, and whether it is submitted. */
export interface TeamWork extends TeamWorkStatus {
  readonly annotation: GroupAnnotation;
}
