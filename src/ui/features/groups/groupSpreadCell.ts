/**
 * The group browser's spread cell: core's spread check of a group (over a person's ranking, or
 * over its rewards) as a status and the report's text for the tooltip.
 */
import {
  rankingSpreadScores,
  spreadCheck,
  spreadReportVerdict,
  spreadVerdict,
  statsFinite,
  type AnalysisSettings,
  type GroupAnnotation,
  type RolloutGroup,
  type SpreadVerdict,
} from "../../../core/index.ts";

export type SpreadStatus = SpreadVerdict;

export interface SpreadCell {
  /** "n/a" when fewer than two scores: the check cannot tell anything apart. */
  readonly status: SpreadStatus;
  /**
   * The spread report and what it was computed over (the cell's tooltip). The status and the
   * title are getters for rows without a ranking (`RewardSpreadCell`): read them by name, an object
   * spread does not copy them.
   */
  readonly title: string;
}

/** The settings the spread depends on. */
type SpreadSettings = Pick<AnalysisSettings, "passThreshold" | "rewardWeights" | "minFactor">;

/**
 * The spread cell of a group without a ranking (every row at mount): `rewardSpread`'s status and
 * report text, each worked out when first read (the status to render or sort the row, the text for
 * its tooltip) and kept. Building them for 100k groups in the mounting render cost about half of
 * preparing the rows.
 */
export class RewardSpreadCell implements SpreadCell {
  readonly #rewards: readonly number[];
  #status: SpreadStatus | null = null;
  #title: string | null = null;

  constructor(rewards: readonly number[]) {
    this.#rewards = rewards;
  }

  get status(): SpreadStatus {
    // spreadCheck's verdict over the finite rewards, without its report.
    this.#status ??= spreadVerdict(statsFinite(this.#rewards));
    return this.#status;
  }

  get title(): string {
    this.#title ??= rewardSpread(this.#rewards).title;
    return this.#title;
  }
}

/**
 * The spread check (core `spreadCheck`, methods.md 2.5) of one group. With a human ranking, over
 * the GAR factors (core `rankingSpreadScores`: `garFactorsOfKept`, settings.minFactor) of its ranked
 * passes that are not hacks, re-ranked among themselves; whether a ranked rollout passes is checked
 * only when the group is parsed (the tooltip says so otherwise). Without a ranking, over the
 * group's finite rewards.
 */
export function groupSpread(
  rewards: readonly number[],
  annotation: GroupAnnotation | undefined,
  group: RolloutGroup | undefined,
  settings: SpreadSettings,
): SpreadCell {
  if (annotation === undefined || annotation.ranking.length === 0) return rewardSpread(rewards);
  let scores: number[];
  try {
    scores = rankingSpreadScores(annotation, group?.rollouts, settings);
  } catch (e) {
    return {
      status: "n/a",
      title: `spread check: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  return spreadCell(
    scores,
    `the GAR factors of ${scores.length} ranked non-hack pass${scores.length === 1 ? "" : "es"} ` +
      `(min factor ${settings.minFactor})` +
      (group === undefined ? "; pass status not checked, the group is not parsed yet" : ""),
  );
}

/** The spread check of a group without a ranking: over its finite rewards. */
export function rewardSpread(rewards: readonly number[]): SpreadCell {
  const scores = statsFinite(rewards);
  return spreadCell(
    scores,
    `the rewards of ${scores.length} rollout${scores.length === 1 ? "" : "s"}`,
  );
}

function spreadCell(scores: readonly number[], over: string): SpreadCell {
  const report = spreadCheck(scores, 1);
  return {
    status: spreadReportVerdict(report),
    title: `${report.text}\nComputed over ${over}.`,
  };
}
