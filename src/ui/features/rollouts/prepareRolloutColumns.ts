/**
 * View model of one group's rollout columns: the header of each column (plain values for the
 * stable test ids, and what is shown beside them), the layout (visible columns, pins), and the
 * scroll synchronisation rule. Pure; RolloutColumns.tsx renders it.
 */
import {
  rolloutToolErrors,
  type AnalysisSettings,
  type GarSource,
  type GroupAnalysis,
  type RolloutGroup,
} from "../../../core/index.ts";
import { fixed3, plainNumber } from "../../components/numbers.ts";

export interface RewardComponentView {
  readonly name: string;
  /** Plain number; "n/a" when the component does not apply to this rollout. */
  readonly value: string;
}

export interface RolloutColumn {
  readonly id: string;
  readonly index: number;
  /** Plain values for the stable test ids `metric-*` (scripts read these); "" when absent. */
  readonly plain: {
    readonly reward: string;
    readonly rank: string;
    /** The place, 1 = best (`metric-place`). */
    readonly place: string;
    readonly winRate: string;
    readonly advantage: string;
    readonly garAdvantage: string;
    readonly cluster: string;
  };
  readonly passed: boolean;
  /**
   * False when the rollout has no reward (an agent trajectory without an evaluation report): it is
   * shown as unscored, not as a fail.
   */
  readonly scored: boolean;
  /** The advantage the trainer logged (three decimals), or null when the dump has none. */
  readonly trainerAdvantage: string | null;
  readonly cluster: number;
  readonly clusterSize: number;
  /** The GAR factor f of a ranked pass, as a plain number; "" when it has none. */
  readonly factor: string;
  readonly components: readonly RewardComponentView[];
  readonly hack: boolean;
  readonly humanLabel: string | null;
  readonly toolCalls: number;
  /** Tool results that are errors (core `toolResultError`). */
  readonly toolErrors: number;
  /** Characters of the compared text (the settings' completion rule). */
  readonly length: number;
  /** What the place, rank and win rate order by: the reward, or the ranking GAR applies. */
  readonly rankSource: "reward" | GarSource;
  /** The group's size, for the place's "of 6". */
  readonly groupSize: number;
}

export interface RolloutColumnsView {
  readonly columns: readonly RolloutColumn[];
  /** Whether any rollout has a logged trainer's advantage (the column then shows it). */
  readonly hasTrainer: boolean;
  /** Whether the group's annotation gives GAR values (a ranking that resolves). */
  readonly hasGar: boolean;
  /** Who ranked for GAR: the human, or a judge run where no person ranked; null without GAR. */
  readonly garSource: GarSource | null;
}

export function prepareRolloutColumns(
  group: RolloutGroup,
  analysis: GroupAnalysis,
  settings: AnalysisSettings,
): RolloutColumnsView {
  const anyScored = analysis.rollouts.some((s) => Number.isFinite(s.reward));
  const columns = group.rollouts.map((r, i): RolloutColumn => {
    const s = analysis.rollouts[i]!;
    const weights = settings.rewardWeights;
    const scored = Number.isFinite(s.reward);
    return {
      id: r.id,
      index: i,
      plain: {
        reward: plainNumber(s.reward),
        // A rollout without a reward competed with nobody: no place, rank or win rate ("–").
        // Its advantage is the trainer's (TRL gives an unscorable completion 0), unless no
        // rollout of the group is scored: then there is no trainer's number to show either.
        rank: scored ? plainNumber(s.rank) : "",
        place: scored ? plainNumber(s.place) : "",
        winRate: scored ? plainNumber(s.winRate) : "",
        advantage: anyScored ? plainNumber(s.advantage) : "",
        garAdvantage: plainNumber(s.garAdvantage),
        cluster: String(s.cluster),
      },
      passed: s.passed,
      scored,
      trainerAdvantage: s.trainerAdvantage === null ? null : fixed3(s.trainerAdvantage),
      cluster: s.cluster,
      clusterSize: s.clusterSize,
      factor: plainNumber(s.factor),
      components: Object.entries(r.rewards).map(([name, v]) => ({
        name: weights !== null && weights[name] !== undefined ? `${name} ×${weights[name]}` : name,
        value: v === null ? "n/a" : plainNumber(v),
      })),
      hack: s.hack,
      humanLabel: s.humanLabel,
      toolCalls: s.toolCalls,
      toolErrors: rolloutToolErrors(r),
      length: s.textLength,
      rankSource: analysis.rankSource,
      groupSize: analysis.n,
    };
  });
  return {
    columns,
    hasTrainer: columns.some((c) => c.trainerAdvantage !== null),
    hasGar: analysis.gar.kind === "applied",
    garSource: analysis.garSource,
  };
}

/** Whether two reward component lists show the same names and values. */
export function sameComponents(
  a: readonly RewardComponentView[],
  b: readonly RewardComponentView[],
): boolean {
  return (
    a === b ||
    (a.length === b.length && a.every((c, i) => c.name === b[i]!.name && c.value === b[i]!.value))
  );
}

/**
 * Whether two columns show the same values. The view model is rebuilt on every change of the
 * group's analysis, and a ranking keystroke changes a few numbers of some columns only: the
 * memoised columns compare with this and re-render only when what they show changed.
 */
export function sameRolloutColumn(a: RolloutColumn, b: RolloutColumn): boolean {
  if (a === b) return true;
  const p = a.plain;
  const q = b.plain;
  return (
    a.id === b.id &&
    a.index === b.index &&
    p.reward === q.reward &&
    p.rank === q.rank &&
    p.place === q.place &&
    p.winRate === q.winRate &&
    p.advantage === q.advantage &&
    p.garAdvantage === q.garAdvantage &&
    p.cluster === q.cluster &&
    a.passed === b.passed &&
    a.scored === b.scored &&
    a.trainerAdvantage === b.trainerAdvantage &&
    a.cluster === b.cluster &&
    a.clusterSize === b.clusterSize &&
    a.factor === b.factor &&
    a.hack === b.hack &&
    a.humanLabel === b.humanLabel &&
    a.toolCalls === b.toolCalls &&
    a.toolErrors === b.toolErrors &&
    a.length === b.length &&
    a.rankSource === b.rankSource &&
    a.groupSize === b.groupSize &&
    sameComponents(a.components, b.components)
  );
}

/** The choices of the "columns visible" control. */
export const VISIBLE_CHOICES = [2, 3, 4, 5, 6, 7, 8] as const;
const VISIBLE_MAX = 8;
export const VISIBLE_DEFAULT = 4;
/** At most this many columns can be pinned. */
export const MAX_PINNED = 2;

/**
 * How many columns share the width: the choice, but never more than the group has (a group of
 * two fills the width with two), and at least one.
 */
export function visibleColumns(choice: number, rollouts: number): number {
  return Math.max(1, Math.min(choice, rollouts, VISIBLE_MAX));
}

/**
 * Pins after a click on a column's pin: unpins a pinned column, pins another while fewer than
 * MAX_PINNED are pinned, and otherwise leaves the pins as they are (the control is disabled).
 */
export function togglePin(pinned: readonly string[], id: string): readonly string[] {
  if (pinned.includes(id)) return pinned.filter((p) => p !== id);
  return pinned.length >= MAX_PINNED ? pinned : [...pinned, id];
}

/**
 * The slot (0 or 1, from the left) of each pinned column, in group order; pinned columns move to
 * the left edge visually while the DOM keeps group order (scripts read columns in DOM order).
 */
export function pinSlots(
  columns: readonly { readonly id: string }[],
  pinned: readonly string[],
): ReadonlyMap<string, number> {
  const slots = new Map<string, number>();
  for (const c of columns) if (pinned.includes(c.id)) slots.set(c.id, slots.size);
  return slots;
}

export interface ScrollBox {
  readonly scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

/**
 * Synchronised scrolling moves every other column to the same *relative* position (the same
 * fraction of its scrollable range): transcripts differ in length, and this keeps their starts
 * and ends together. A column that does not scroll stays at 0.
 */
export function syncedScrollTop(source: ScrollBox, target: Omit<ScrollBox, "scrollTop">): number {
  const from = source.scrollHeight - source.clientHeight;
  const to = target.scrollHeight - target.clientHeight;
  if (from <= 0 || to <= 0) return 0;
  return Math.round((Math.min(Math.max(source.scrollTop, 0), from) / from) * to);
}
