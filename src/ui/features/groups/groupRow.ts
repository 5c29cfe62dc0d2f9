/**
 * One prepared row of the group browser per group: core's numbers, flags and spread for its
 * rewards, shaped for the table (the prompt as one line, the annotation's status text), in file
 * order (`prepareGroupRows`). `rowFromSummary` builds one row; the incremental and sliced builders
 * and the annotated rows reuse it.
 */
import {
  groupRewards,
  groupRewardStats,
  rolloutToolErrors,
  type AnalysisSettings,
  type ChatMessage,
  type GroupAnnotation,
  type GroupRewardStats,
  type RolloutGroup,
} from "../../../core/index.ts";
import { groupSpread, RewardSpreadCell, type SpreadCell } from "./groupSpreadCell.ts";
import { promptText, type GroupSummary } from "./groupSummaries.ts";

const PREVIEW = 120;

// Anything `preview` would change: a whitespace run, whitespace other than a space, or a space at
// either end. `\s` and `trim` agree on what whitespace is (WhiteSpace and LineTerminator).
const NOT_FLAT = /\s\s|[^\S ]|^ | $/;

function preview(text: string): string {
  // Most prompt previews are one line already (an indexed file's summaries are flat, up to 160
  // characters): only cut them. Flattening every one again cost ~4 µs a row (37k rows: 150 ms).
  const flat = NOT_FLAT.test(text) ? text.replace(/\s+/g, " ").trim() : text;
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW)}…` : flat;
}

/** The prompt as one line: text as is, messages as their last user turn. */
export function promptPreview(prompt: string | readonly ChatMessage[] | null): string {
  return preview(promptText(prompt));
}

/**
 * A group's row. Its numbers and flags (passes, mean and std, shown with `statText`, mixed, zero
 * std, unscored: never shown as zero std) are core's `groupRewardStats` of its rewards.
 */
export interface GroupRow extends GroupRewardStats {
  readonly id: string;
  /** Position in the file (the summaries' order): the default order and every sort's tie-break. */
  readonly index: number;
  /** The training step (the summary's: the rows' step, else the run file's); null without one. */
  readonly step: number | null;
  readonly prompt: string;
  readonly n: number;
  /** Fewer rollouts than most groups of the file. */
  readonly partial: boolean;
  /** The group's rollouts are parsed (always for a whole-file load; on demand for indexed files). */
  readonly parsed: boolean;
  readonly spread: SpreadCell;
  /** Rollouts annotated as hacks (by a person). */
  readonly hacks: number;
  /** Tool results that are errors (core `toolResultError`); null while the group is not parsed. */
  readonly toolErrors: number | null;
  /**
   * Passes the latest gar run with an entry for the group flags as hacks (0 without one), and who
   * flagged them: shown apart from the human marks, "2 (heuristic)" (`flagGroupRows`).
   */
  readonly flagged: number;
  readonly flaggedBy: "heuristic" | "judge" | null;
  /** "ranked · labelled 2/4 · notes", or "" without an annotation. */
  readonly annotation: string;
  /** Sort weight of the annotation: ranked first, then the share labelled, then notes. */
  readonly annotationWeight: number;
  readonly reviewed: boolean;
  /** Blind mode blanked its reward and judge values (groupRowsBlind.ts); absent otherwise. */
  readonly blind?: boolean;
}

/** The settings the rows depend on (not the advantage or clustering settings). */
export type RowSettings = Pick<
  AnalysisSettings,
  "passThreshold" | "rewardWeights" | "minFactor" | "completionRule"
>;

const NO_ANNOTATION = { text: "", weight: 0 } as const;

/** The annotation column's text and sort weight. */
export function annotationStatus(
  annotation: GroupAnnotation | undefined,
  n: number,
): { readonly text: string; readonly weight: number } {
  if (annotation === undefined) return NO_ANNOTATION;
  const ranked = annotation.ranking.some((tier) => tier.length > 0);
  const labelled = Object.keys(annotation.labels).length;
  const notes = annotation.notes.trim() !== "";
  const parts = [
    ranked ? "ranked" : null,
    labelled > 0 ? `labelled ${labelled}/${n}` : null,
    notes ? "notes" : null,
  ].filter((p): p is string => p !== null);
  const share = n > 0 ? Math.min(1, labelled / n) : 0;
  return { text: parts.join(" · "), weight: (ranked ? 1e6 : 0) + share * 1e3 + (notes ? 1 : 0) };
}

/** Tool errors of a group, counted once per parsed group object (rows rebuild on annotations). */
const toolErrorCounts = new WeakMap<RolloutGroup, number>();
function groupToolErrors(group: RolloutGroup): number {
  let n = toolErrorCounts.get(group);
  if (n === undefined) {
    n = 0;
    for (const r of group.rollouts) n += rolloutToolErrors(r);
    toolErrorCounts.set(group, n);
  }
  return n;
}

/** One group's row: `summary` at `index` of the file, with its parsed group and annotation if any. */
export function rowFromSummary(
  summary: GroupSummary,
  index: number,
  group: RolloutGroup | undefined,
  annotation: GroupAnnotation | undefined,
  settings: RowSettings,
): GroupRow {
  const rewards = groupRewards(summary.rewards, group?.rollouts, settings.rewardWeights);
  const n = rewards.length;
  const stats = groupRewardStats(rewards, settings.passThreshold);
  let spread: SpreadCell;
  if (annotation !== undefined && annotation.ranking.length > 0) {
    spread = groupSpread(rewards, annotation, group, settings);
  } else {
    spread = new RewardSpreadCell(rewards);
  }
  const status = annotationStatus(annotation, n);
  return {
    id: summary.id,
    index,
    step: summary.step,
    prompt:
      summary.prompt !== ""
        ? preview(summary.prompt)
        : promptPreview(group?.rollouts[0]?.prompt ?? null),
    n,
    passes: stats.passes,
    mean: stats.mean,
    std: stats.std,
    mixed: stats.mixed,
    zeroStd: stats.zeroStd,
    unscored: stats.unscored,
    partial: summary.partial,
    parsed: group !== undefined,
    spread,
    hacks: annotation?.hacks.length ?? 0,
    toolErrors: group === undefined ? null : groupToolErrors(group),
    flagged: 0,
    flaggedBy: null,
    annotation: status.text,
    annotationWeight: status.weight,
    reviewed: annotation?.reviewed ?? false,
  };
}

/**
 * One row per group, in file order, without annotations (see `annotateGroupRows`).
 *
 * @param groups the parsed groups by id (all of them for a whole-file load)
 */
export function prepareGroupRows(
  summaries: readonly GroupSummary[],
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: RowSettings,
): GroupRow[] {
  return summaries.map((s, i) => rowFromSummary(s, i, groups.get(s.id), undefined, settings));
}
