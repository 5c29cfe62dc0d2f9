/**
 * "What if this component were dropped?": every rollout's trainer advantage with each reward
 * component left out in turn, beside the advantage with all of them, under the same settings (so
 * batch scaling and GDPO see the whole batch change).
 */
import { analysisAdvantages, type AnalysisSettings } from "../analysis/analyze.ts";
import type { Rollout, RolloutGroup } from "../types.ts";
import { verifierCombine, type LoggedRewardApplied } from "./combine.ts";

/** The part name that stands for the logged reward (the file's total) in logged-reward mode. */
export const DROP_LOGGED_REWARD = "logged reward";

export interface ComponentDropOptions {
  /** Components the verifiers added (apply.ts); with reward weights off, only these can be dropped. */
  readonly added: readonly string[];
  /**
   * The spec's loggedReward as applied (`auto` resolved): with "keep" or "multiply", the logged
   * reward is a droppable part too.
   */
  readonly loggedReward: LoggedRewardApplied;
  /**
   * "multiply": each rollout's logged reward by id (what the file gave, before the verifiers), which
   * a product does not let the table recover from the total; a rollout missing here has none.
   */
  readonly logged?: ReadonlyMap<string, number | null>;
}

export interface ComponentDropTable {
  /**
   * What can be dropped. With reward weights on (or GDPO), every component: the total is their
   * weighted sum. With weights off the total is the logged reward, whose make-up the file does not
   * say, plus the verifiers' components: so only those, and the logged reward as one part.
   */
  readonly parts: readonly string[];
  /** advantages[g][i]: rollout i of group g under the settings. */
  readonly advantages: readonly (readonly number[])[];
  /** without[p][g][i]: the same with parts[p] left out. */
  readonly without: readonly (readonly (readonly number[])[])[];
}

function finite(x: number | null | undefined): x is number {
  return typeof x === "number" && Number.isFinite(x);
}

function nansum(values: readonly (number | null | undefined)[]): number | null {
  let sum = 0;
  let any = false;
  for (const v of values) {
    if (!finite(v)) continue;
    sum += v;
    any = true;
  }
  return any ? sum : null;
}

function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [k, v] of Object.entries(record)) if (k !== key) out[k] = v;
  return out;
}

/** A rollout with one part dropped, as its total would be computed under the settings. */
function dropPart(
  r: Rollout,
  part: string,
  weighted: boolean,
  options: ComponentDropOptions,
): Rollout {
  if (weighted) {
    if (!(part in r.rewards)) return r;
    const rewards = without(r.rewards, part);
    // Nothing left to sum: no total (the logged reward is not what weights compute).
    return { ...r, rewards, reward: Object.keys(rewards).length === 0 ? null : r.reward };
  }
  if (part === DROP_LOGGED_REWARD) {
    const rewards: Record<string, number | null> = {};
    for (const k of options.added) if (k in r.rewards) rewards[k] = r.rewards[k] ?? null;
    const values = Object.values(rewards);
    return {
      ...r,
      rewards,
      reward:
        options.loggedReward === "multiply"
          ? verifierCombine("multiply", null, values)
          : nansum(values),
    };
  }
  if (!(part in r.rewards)) return r;
  const rewards = without(r.rewards, part);
  if (options.loggedReward === "multiply")
    return {
      ...r,
      rewards,
      reward: verifierCombine(
        "multiply",
        options.logged?.get(r.id) ?? null,
        options.added.filter((k) => k !== part).map((k) => rewards[k] ?? null),
      ),
    };
  if (options.loggedReward === "drop")
    return {
      ...r,
      rewards,
      reward: nansum(options.added.filter((k) => k !== part).map((k) => rewards[k])),
    };
  const value = r.rewards[part];
  return {
    ...r,
    rewards,
    reward: r.reward === null ? null : r.reward - (finite(value) ? value : 0),
  };
}

/**
 * Advantages with each part dropped in turn (see ComponentDropTable.parts for what the parts are).
 *
 * @param groups the rollouts as analysed (with the verifiers' components already added)
 */
export function componentDropAdvantages(
  groups: readonly RolloutGroup[],
  settings: AnalysisSettings,
  options: ComponentDropOptions,
): ComponentDropTable {
  const weighted = settings.rewardWeights !== null || settings.aggregation === "normalize_then_sum";
  const names: string[] = [];
  const seen = new Set<string>();
  for (const g of groups)
    for (const r of g.rollouts)
      for (const k of Object.keys(r.rewards))
        if (!seen.has(k)) {
          seen.add(k);
          names.push(k);
        }
  const parts = weighted
    ? names
    : [
        ...options.added.filter((k) => seen.has(k)),
        ...(options.loggedReward !== "drop" && options.added.length > 0
          ? [DROP_LOGGED_REWARD]
          : []),
      ];
  return {
    parts,
    advantages: analysisAdvantages(groups, settings),
    without: parts.map((part) =>
      analysisAdvantages(
        groups.map((g) => ({
          ...g,
          rollouts: g.rollouts.map((r) => dropPart(r, part, weighted, options)),
        })),
        settings,
      ),
    ),
  };
}
