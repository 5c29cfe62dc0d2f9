/**
 * What the annotations document records about calibration as soon as the data behind it changes:
 * every labelled rollout's split (drawn once, so a later label never moves a row between dev and
 * the sealed test split), and each judge run that started after the unseal or under another
 * prompt version, logged once. The store applies it on every annotation change, whichever panel
 * is open.
 */
import type { Annotations, GroupAnnotation } from "../analysis/annotations.ts";
import type { GroupId } from "../types.ts";
import { calibrationLogReruns, calibrationRerunWarnings } from "./seal.ts";
import { calibrationAssign, type CalibrationRow, type CalibrationState } from "./state.ts";

/** Every rollout labelled pass or fail (a deferred one is not calibration data), by its label. */
export function calibrationLabelRows(
  groups: Readonly<Record<GroupId, Pick<GroupAnnotation, "labels">>>,
): CalibrationRow[] {
  const rows: CalibrationRow[] = [];
  for (const a of Object.values(groups))
    for (const [rolloutId, label] of Object.entries(a.labels))
      if (label !== "defer") rows.push({ rolloutId, label });
  return rows;
}

/** The state with a split for every labelled rollout that has none yet (the same object if none). */
export function calibrationAssignLabels(
  state: CalibrationState,
  groups: Readonly<Record<GroupId, Pick<GroupAnnotation, "labels">>>,
): CalibrationState {
  const rows = calibrationLabelRows(groups);
  if (rows.every((r) => state.assignments[r.rolloutId] !== undefined)) return state;
  return calibrationAssign(state, rows).state;
}

/**
 * The document with its calibration records brought up to date: splits for new labels, and the
 * judge runs after the unseal logged (at `now`, ISO 8601). The same object when nothing is new.
 */
export function annotationsWithCalibration(annotations: Annotations, now: string): Annotations {
  const assigned = calibrationAssignLabels(annotations.calibration, annotations.groups);
  const logged = calibrationLogReruns(
    assigned,
    calibrationRerunWarnings(assigned, annotations.judgeRuns),
    now,
  );
  return logged === annotations.calibration ? annotations : { ...annotations, calibration: logged };
}
