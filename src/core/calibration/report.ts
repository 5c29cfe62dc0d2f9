/**
 * The calibration report: how well a source (judge run, reward, verifier) agrees with one
 * annotator, per split, with intervals; rank agreement; the corrected pass rate; the disagreements.
 *
 * - Every rollout with a human pass/fail label in a loaded group gets a split (stratified by the
 *   label, seeded, kept once assigned: see `calibrationAssign`). The split does not depend on the
 *   source compared, so switching judges never moves a row between dev and test.
 * - Rows are the labelled rollouts the source gave a verdict on.
 * - While the test split is sealed its rows enter no metric, no disagreement and no count of
 *   labels: only how many rows it holds is returned.
 * - The corrected pass rate applies Rogan-Gladen with dev's TPR and TNR (dev is the split meant
 *   for measuring the judge; train is for few-shot examples, test is sealed) to the source's
 *   observed pass rate over every rollout it judged in the loaded groups, labelled or not.
 */
import type { GroupId, RolloutGroup, RolloutId } from "../types.ts";
import {
  calibrationConfusion,
  calibrationCorrectedRate,
  type Confusion,
  type CorrectedRate,
} from "./agreement.ts";
import {
  CALIBRATION_BOOTSTRAP_DEFAULTS,
  calibrationMetricsBootstrap,
  calibrationStreamSeed,
  type CalibrationBootstrapOptions,
  type CalibrationInterval,
  type CalibrationMetricName,
} from "./bootstrap.ts";
import type { CalibrationHuman } from "./human.ts";
import {
  calibrationRankOverall,
  calibrationRankRow,
  type CalibrationRankOverall,
  type CalibrationRankRow,
} from "./rankAgreement.ts";
import type { CalibrationSource, CalibrationVerdict } from "./sources.ts";
import type { SplitName } from "./splits.ts";
import { calibrationAssign, type CalibrationRow, type CalibrationState } from "./state.ts";

/** A loaded group with its rewards under the settings, in rollout order. */
export interface CalibrationGroupInput {
  readonly group: RolloutGroup;
  readonly rewards: readonly number[];
}

export interface CalibrationReportInput {
  /** The loaded groups, in the order the view lists them (disagreements follow it). */
  readonly groups: readonly CalibrationGroupInput[];
  readonly human: CalibrationHuman;
  readonly source: CalibrationSource;
  readonly state: CalibrationState;
}

export interface CalibrationSplitReport {
  readonly split: SplitName;
  /** Rows (labelled and judged) in the split. */
  readonly n: number;
  readonly confusion: Confusion;
  readonly metrics: Readonly<Record<CalibrationMetricName, CalibrationInterval>>;
}

export interface CalibrationDisagreement {
  readonly groupId: GroupId;
  readonly rolloutId: RolloutId;
  readonly human: CalibrationVerdict;
  readonly judge: CalibrationVerdict;
  readonly split: SplitName;
}

export interface CalibrationCounts {
  /** Human pass/fail labels on rollouts of the loaded groups. */
  readonly labelled: number;
  /** Of those, the ones the source gave a verdict on: the report's rows. */
  readonly rows: number;
  /** Labelled rollouts the source gave no verdict on (not judged, judge error, no reward). */
  readonly unjudged: number;
  /** Deferred labels, left out. */
  readonly deferred: number;
  /** Labels on groups or rollouts that are not loaded (an indexed file's unparsed groups, unknown ids). */
  readonly notLoaded: number;
}

export interface CalibrationCorrected extends CorrectedRate {
  /** Rollouts the source judged in the loaded groups: the denominator of `observed`. */
  readonly judged: number;
  /** Dev rows the TPR and TNR (and their resamples) come from. */
  readonly devRows: number;
}

export interface CalibrationReport {
  /** The state with every labelled rollout's split recorded: persist it when it is a new object. */
  readonly state: CalibrationState;
  readonly counts: CalibrationCounts;
  readonly train: CalibrationSplitReport;
  readonly dev: CalibrationSplitReport;
  /** null while the test split is sealed: its labels and metrics are not computed. */
  readonly test: CalibrationSplitReport | null;
  /** Rows in the test split (a count only: no label is read). */
  readonly testRows: number;
  readonly sealed: boolean;
  readonly ranks: {
    readonly groups: readonly CalibrationRankRow[];
    readonly overall: CalibrationRankOverall;
  };
  readonly corrected: CalibrationCorrected;
  /** Rows where the source and the person disagree, in group then rollout order; none from a sealed test split. */
  readonly disagreements: readonly CalibrationDisagreement[];
  readonly options: CalibrationBootstrapOptions;
}

/**
 * The rows to place in splits: every human pass/fail label on a rollout of a loaded group, with
 * the label as its stratum. Also what the view persists through `calibrationAssign`.
 */
export function calibrationAssignRows(
  groups: readonly CalibrationGroupInput[],
  human: CalibrationHuman,
): CalibrationRow[] {
  const rows: CalibrationRow[] = [];
  for (const { group } of groups) {
    const labels = human.labels.get(group.id);
    if (labels === undefined) continue;
    for (const r of group.rollouts) {
      const label = labels.get(r.id);
      if (label !== undefined) rows.push({ rolloutId: r.id, label });
    }
  }
  return rows;
}

interface Row {
  readonly groupId: GroupId;
  readonly rolloutId: RolloutId;
  readonly human: CalibrationVerdict;
  readonly judge: CalibrationVerdict;
  readonly split: SplitName;
}

function splitReport(
  split: SplitName,
  rows: readonly Row[],
  seed: number,
  options: CalibrationBootstrapOptions,
): CalibrationSplitReport {
  const confusion = calibrationConfusion(
    rows.map((r) => r.judge === "pass"),
    rows.map((r) => r.human === "pass"),
  );
  return {
    split,
    n: rows.length,
    confusion,
    metrics: calibrationMetricsBootstrap(
      confusion,
      calibrationStreamSeed(seed, `metrics:${split}`),
      options,
    ),
  };
}

/**
 * The report of one source against one annotator (see the module comment for what each part
 * means). Deterministic: the bootstrap streams are seeded from the state's seed.
 */
export function calibrationReport(
  input: CalibrationReportInput,
  options: CalibrationBootstrapOptions = CALIBRATION_BOOTSTRAP_DEFAULTS,
): CalibrationReport {
  const { groups, human, source } = input;
  const assigned = calibrationAssign(input.state, calibrationAssignRows(groups, human));
  const state = assigned.state;
  const sealed = state.unsealed === null;

  const rows: Row[] = [];
  const judgedAll: boolean[] = [];
  const rankRows: CalibrationRankRow[] = [];
  let labelled = 0;
  const loaded = new Map<GroupId, ReadonlySet<RolloutId>>();
  for (const { group, rewards } of groups) {
    loaded.set(group.id, new Set(group.rollouts.map((r) => r.id)));
    const verdicts = source.verdicts(group, rewards);
    for (const v of verdicts.values()) judgedAll.push(v === "pass");
    const labels = human.labels.get(group.id);
    if (labels !== undefined)
      for (const r of group.rollouts) {
        const h = labels.get(r.id);
        if (h === undefined) continue;
        labelled++;
        const j = verdicts.get(r.id);
        const split = assigned.splits.get(r.id);
        if (j === undefined || split === undefined) continue;
        rows.push({ groupId: group.id, rolloutId: r.id, human: h, judge: j, split });
      }
    const humanRanking = human.rankings.get(group.id);
    if (humanRanking !== undefined) {
      const sourceRanking = source.ranking(group, rewards);
      if (sourceRanking !== null)
        rankRows.push(
          calibrationRankRow(
            group.id,
            group.rollouts.map((r) => r.id),
            humanRanking,
            sourceRanking,
          ),
        );
    }
  }
  let notLoaded = 0;
  for (const [groupId, labels] of human.labels) {
    const ids = loaded.get(groupId);
    for (const id of labels.keys()) if (ids === undefined || !ids.has(id)) notLoaded++;
  }

  const inSplit = (s: SplitName) => rows.filter((r) => r.split === s);
  const testRows = inSplit("test");
  const visible = sealed ? rows.filter((r) => r.split !== "test") : rows;
  const dev = inSplit("dev");
  const correctedRate = calibrationCorrectedRate(
    dev.map((r) => ({ predicted: r.judge === "pass", truth: r.human === "pass" })),
    judgedAll,
    {
      seed: calibrationStreamSeed(state.seed, "corrected"),
      samples: options.samples,
      level: options.level,
    },
  );
  return {
    state,
    counts: {
      labelled,
      rows: rows.length,
      unjudged: labelled - rows.length,
      deferred: human.counts.defer,
      notLoaded,
    },
    train: splitReport("train", inSplit("train"), state.seed, options),
    dev: splitReport("dev", dev, state.seed, options),
    test: sealed ? null : splitReport("test", testRows, state.seed, options),
    testRows: testRows.length,
    sealed,
    ranks: { groups: rankRows, overall: calibrationRankOverall(rankRows) },
    corrected: { ...correctedRate, judged: judgedAll.length, devRows: dev.length },
    disagreements: visible
      .filter((r) => r.human !== r.judge)
      .map((r) => ({
        groupId: r.groupId,
        rolloutId: r.rolloutId,
        human: r.human,
        judge: r.judge,
        split: r.split,
      })),
    options,
  };
}
