/**
 * The hack flags a group carries from the judge runs: those of the latest gar run (an LLM's or
 * the heuristic grader's) with an entry for the group, counted once per rollout, with who flagged.
 */
import type { GroupId } from "../types.ts";
import type { JudgeRun } from "./runs.ts";

/** For each group, the latest gar run (runs are appended) with an entry for it. */
export function latestGarRuns(runs: readonly JudgeRun[]): Map<GroupId, JudgeRun> {
  const latest = new Map<GroupId, JudgeRun>();
  for (const run of runs) {
    if (run.info.mode !== "gar") continue;
    for (const id of Object.keys(run.groups)) latest.set(id, run);
  }
  return latest;
}

export interface GarHackFlags {
  /** Distinct rollouts flagged as hacks (at least one). */
  readonly flagged: number;
  readonly by: "heuristic" | "judge";
}

/**
 * A gar run's hack flags for one group, or null when it has no entry for it, failed on it, or
 * flagged nothing. A failed entry is not replaced by an older run's: the latest run is the one
 * that counts.
 */
export function garRunHackFlags(run: JudgeRun, groupId: GroupId): GarHackFlags | null {
  const result = Object.hasOwn(run.groups, groupId) ? run.groups[groupId] : undefined;
  if (result === undefined || result.error !== null) return null;
  const flagged = new Set(result.hacks).size;
  if (flagged === 0) return null;
  return { flagged, by: run.info.source === "heuristic" ? "heuristic" : "judge" };
}
