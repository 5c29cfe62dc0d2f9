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
