/**
 * The human side of calibration: one annotator's pass/fail labels and rankings. A "defer" label
 * says the person could not decide, so it is no truth to calibrate against: it is left out and
 * counted, never read as pass or fail.
 */
import type { Annotations } from "../analysis/annotations.ts";
import type { GroupId, RolloutId } from "../types.ts";
import type { CalibrationTiers, CalibrationVerdict } from "./sources.ts";

export interface CalibrationHumanCounts {
  readonly pass: number;
  readonly fail: number;
  /** Deferred labels, left out of every metric. */
  readonly defer: number;
}

export interface CalibrationHuman {
  /** How the view names the source, e.g. `labels of ana` (or `this browser's labels`). */
  readonly label: string;
  /** Pass/fail labels per group, then per rollout (defers left out). */
  readonly labels: ReadonlyMap<GroupId, ReadonlyMap<RolloutId, CalibrationVerdict>>;
  /** Best-first tiers per group that has a ranking (people rank the passes only). */
  readonly rankings: ReadonlyMap<GroupId, CalibrationTiers>;
  /** Every label in the annotations, whether or not its group is loaded. */
  readonly counts: CalibrationHumanCounts;
}

/** The annotator's labels and rankings from the annotations document. */
export function calibrationHumanSource(
  annotations: Pick<Annotations, "annotator" | "groups">,
): CalibrationHuman {
  const labels = new Map<GroupId, Map<RolloutId, CalibrationVerdict>>();
  const rankings = new Map<GroupId, CalibrationTiers>();
  let pass = 0,
    fail = 0,
    defer = 0;
  for (const [groupId, a] of Object.entries(annotations.groups)) {
    const byRollout = new Map<RolloutId, CalibrationVerdict>();
    for (const [rolloutId, label] of Object.entries(a.labels)) {
      if (label === "defer") {
        defer++;
        continue;
      }
      if (label === "pass") pass++;
      else fail++;
      byRollout.set(rolloutId, label);
    }
    if (byRollout.size > 0) labels.set(groupId, byRollout);
    if (a.ranking.length > 0) rankings.set(groupId, a.ranking);
  }
  const name = annotations.annotator.trim();
  return {
    label: name === "" ? "this annotator's labels" : `labels of ${name}`,
    labels,
    rankings,
    counts: { pass, fail, defer },
  };
}
