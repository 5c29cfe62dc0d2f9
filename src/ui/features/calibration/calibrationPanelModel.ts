/**
 * View model of the calibration panel's layout, for a picked source: which split table goes
 * where, the disagreement being walked, whether the test split can be unsealed (core
 * `calibrationCanUnseal`), the formula tooltips each part takes, and the walker's note.
 */
import {
  calibrationCanUnseal,
  type CalibrationFormulas,
  type CalibrationReport,
  type CalibrationRerunWarning,
  type CalibrationState,
  type SplitName,
} from "../../../core/index.ts";
import {
  prepareCorrected,
  prepareDisagreements,
  prepareSeal,
  type CorrectedView,
  type DisagreementView,
  type SealView,
  type SourceChoice,
  type SplitTable,
} from "./prepareCalibration.ts";

export interface CalibrationPanelView {
  /** Each split's table; test only once unsealed. */
  readonly tables: Readonly<Record<SplitName, SplitTable | undefined>>;
  readonly disagreements: readonly DisagreementView[];
  /** The disagreement open in the walker and its place in the list, or null. */
  readonly walking: { readonly item: DisagreementView; readonly index: number } | null;
  readonly corrected: CorrectedView;
  readonly seal: SealView;
  readonly canUnseal: boolean;
}

/** The panel's parts for the picked source; `walk` is the position the user asked for. */
export function prepareCalibrationPanel(
  report: CalibrationReport,
  state: CalibrationState,
  tables: readonly SplitTable[],
  choice: SourceChoice,
  warnings: readonly CalibrationRerunWarning[],
  walk: number | null,
): CalibrationPanelView {
  const table = (split: SplitName) => tables.find((t) => t.split === split);
  const { items, current } = prepareDisagreements(report, walk);
  const item = current === null ? undefined : items[current];
  return {
    tables: { train: table("train"), dev: table("dev"), test: table("test") },
    disagreements: items,
    walking: item === undefined || current === null ? null : { item, index: current },
    corrected: prepareCorrected(report),
    seal: prepareSeal(state, report, choice.source, warnings),
    canUnseal: calibrationCanUnseal(choice.hasVerdicts, report.testRows),
  };
}

/** The tooltips of the corrected pass rate. */
export function correctedTitles(formulas: CalibrationFormulas): {
  readonly observed: string;
  readonly corrected: string;
  readonly interval: string;
  readonly wilson: string;
} {
  return {
    observed: formulas.observed,
    corrected: formulas.corrected,
    interval: formulas.correctedInterval,
    wilson: formulas.correctedWilson,
  };
}

/**
 * The split settings' identity: the form starts again from the state when the seed, the shares
 * or the seal change (a re-split, an unseal), not on every render.
 */
export function splitSettingsKey(
  state: Pick<CalibrationState, "seed" | "fractions" | "unsealed">,
): string {
  return `${state.seed}:${state.fractions.train}:${state.fractions.dev}:${state.unsealed === null}`;
}

/** What the walker says once it tried to show a rollout: nothing, or where to find it. */
export function revealNote(
  item: Pick<DisagreementView, "groupId" | "rolloutId">,
  shown: boolean,
): string {
  return shown ? "" : `Open the Rollouts tab of group ${item.groupId} to see ${item.rolloutId}.`;
}
