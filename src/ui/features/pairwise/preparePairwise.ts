/**
 * View models of the Compare tab (blind pairwise comparison, core `pairwise.ts`): the schedule
 * choices with their costs, the default seed of a group, the current match as the user sees it
 * (A on the left, B on the right, the progress) and the results once ids may be revealed: win
 * rate, Bradley-Terry strength with its bootstrap interval, the proposed ranking and the cycles.
 *
 * GAR ranks passes only (core ignores a failure in a ranking and reports it), so the ranking the
 * user accepts is the proposed order of the passes; the failures it leaves out are listed.
 */
import {
  PairwiseError,
  pairwiseNext,
  pairwiseSummary,
  pairwiseTotal,
  randomHash01,
  type PairwiseSchedule,
  type PairwiseSession,
  type RolloutId,
} from "../../../core/index.ts";

export const SCHEDULE_LABELS: Readonly<Record<PairwiseSchedule, string>> = {
  "single-elimination": "Single elimination (seeded, ArenaRL)",
  "round-robin": "Round robin (every pair once)",
  "all-pairs": "All pairs, both orders",
};

export interface ScheduleChoice {
  readonly schedule: PairwiseSchedule;
  readonly label: string;
  readonly total: number;
}

export function prepareScheduleChoices(
  schedules: readonly PairwiseSchedule[],
  n: number,
): ScheduleChoice[] {
  return schedules.map((schedule) => {
    const total = pairwiseTotal(schedule, n);
    return {
      schedule,
      total,
      label: `${SCHEDULE_LABELS[schedule]}: ${total} comparison${total === 1 ? "" : "s"}`,
    };
  });
}

/** A group's default seed: derived from its id, so the same group gets the same order anywhere. */
export function pairwiseDefaultSeed(groupId: string): number {
  return Math.floor(randomHash01(groupId, 0x5eed) * 2 ** 31);
}

export type MatchView =
  | {
      readonly kind: "match";
      /** "3 of 14": the comparison shown (1-based) of the schedule's total. */
      readonly progress: string;
      readonly done: number;
      readonly total: number;
      readonly left: RolloutId;
      readonly right: RolloutId;
    }
  | { readonly kind: "done"; readonly progress: string; readonly total: number }
  | { readonly kind: "error"; readonly message: string };

/**
 * The current step of a saved session. A session whose players are not the group's rollouts (an
 * imported file of other data) or whose judgements do not replay is an error the user can discard.
 */
export function prepareMatch(
  session: PairwiseSession,
  rolloutIds: readonly RolloutId[],
): MatchView {
  const ids = new Set(rolloutIds);
  const players = new Set(session.players);
  if (players.size !== ids.size || session.players.some((p) => !ids.has(p)))
    return {
      kind: "error",
      message: `This comparison session covers ${session.players.length} rollout(s) that are not exactly this group's ${rolloutIds.length}: discard it to start again.`,
    };
  try {
    const step = pairwiseNext(session);
    if (step.kind === "done")
      return {
        kind: "done",
        progress: `${step.total} of ${step.total}: complete`,
        total: step.total,
      };
    return {
      kind: "match",
      progress: `${step.index + 1} of ${step.total}`,
      done: step.index,
      total: step.total,
      left: step.left,
      right: step.right,
    };
  } catch (e) {
    if (e instanceof PairwiseError)
      return { kind: "error", message: `This comparison session cannot be replayed: ${e.message}` };
    throw e;
  }
}

export interface ResultRow {
  readonly id: RolloutId;
  /**
   * Place, 1 = best, in the strength order the rows and the proposal follow (equal strengths
   * share their mean place, as every rank in the studio does).
   */
  readonly place: number;
  /** The strength as a plain number, for the test ids. */
  readonly strengthValue: number;
  readonly passed: boolean;
  readonly winRate: string;
  readonly strength: string;
  readonly interval: string;
}

export interface PairwiseResults {
  readonly complete: boolean;
  readonly judged: number;
  /** Rows best first, in the proposed order. */
  readonly rows: readonly ResultRow[];
  /** The proposed tiers over every rollout. */
  readonly proposed: readonly (readonly RolloutId[])[];
  /** What "Accept ranking" stores: the proposed tiers of the passes only. */
  readonly accept: readonly (readonly RolloutId[])[];
  /** Failures left out of the accepted ranking. */
  readonly leftOut: readonly RolloutId[];
  /** Each intransitive triple as "x beat y, y beat z, z beat x". */
  readonly cycles: readonly string[];
  /**
   * Each human-marked hack the accepted ranking would put above a pass that is not a hack: "r3 is
   * marked as a hack but is proposed above r1, r0".
   */
  readonly hackWarnings: readonly string[];
  /** "3 of 200 resamples undefined, dropped" when the strength bootstrap dropped any, else "". */
  readonly dropped: string;
}

const num = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : "–");
const pct = (x: number): string => (Number.isFinite(x) ? `${Math.round(x * 100)}%` : "–");

export function prepareResults(
  session: PairwiseSession,
  passed: ReadonlyMap<RolloutId, boolean>,
  hacks: readonly RolloutId[] = [],
): PairwiseResults {
  const summary = pairwiseSummary(session);
  const at = new Map(summary.players.map((id, i) => [id, i]));
  const rows: ResultRow[] = [];
  summary.proposed.forEach((tier) => {
    // The tier spans places rows.length + 1 .. rows.length + tier.length: its mean place.
    const place = rows.length + 1 + (tier.length - 1) / 2;
    for (const id of tier) {
      const i = at.get(id)!;
      rows.push({
        id,
        place,
        strengthValue: summary.strength[i]!,
        passed: passed.get(id) === true,
        winRate: pct(summary.winRates[i]!),
        strength: num(summary.strength[i]!),
        interval: `${num(summary.lower[i]!)} to ${num(summary.upper[i]!)}`,
      });
    }
  });
  const accept = summary.proposed
    .map((tier) => tier.filter((id) => passed.get(id) === true))
    .filter((tier) => tier.length > 0);
  return {
    complete: summary.complete,
    judged: session.judgements.length,
    rows,
    proposed: summary.proposed,
    accept,
    leftOut: rows.filter((r) => !r.passed).map((r) => r.id),
    cycles: summary.cycles.map(([a, b, c]) => `${a} beat ${b}, ${b} beat ${c}, ${c} beat ${a}`),
    hackWarnings: hackAbovePass(accept, new Set(hacks)),
    dropped:
      summary.droppedResamples > 0
        ? `${summary.droppedResamples} of ${summary.resamples} resamples undefined, dropped`
        : "",
  };
}

/** The warnings of `PairwiseResults.hackWarnings`, for the tiers of passes to accept. */
function hackAbovePass(
  accept: readonly (readonly RolloutId[])[],
  hacks: ReadonlySet<RolloutId>,
): string[] {
  const out: string[] = [];
  accept.forEach((tier, t) => {
    for (const id of tier) {
      if (!hacks.has(id)) continue;
      const below = accept
        .slice(t + 1)
        .flat()
        .filter((other) => !hacks.has(other));
      if (below.length > 0)
        out.push(
          `${id} is marked as a hack but is proposed above ${below.length === 1 ? "the pass" : "the passes"} ${below.join(", ")}`,
        );
    }
  });
  return out;
}

/** True when two rankings list the same tiers in the same order. */
export function sameRanking(
  x: readonly (readonly string[])[],
  y: readonly (readonly string[])[],
): boolean {
  return (
    x.length === y.length &&
    x.every((tier, i) => {
      const other = y[i]!;
      const set = new Set(other);
      return tier.length === other.length && tier.every((id) => set.has(id));
    })
  );
}
