/**
 * A judge's ranking where a person has not ranked: once the user picks a gar run by name as the
 * GAR source, a group whose annotation neither ranks its passes nor marks a hack takes that run's
 * tiers and hacks, and every such number says that it comes from the judge (or the heuristic). No
 * run is ever picked by default (issue 13, finding 8: a spread check had silently become the
 * source of the 20 groups it graded). A human ranking or hack mark always wins; the human's
 * labels and notes are kept either way.
 */
import type { GarSource, ResolvedAnnotation } from "../analysis/resolve.ts";
import type { RolloutGroup } from "../types.ts";
import type { JudgeRun } from "./runs.ts";

/**
 * Where a group with no human ranking takes GAR from (a user setting): nowhere ("human-only", the
 * default), or the gar run the user picked, by id (`run:<id>`).
 */
export type GarRankingSource = "human-only" | `run:${string}`;

export const GAR_SOURCE_DEFAULT: GarRankingSource = "human-only";

/** The setting for a run: `run:<id>`. */
export function garSourceOfRun(runId: string): GarRankingSource {
  return `run:${runId}`;
}

/** The setting read back from storage (untrusted): a `run:<id>` or "human-only"; anything else, the default. */
export function garSourceParse(raw: unknown): GarRankingSource {
  return typeof raw === "string" && /^run:.+/s.test(raw)
    ? (raw as GarRankingSource)
    : GAR_SOURCE_DEFAULT;
}

/**
 * The run the setting picks, when it still exists and is a gar run with an entry for the group;
 * null otherwise (the group then keeps the human's annotation alone).
 */
export function garSourceRunFor(
  runs: readonly JudgeRun[],
  setting: GarRankingSource,
  groupId: string,
): JudgeRun | null {
  if (setting === "human-only") return null;
  const id = setting.slice("run:".length);
  const run = runs.find((r) => r.info.id === id);
  return run !== undefined && run.info.mode === "gar" && Object.hasOwn(run.groups, groupId)
    ? run
    : null;
}

/**
 * A gar run's verdict for a group as a resolved annotation (indices into the group), or null when
 * the run has no usable verdict for it: no entry, a judge error, another mode, or a rollout id the
 * group does not have (the run was made on other data, so none of it is used).
 */
export function judgeRunResolved(run: JudgeRun, group: RolloutGroup): ResolvedAnnotation | null {
  if (run.info.mode !== "gar") return null;
  const result = Object.hasOwn(run.groups, group.id) ? run.groups[group.id]! : undefined;
  if (result === undefined || result.error !== null) return null;
  if (result.tiers.length === 0 && result.hacks.length === 0) return null;
  const indexOf = new Map(group.rollouts.map((r, i) => [r.id, i]));
  const resolve = (ids: readonly string[]): number[] | null => {
    const out: number[] = [];
    for (const id of ids) {
      const i = indexOf.get(id);
      if (i === undefined) return null;
      out.push(i);
    }
    return out;
  };
  const ranking: number[][] = [];
  for (const tier of result.tiers) {
    const t = resolve(tier);
    if (t === null) return null;
    if (t.length > 0) ranking.push(t);
  }
  const hacks = resolve(result.hacks);
  if (hacks === null) return null;
  const source: GarSource = run.info.source === "heuristic" ? "heuristic" : "judge";
  return {
    ranking,
    hacks: [...new Set(hacks)].sort((a, b) => a - b),
    labels: new Array<null>(group.rollouts.length).fill(null),
    notes: "",
    source,
  };
}

/**
 * The annotation GAR uses for a group: the human's when it ranks or marks hacks; otherwise, when
 * the user picked a run (`run` is the picked run, from `garSourceRunFor`), the run's ranking and
 * hacks beside the human's labels and notes.
 */
export function garAnnotationWithJudge(
  human: ResolvedAnnotation | undefined,
  run: JudgeRun | null,
  group: RolloutGroup,
  setting: GarRankingSource,
): ResolvedAnnotation | undefined {
  if (human !== undefined && (human.ranking.length > 0 || human.hacks.length > 0)) return human;
  if (setting === "human-only" || run === null) return human;
  const judged = judgeRunResolved(run, group);
  if (judged === null) return human;
  return human === undefined ? judged : { ...judged, labels: human.labels, notes: human.notes };
}

/**
 * The latest gar run (LLM or heuristic) that has an entry for the group, or null. An entry that is
 * a judge error is still the latest word: the group then keeps its rewards.
 */
export function judgeRunLatestFor(runs: readonly JudgeRun[], groupId: string): JudgeRun | null {
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i]!;
    if (run.info.mode === "gar" && Object.hasOwn(run.groups, groupId)) return run;
  }
  return null;
}
