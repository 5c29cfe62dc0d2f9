/**
 * View model of the review bar: the queue of group ids under the chosen mode (core `reviewQueue`),
 * where the open group sits in it ("12 of 87"), how many of the queue are reviewed, and which
 * groups Previous and Next open (core `reviewNeighbours`, `reviewNextUnreviewed`). A group is mixed
 * as core `garIsMixed` counts it: some passes and some failures under the pass threshold (and the
 * reward weights, once the group is parsed).
 */
import {
  garIsMixed,
  reviewNeighbours,
  reviewNextUnreviewed,
  reviewPosition,
  reviewQueue,
  rolloutReward,
  type AnalysisSettings,
  type Annotations,
  type ReviewQueueMode,
  type RolloutGroup,
} from "../../../core/index.ts";
import type { GroupSummary } from "../../../io/dataset.ts";

export type QueueSettings = Pick<AnalysisSettings, "passThreshold" | "rewardWeights">;

/** Counts with thousands separators ("1 of 100,000"), in a fixed locale. */
const count = (n: number): string => n.toLocaleString("en-US");

/**
 * The queue's group ids, in file order. Whether a group is mixed is worked out only for the
 * "mixed" mode (the other modes do not read it): 100k groups at mount.
 */
export function prepareReviewQueue(
  summaries: readonly GroupSummary[],
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: QueueSettings,
  mode: ReviewQueueMode,
): string[] {
  const mixed = (s: GroupSummary): boolean => {
    const group = settings.rewardWeights === null ? undefined : groups.get(s.id);
    const rewards =
      group === undefined
        ? s.rewards
        : group.rollouts.map((r) => rolloutReward(r, settings.rewardWeights));
    return garIsMixed(rewards, settings.passThreshold);
  };
  const queueGroups = summaries.map((s) => ({
    id: s.id,
    mixed: mode.kind === "mixed" && mixed(s),
  }));
  return reviewQueue(queueGroups, mode);
}

// Each queue's ids as a set, made when a count first needs it (a queue is made once per mode and
// dataset, its count again on every annotation change).
const queueSets = new WeakMap<readonly string[], ReadonlySet<string>>();

function queueSet(queue: readonly string[]): ReadonlySet<string> {
  let set = queueSets.get(queue);
  if (set === undefined) {
    set = new Set(queue);
    queueSets.set(queue, set);
  }
  return set;
}

/**
 * How many groups of the queue are marked reviewed: through the annotations (usually far fewer
 * than the queue's groups; none at all for a new file, then the queue is not read).
 */
function reviewedCount(queue: readonly string[], annotations: Annotations): number {
  let count = 0;
  let ids: ReadonlySet<string> | null = null;
  for (const [id, annotation] of Object.entries(annotations.groups)) {
    if (annotation.reviewed !== true) continue;
    ids ??= queueSet(queue);
    if (ids.has(id)) count++;
  }
  return count;
}

export interface ReviewView {
  /** 1-based position of the open group, or null when it is not in the queue (or none is open). */
  readonly index: number | null;
  readonly total: number;
  /** "12 of 87", or "– of 87" when the open group is not in the queue. */
  readonly positionText: string;
  /** Groups of the queue marked reviewed. */
  readonly reviewed: number;
  /** Previous and next group in the queue; from outside the queue, Next is the first one. */
  readonly previous: string | null;
  readonly next: string | null;
  /** The first group of the queue not reviewed after the open one (wrapping), or null. */
  readonly nextUnreviewed: string | null;
}

export function prepareReview(
  queue: readonly string[],
  selected: string | null,
  annotations: Annotations,
): ReviewView {
  const pos = reviewPosition(queue, selected);
  const { previous, next } = reviewNeighbours(queue, selected);
  return {
    index: pos?.index ?? null,
    total: queue.length,
    positionText: `${pos === null ? "–" : count(pos.index)} of ${count(queue.length)}`,
    reviewed: reviewedCount(queue, annotations),
    previous,
    next,
    nextUnreviewed: reviewNextUnreviewed(
      queue,
      selected,
      (id) => annotations.groups[id]?.reviewed === true,
    ),
  };
}
