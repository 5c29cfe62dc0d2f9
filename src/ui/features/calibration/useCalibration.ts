/**
 * The calibration panel's data: the store's dataset, settings and annotations turned into the
 * report of the picked source against this annotator, plus the actions that change the persisted
 * calibration state (unseal, re-split). Every number is derived here in render. What must not
 * change behind the user's back (each labelled rollout's split, the judge runs after the unseal)
 * the store records on every annotation change (core `annotationsWithCalibration`).
 */
import { useCallback, useMemo } from "react";
import {
  calibrationAssign,
  calibrationAssignRows,
  calibrationHumanSource,
  calibrationReport,
  calibrationRerunWarnings,
  calibrationResplit,
  calibrationUnseal,
  type CalibrationHuman,
  type CalibrationReport,
  type CalibrationRerunWarning,
  type CalibrationState,
  type SplitName,
} from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { useDataset, useLoadedGroups, useSettings } from "../../../store/hooks.ts";
import { useTeamHumanSources, type TeamHumanSource } from "../../../store/teamLead.ts";
import {
  useVerifierVerdicts,
  verifierCalibrationSources,
} from "../../../store/verifiers/verifierVerdicts.ts";
import {
  NO_SOURCE,
  pickSource,
  prepareGroupInputs,
  prepareSources,
  type SourceChoice,
} from "./prepareCalibration.ts";

export interface CalibrationData {
  readonly human: CalibrationHuman;
  /**
   * Team mode, for a lead: the other human sides (the gold, each person's labels) the panel can
   * compare with instead of the page's own labels; empty otherwise.
   */
  readonly humans: readonly TeamHumanSource[];
  /** The human side in use: "annotations" (the page's own labels) or a team source's value. */
  readonly humanValue: string;
  readonly choices: readonly SourceChoice[];
  /** The picked source; null until the user picks one (nothing is picked by default). */
  readonly choice: SourceChoice | null;
  readonly report: CalibrationReport;
  readonly state: CalibrationState;
  readonly warnings: readonly CalibrationRerunWarning[];
  /** Groups of an indexed file not parsed yet: their labels cannot be compared. */
  readonly unparsed: number;
  readonly groupCount: number;
  /** Unseal the test split against the picked source (once; a second call does nothing). */
  readonly unseal: () => void;
  /** New seed and shares (clears the assignments); throws while unsealed. */
  readonly resplit: (next: {
    readonly seed: number;
    readonly fractions: Readonly<Record<SplitName, number>>;
  }) => void;
}

/** The page's own labels as the human side (the human select's first option). */
export const OWN_LABELS = "annotations";

export function useCalibration(
  chosen: string | null,
  humanChosen: string = OWN_LABELS,
): CalibrationData | null {
  const dataset = useDataset();
  const parsed = useLoadedGroups();
  const { passThreshold, rewardWeights } = useSettings();
  const annotator = useStore((s) => s.annotations.annotator);
  const groups = useStore((s) => s.annotations.groups);
  const runs = useStore((s) => s.annotations.judgeRuns);
  const state = useStore((s) => s.annotations.calibration);
  const updateExtras = useStore((s) => s.updateAnnotationExtras);

  const summaries = dataset?.summaries;
  const inputs = useMemo(
    () =>
      summaries === undefined || parsed === null
        ? null
        : prepareGroupInputs(summaries, parsed, rewardWeights),
    [summaries, parsed, rewardWeights],
  );
  const humans = useTeamHumanSources();
  const team = humans.find((h) => h.value === humanChosen) ?? null;
  const human = useMemo(
    () => calibrationHumanSource(team?.annotations ?? { annotator, groups }),
    [team, annotator, groups],
  );
  const verifierSets = useVerifierVerdicts((s) => s.sets);
  const verifiers = useMemo(() => verifierCalibrationSources(verifierSets), [verifierSets]);
  const choices = useMemo(
    () => prepareSources(runs, passThreshold, verifiers),
    [runs, passThreshold, verifiers],
  );
  const choice = pickSource(choices, chosen);
  const chosenSource = choice?.source ?? NO_SOURCE;
  const report = useMemo(
    () =>
      inputs === null
        ? null
        : calibrationReport({ groups: inputs.inputs, human, source: chosenSource, state }),
    [inputs, human, chosenSource, state],
  );
  const warnings = useMemo(() => calibrationRerunWarnings(state, runs), [state, runs]);
  const assignRows = useMemo(
    () => (inputs === null ? [] : calibrationAssignRows(inputs.inputs, human)),
    [inputs, human],
  );

  // The annotations document records each labelled rollout's split as the label is set, and a
  // judge run after the unseal once it is added (the store's commit, core
  // `annotationsWithCalibration`), whether or not this panel is open.

  const source = chosenSource;
  const unseal = useCallback(() => {
    const now = new Date().toISOString();
    updateExtras((current) =>
      current.calibration.unsealed !== null
        ? {}
        : {
            calibration: calibrationUnseal(
              calibrationAssign(current.calibration, assignRows).state,
              source,
              now,
            ),
          },
    );
  }, [updateExtras, assignRows, source]);
  const resplit = useCallback<CalibrationData["resplit"]>(
    (next) => {
      const now = new Date().toISOString();
      updateExtras((current) => {
        const changed = calibrationResplit(current.calibration, next, now);
        return changed === current.calibration ? {} : { calibration: changed };
      });
    },
    [updateExtras],
  );

  if (report === null || inputs === null) return null;
  return {
    human,
    humans,
    humanValue: team?.value ?? OWN_LABELS,
    choices,
    choice,
    report,
    state,
    warnings,
    unparsed: inputs.unparsed,
    groupCount: inputs.inputs.length,
    unseal,
    resplit,
  };
}
