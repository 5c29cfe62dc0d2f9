/**
 * View model of the review bar: the queue of group ids under the chosen mode (core `reviewQueue`),
 * where the open group sits in it ("12 of 87"), how many of the queue are reviewed, and which
 * groups Previous and Next open. A group is mixed as the group browser counts it: some passes and
 * some failures under the pass threshold (and the reward weights, once the group is parsed).
 */
import {
  groupFlags,
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

/** The queue's group ids, in file order. */
export function prepareReviewQueue(
  summaries: readonly GroupSummary[],
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: QueueSettings,
  mode: ReviewQueueMode,
): string[] {
  const queueGroups = summaries.map((s) => {
    const group = settings.rewardWeights === null ? undefined : groups.get(s.id);
    const rewards =
      group === undefined
        ? s.rewards
        : group.rollouts.map((r) => rolloutReward(r, settings.rewardWeights));
    return {
      id: s.id,
      mixed: groupFlags(
        rewards,
        rewards.map((r) => r >= settings.passThreshold),
      ).mixed,
    };
  });
  return reviewQueue(queueGroups, mode);
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
  const isReviewed = (id: string): boolean => annotations.groups[id]?.reviewed === true;
  const reviewed = queue.filter(isReviewed).length;
  const i = pos === null ? -1 : pos.index - 1;
  let nextUnreviewed: string | null = null;
  for (let k = 1; k <= queue.length; k++) {
    const id = queue[(i + k + queue.length) % queue.length]!;
    if (id !== selected && !isReviewed(id)) {
      nextUnreviewed = id;
      break;
    }
  }
  return {
    index: pos?.index ?? null,
    total: queue.length,
    positionText: `${pos === null ? "–" : pos.index} of ${queue.length}`,
    reviewed,
    previous: i > 0 ? queue[i - 1]! : null,
    next: i + 1 < queue.length ? queue[i + 1]! : null,
    nextUnreviewed,
  };
}
