/**
 * Verifier outcomes into the data: each emitted verifier becomes a reward component of every
 * rollout, and the rollout's reward becomes the total the trainer would see, so everything after
 * this (the total under any weights, GRPO and GDPO advantages, GAR, the charts) treats the new
 * components exactly like components loaded from the file. Shared by the studio (on the worker's
 * outcomes) and the CLI (`analyze --verifiers`), so both show the same numbers.
 */
import { rewardComponentNames, rolloutReward } from "../analysis/analyze.ts";
import type { JudgeRun } from "../judge/runs.ts";
import type { Rollout, RolloutGroup } from "../types.ts";
import {
  verifierCombine,
  verifierLoggedRewardResolve,
  type LoggedRewardApplied,
  type LoggedRewardResolution,
} from "./combine.ts";
import {
  verifierFieldsRead,
  verifierGroupInputs,
  verifierScore,
  type VerifierOutcome,
  type VerifierRun,
} from "./run.ts";
import {
  verifierEmitted,
  verifierProblemText,
  verifierSpecProblems,
  type VerifierSpec,
} from "./spec.ts";

/** What augmenting needs to know about a spec, computed once. */
export interface VerifierLayout {
  /** Emitted component names, in spec order. */
  readonly emitted: readonly string[];
  /** File components that an enabled length penalty replaces. */
  readonly replaced: readonly string[];
  /** The spec's rule for the logged reward, `auto` resolved against the file (./combine.ts). */
  readonly loggedReward: LoggedRewardApplied;
}

/**
 * @param rule the spec's `loggedReward` as resolved on the file (`verifierLoggedRewardResolve`);
 *   required when the spec says `auto`
 */
export function verifierLayout(
  spec: VerifierSpec,
  rule: LoggedRewardApplied | null = spec.loggedReward === "auto" ? null : spec.loggedReward,
): VerifierLayout {
  if (rule === null) throw new Error("verifierLayout: resolve the spec's loggedReward auto first");
  const names = new Set(spec.verifiers.map((v) => v.name));
  return {
    emitted: verifierEmitted(spec).map((v) => v.name),
    replaced: spec.verifiers.flatMap((v) =>
      v.enabled && v.kind === "length-penalty" && !names.has(v.wraps) ? [v.wraps] : [],
    ),
    loggedReward: rule,
  };
}

/**
 * A rollout with the verifiers' components and the total they give.
 *
 * - loggedReward "multiply": the components are the file's (less those a length penalty replaces)
 *   plus the verifiers'; the reward is the logged one (or, without one, the sum of the file's
 *   components) times each verifier's value, so a 0/1 reward under 0/1 verifiers stays 0/1. A
 *   length penalty that wraps a file component is one more factor.
 * - "keep": the same components; the reward is the logged one less the replaced components'
 *   values, plus the verifiers' values. So with reward weights off the total is what was logged
 *   plus the re-score, and with weights on every component, old and new, is weighted alike.
 * - "drop": the verifiers' components alone, and their sum.
 *
 * Components that do not apply (null) are skipped, as TRL's nansum does; a rollout with nothing
 * usable has no reward (null), as before.
 *
 * @param names the run's verifier names (VerifierRun.names), `outcomes` in the same order
 */
export function verifierAugmentRollout(
  rollout: Rollout,
  layout: VerifierLayout,
  names: readonly string[],
  outcomes: readonly VerifierOutcome[],
): Rollout {
  const rule = layout.loggedReward;
  const rewards: Record<string, number | null> = {};
  let logged: number | null = null;
  if (rule !== "drop") {
    const replaced = new Set(layout.replaced);
    for (const [k, v] of Object.entries(rollout.rewards)) if (!replaced.has(k)) rewards[k] = v;
    let total = rolloutReward(rollout, null);
    if (rule === "keep")
      for (const k of layout.replaced) {
        const v = rollout.rewards[k];
        if (typeof v === "number" && Number.isFinite(v) && !Number.isNaN(total)) total -= v;
      }
    logged = Number.isNaN(total) ? null : total;
  }
  const values = layout.emitted.map((name) => {
    const value = outcomes[names.indexOf(name)]?.value ?? null;
    rewards[name] = value;
    return value;
  });
  return { ...rollout, rewards, reward: verifierCombine(rule, logged, values) };
}

/** The groups with their rollouts augmented; `outcomes` holds one row per rollout, in group order. */
export function verifierAugmentGroups(
  groups: readonly RolloutGroup[],
  spec: VerifierSpec,
  run: VerifierRun,
  rule: LoggedRewardApplied | null = spec.loggedReward === "auto"
    ? verifierLoggedRewardResolve("auto", groups).rule
    : spec.loggedReward,
): RolloutGroup[] {
  const layout = verifierLayout(spec, rule);
  let row = 0;
  return groups.map((g) => ({
    ...g,
    rollouts: g.rollouts.map((r) =>
      verifierAugmentRollout(r, layout, run.names, run.outcomes[row++] ?? []),
    ),
  }));
}

export type VerifierApplied =
  | {
      readonly ok: true;
      readonly groups: readonly RolloutGroup[];
      /** One outcome row per rollout, in group order. */
      readonly run: VerifierRun;
      /** The logged-reward rule applied (`auto` resolved on these groups), and why. */
      readonly resolution: LoggedRewardResolution;
    }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Run a spec over every rollout and augment them: what `analyze --verifiers` does, in one call.
 * Refuses a spec with problems (verifierSpecProblems against the groups' components and the judge
 * runs, so a judge verifier without its run is refused).
 *
 * @param judgeRuns the annotations' judge runs, which judge verifiers read
 */
export function verifierApply(
  groups: readonly RolloutGroup[],
  spec: VerifierSpec,
  judgeRuns: readonly JudgeRun[] = [],
): VerifierApplied {
  const problems = verifierSpecProblems(spec, rewardComponentNames(groups), judgeRuns);
  if (problems.length > 0)
    return { ok: false, problems: problems.map((p) => verifierProblemText(spec, p)) };
  const paths = verifierFieldsRead(spec);
  const inputs = groups.flatMap((g) => verifierGroupInputs(g, spec, judgeRuns, paths));
  const run = verifierScore(spec, inputs);
  const resolution = verifierLoggedRewardResolve(spec.loggedReward, groups);
  return {
    ok: true,
    groups: verifierAugmentGroups(groups, spec, run, resolution.rule),
    run,
    resolution,
  };
}
