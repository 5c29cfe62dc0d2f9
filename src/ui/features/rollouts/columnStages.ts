/**
 * How many of a group's columns are mounted at each stage: the first ones with the group, the
 * rest a slice per task after (Columns.tsx, useStaged.ts).
 */

/**
 * Columns mounted with the group (pinned ones always are); a larger group mounts the rest
 * {@link COLUMNS_PER_STAGE} per task. At most 8 are on screen, and the first group's layout and
 * paint grew with every header mounted: 32 first took a `large-groups` first group to 830 ms
 * (median of 5) against 640 with 12.
 */
export const COLUMNS_FIRST = 12;
const COLUMNS_PER_STAGE = 64;

/** How many of `total` columns are mounted after `stage` stages (useStaged counts from 1). */
export function columnsMounted(total: number, stage: number): number {
  return Math.min(total, COLUMNS_FIRST + (stage - 1) * COLUMNS_PER_STAGE);
}

/** Stages that mount `total` columns: 1 up to {@link COLUMNS_FIRST}. */
export function columnStages(total: number): number {
  return total <= COLUMNS_FIRST ? 1 : 1 + Math.ceil((total - COLUMNS_FIRST) / COLUMNS_PER_STAGE);
}
