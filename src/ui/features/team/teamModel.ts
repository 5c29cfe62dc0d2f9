/**
 * View models of the team panel and the queue bar (issue 18, the annotator's side): the person's
 * queues with their progress (core's `teamProgressText`, "12 of 40", of the server's progress
 * row), the open queue's groups with where each stands, the bar's place in the queue with its
 * previous and next group, and what the Submit button may do. Pure; the components render them.
 */
import {
  groupAnnotationIsEmpty,
  teamProgressText,
  type GroupAnnotation,
  type Annotations,
} from "../../../core/index.ts";
import type { TeamQueueViewReply, TeamStateReply } from "../../../io/view/teamApi.ts";
import type { TeamQueueEntry, TeamSubmitState } from "../../../store/slices/teamSlice.ts";
import { teamItemStatus, type TeamItemStatus } from "../../../store/team/teamSelectors.ts";

export interface QueueRow {
  readonly name: string;
  readonly blind: boolean;
  /** "12 of 40" (submitted of assigned), or null when the progress could not be read. */
  readonly progressText: string | null;
  readonly open: boolean;
}

/**
 * The queues giving the person groups: an annotator's listing holds only theirs; a lead's holds
 * every queue, of which those with groups for the lead themself are listed here (the lead's
 * section lists them all).
 */
export function teamQueueRows(
  entries: readonly TeamQueueEntry[],
  user: string,
  role: "annotator" | "lead",
  openName: string | null,
): QueueRow[] {
  const rows: QueueRow[] = [];
  for (const { queue, progress } of entries) {
    const mine = progress?.find((row) => row.user === user) ?? null;
    if (role === "lead" && (mine === null || mine.assigned === 0)) continue;
    rows.push({
      name: queue.name,
      blind: queue.blind,
      progressText: mine === null ? null : teamProgressText(mine),
      open: queue.name === openName,
    });
  }
  return rows;
}

export interface QueueItemRow {
  readonly groupId: string;
  /** 1-based place among the person's groups of the queue. */
  readonly place: number;
  readonly status: TeamItemStatus;
  readonly current: boolean;
}

/** The person's groups of the open queue, in queue order, with where each stands. */
export function teamQueueItems(
  view: TeamQueueViewReply,
  user: string,
  state: TeamStateReply | null,
  annotations: Annotations,
  selected: string | null,
): QueueItemRow[] {
  return view.items
    .filter((item) => item.assignees.includes(user))
    .sort((a, b) => a.position - b.position)
    .map((item, i) => ({
      groupId: item.groupId,
      place: i + 1,
      status: teamItemStatus(item.groupId, state, annotations),
      current: item.groupId === selected,
    }));
}

export const STATUS_TEXT: Readonly<Record<TeamItemStatus, string>> = {
  todo: "to do",
  draft: "draft",
  submitted: "submitted",
};

export interface QueueBarModel {
  /** "Group 3 of 40 in this queue", or that the open group is not one of its groups. */
  readonly placeText: string;
  readonly prev: string | null;
  readonly next: string | null;
  readonly prevTitle: string;
  readonly nextTitle: string;
}

/**
 * The bar's place in the queue: previous and next are the neighbours of the open group; from a
 * group outside the queue, Next opens the first group not submitted (else the first).
 */
export function teamQueueBar(items: readonly QueueItemRow[], groupId: string): QueueBarModel {
  const at = items.findIndex((item) => item.groupId === groupId);
  if (at === -1) {
    const next = items.find((item) => item.status !== "submitted") ?? items[0] ?? null;
    return {
      placeText: `This group is not in the queue (${items.length} groups)`,
      prev: null,
      next: next?.groupId ?? null,
      prevTitle: "The open group is not in the queue",
      nextTitle:
        next === null ? "The queue has no groups" : `Open the queue's group ${next.groupId}`,
    };
  }
  const prev = at > 0 ? items[at - 1]! : null;
  const next = at < items.length - 1 ? items[at + 1]! : null;
  return {
    placeText: `Group ${at + 1} of ${items.length} in the queue`,
    prev: prev?.groupId ?? null,
    next: next?.groupId ?? null,
    prevTitle: prev === null ? "The first group of the queue" : `Open ${prev.groupId}`,
    nextTitle: next === null ? "The last group of the queue" : `Open ${next.groupId}`,
  };
}

export type SubmitModel =
  | { readonly kind: "submitted"; readonly text: string; readonly title: string }
  | {
      readonly kind: "submit";
      readonly disabled: boolean;
      /** Why the button is disabled, or what submitting does. */
      readonly title: string;
      /** Said beside a disabled button. */
      readonly reason: string | null;
      readonly busy: boolean;
      readonly error: string | null;
    };

const NOTHING = "Nothing to submit yet: label, rank or mark this group first.";

/** What the Submit button of a group shows and may do. */
export function teamSubmitModel(
  groupId: string,
  state: TeamStateReply | null,
  annotation: GroupAnnotation | undefined,
  submit: TeamSubmitState | undefined,
): SubmitModel {
  const at =
    state !== null && Object.hasOwn(state.submitted, groupId) ? state.submitted[groupId]! : null;
  if (at !== null)
    return {
      kind: "submitted",
      text: "Submitted",
      title: `You submitted this group (${at}). Changes you make now are saved, and stay submitted.`,
    };
  const empty = annotation === undefined || groupAnnotationIsEmpty(annotation);
  const busy = submit?.status === "submitting";
  return {
    kind: "submit",
    disabled: empty || busy || state === null,
    title: empty
      ? NOTHING
      : state === null
        ? "Your team state is being read"
        : "Submit your annotation of this group: in a blind queue, its rewards and judge verdicts then show",
    reason: empty ? NOTHING : null,
    busy,
    error: submit?.status === "error" ? submit.message : null,
  };
}
