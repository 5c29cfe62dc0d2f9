/** Which groups a judge run covers (scope, sample) and the spread check of a finished run. */
import { garFactorsOfKept } from "../advantage/gar.ts";
import {
  spreadCheck,
  SPREAD_DEFAULTS,
  type SpreadOptions,
  type SpreadReport,
} from "../advantage/spread.ts";
import type { GroupId, RolloutGroup } from "../types.ts";
import { randomHash01 } from "../util/random.ts";
import type { JudgeRun } from "./runs.ts";
import { passIndices } from "./planParts.ts";
import { JUDGE_BUILD_DEFAULTS, judgeGroupRewards, type JudgeBuildOptions } from "./plan.ts";

/** Which groups a run judges. */
export type JudgeScope = "mixed" | "all" | "selected" | "spread";

/** A run's scope as its name says it (`JudgeRunInfo.scope`): the seeded spread-check sample. */
export const JUDGE_SCOPE_SPREAD_CHECK = "spread check";

/** A scope in words, for a run's name: "mixed groups", "all groups", … */
export function judgeScopeName(scope: JudgeScope): string {
  switch (scope) {
    case "mixed":
      return "mixed groups";
    case "all":
      return "all groups";
    case "selected":
      return "selected group";
    case "spread":
      return "spread-eligible groups";
  }
}

/** Groups with at least two passes (all-pass included): what the spread check grades (methods.md 2.5). */
export function judgeSpreadEligible(
  groups: readonly RolloutGroup[],
  options: JudgeBuildOptions = JUDGE_BUILD_DEFAULTS,
): RolloutGroup[] {
  return groups.filter(
    (g) => passIndices(judgeGroupRewards(g, options), options.passThreshold).length >= 2,
  );
}

/**
 * A seeded sample of `size` groups, in dataset order: each group is drawn by a hash of its id and
 * the seed, so the same seed draws the same groups whatever the file's order.
 */
export function judgeSample(
  groups: readonly RolloutGroup[],
  size: number,
  seed: number,
): RolloutGroup[] {
  if (size >= groups.length) return [...groups];
  const chosen = new Set(
    [...groups]
      .map((g) => ({ id: g.id, key: randomHash01(g.id, seed) }))
      .sort((a, b) => a.key - b.key || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, Math.max(0, size))
      .map((g) => g.id),
  );
  return groups.filter((g) => chosen.has(g.id));
}

/**
 * Whether a sample can be drawn: its size a whole number >= 1 and its seed a whole number >= 0
 * (as `rollout-studio judge --sample N --seed S` takes them).
 */
export function judgeSampleValid(size: number, seed: number): boolean {
  return Number.isInteger(size) && size >= 1 && Number.isInteger(seed) && seed >= 0;
}

/** The groups of a scope: mixed (pass and fail), all, the selected one, or spread-eligible. */
export function judgeScopeGroups(
  groups: readonly RolloutGroup[],
  scope: JudgeScope,
  options: JudgeBuildOptions = JUDGE_BUILD_DEFAULTS,
  selected: GroupId | null = null,
): RolloutGroup[] {
  switch (scope) {
    case "all":
      return [...groups];
    case "selected":
      return groups.filter((g) => g.id === selected);
    case "spread":
      return judgeSpreadEligible(groups, options);
    case "mixed":
      return groups.filter((g) => {
        const passes = passIndices(judgeGroupRewards(g, options), options.passThreshold).length;
        return passes > 0 && passes < g.rollouts.length;
      });
  }
}

/**
 * The spread check (methods.md 2.5) of a finished gar or rubric run, over its groups with at least
 * two passes: the GAR factors (min factor `minFactor`) of the non-hack passes, or the s·b products
 * of the scored passes. Null for pairwise and cluster runs, which give no grader scores.
 */
export function judgeRunSpread(
  run: JudgeRun,
  minFactor: number,
  options: SpreadOptions = SPREAD_DEFAULTS,
): SpreadReport | null {
  const scores: number[] = [];
  let groups = 0;
  for (const g of Object.values(run.groups)) {
    if (g.error !== null) continue;
    if (run.info.mode === "gar") {
      if (g.tiers.flat().length + g.hacks.length < 2) continue;
      const factors = garFactorsOfKept(g.tiers, minFactor);
      if (factors.length > 0) groups++;
      scores.push(...factors);
    } else if (run.info.mode === "rubric") {
      const scored = Object.values(g.scores);
      if (scored.length + g.failed.length < 2) continue;
      if (scored.length > 0) groups++;
      scores.push(...scored.map((s) => s.solution * s.behavior));
    } else return null;
  }
  return spreadCheck(scores, groups, options);
}
