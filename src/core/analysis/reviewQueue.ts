/**
 * The review flow's queue of groups (annotation issue): every group, the mixed ones only, or a
 * seeded random sample of N. A sample is chosen by each id's seeded hash (stable when groups are
 * added or removed elsewhere in the file) and kept in file order for reading.
 */
import { randomHash01 } from "../util/random.ts";

export type ReviewQueueMode =
  | { readonly kind: "all" }
  | { readonly kind: "mixed" }
  | { readonly kind: "sample"; readonly size: number; readonly seed: number };

export interface QueueGroup {
  readonly id: string;
  readonly mixed: boolean;
}

export function reviewQueue(groups: readonly QueueGroup[], mode: ReviewQueueMode): string[] {
  if (mode.kind === "all") return groups.map((g) => g.id);
  if (mode.kind === "mixed") return groups.filter((g) => g.mixed).map((g) => g.id);
  const size = Math.max(0, Math.floor(mode.size));
  const chosen = new Set(
    groups
      .map((g, i) => ({ id: g.id, key: randomHash01(g.id, mode.seed), i }))
      .sort((a, b) => a.key - b.key || a.i - b.i)
      .slice(0, size)
      .map((g) => g.id),
  );
  return groups.filter((g) => chosen.has(g.id)).map((g) => g.id);
}

/** "12 of 87": the position of a group in the queue (1-based), or null when it is not in it. */
export function reviewPosition(
  queue: readonly string[],
  groupId: string | null,
): { index: number; total: number } | null {
  const i = groupId === null ? -1 : queue.indexOf(groupId);
  return i === -1 ? null : { index: i + 1, total: queue.length };
}

/**
 * The groups Previous and Next open: the neighbours of `groupId` in the queue. From outside the
 * queue (or with none open) there is no previous, and Next is the queue's first group.
 */
export function reviewNeighbours(
  queue: readonly string[],
  groupId: string | null,
): { previous: string | null; next: string | null } {
  const i = groupId === null ? -1 : queue.indexOf(groupId);
  return {
    previous: i > 0 ? (queue[i - 1] ?? null) : null,
    next: queue[i + 1] ?? null,
  };
}

/**
 * The group "mark reviewed and next" opens: the first group after `groupId` in the queue (wrapping
 * round, from the start when it is not in the queue) that is not reviewed and is not `groupId`
 * itself, or null when every other group is reviewed.
 */
export function reviewNextUnreviewed(
  queue: readonly string[],
  groupId: string | null,
  isReviewed: (id: string) => boolean,
): string | null {
  const i = groupId === null ? -1 : queue.indexOf(groupId);
  for (let k = 1; k <= queue.length; k++) {
    const id = queue[(i + k) % queue.length];
    if (id !== undefined && id !== groupId && !isReviewed(id)) return id;
  }
  return null;
}
