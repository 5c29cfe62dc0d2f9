/**
 * Prompt lineage (issue 19): the same prompt's group at every step of a run. A group's prompt is
 * its id without the step (./groupHealth.ts `groupPromptKey`): TRL's and verl's `<step>/<prompt
 * hash>`, and any format whose group id is a prompt or task id, which a run's merge prefixes with
 * the step. Pure.
 */
import type { SpreadVerdict } from "../analysis/groupSpread.ts";
import type { GroupHealth, HackMarks } from "./groupHealth.ts";

/** The prompt's group at one step. */
export interface LineagePoint {
  readonly step: number | null;
  readonly groupId: string;
  readonly n: number;
  readonly passes: number;
  readonly passRate: number;
  readonly meanReward: number;
  /** Population std of the finite rewards; NaN when none. */
  readonly std: number;
  readonly clusters: number | null;
  readonly meanChars: number;
  readonly spread: SpreadVerdict;
  readonly hacks: HackMarks;
}

/** Every prompt's groups, by prompt key, each list in the order the groups were tallied. */
export function lineageIndex(groups: readonly GroupHealth[]): Map<string, GroupHealth[]> {
  const out = new Map<string, GroupHealth[]>();
  for (const g of groups) {
    let list = out.get(g.prompt);
    if (list === undefined) out.set(g.prompt, (list = []));
    list.push(g);
  }
  return out;
}

/** A group's numbers as a point of its prompt's lineage. */
export function lineagePoint(g: GroupHealth): LineagePoint {
  return {
    step: g.step,
    groupId: g.id,
    n: g.n,
    passes: g.passes,
    passRate: g.n === 0 ? NaN : g.passes / g.n,
    meanReward: g.rewarded === 0 ? NaN : g.rewardSum / g.rewarded,
    std: g.std,
    clusters: g.clusters,
    meanChars: g.n === 0 ? NaN : g.chars / g.n,
    spread: g.spread,
    hacks: g.hacks,
  };
}

/**
 * The lineage of the prompt of group `groupId`: its groups at every step, ascending (a step-less
 * group first); empty when the group is unknown.
 */
export function promptLineage(
  groups: readonly GroupHealth[],
  groupId: string,
  index: ReadonlyMap<string, readonly GroupHealth[]> = lineageIndex(groups),
): LineagePoint[] {
  const group = groups.find((g) => g.id === groupId);
  if (group === undefined) return [];
  return (index.get(group.prompt) ?? [])
    .map(lineagePoint)
    .sort((a, b) => (a.step === null ? -1 : b.step === null ? 1 : a.step - b.step));
}
