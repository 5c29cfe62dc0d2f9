/**
 * Editing a best-first ranking of tiers (a tier with several ids is a tie), by keyboard or by drag
 * and drop (annotation issue). Every operation returns a new ranking with the same ids, no empty
 * tiers and no duplicates; an operation that cannot apply returns the ranking unchanged.
 */
import type { RolloutId } from "../types.ts";

export type Ranking = readonly (readonly RolloutId[])[];

function locate(ranking: Ranking, id: RolloutId): { tier: number; at: number } | null {
  for (let tier = 0; tier < ranking.length; tier++) {
    const at = ranking[tier]!.indexOf(id);
    if (at !== -1) return { tier, at };
  }
  return null;
}

function without(ranking: Ranking, id: RolloutId): RolloutId[][] {
  return ranking.map((tier) => tier.filter((x) => x !== id));
}

const compact = (tiers: RolloutId[][]): RolloutId[][] => tiers.filter((t) => t.length > 0);

/**
 * Move one place up (-1) or down (+1). Out of a tie, the id becomes its own tier just above
 * (below) the tie; alone, its tier swaps with the neighbouring tier.
 */
export function rankingMove(ranking: Ranking, id: RolloutId, direction: -1 | 1): RolloutId[][] {
  const where = locate(ranking, id);
  const copy = ranking.map((t) => [...t]);
  if (where === null) return copy;
  if (ranking[where.tier]!.length > 1) {
    const rest = without(ranking, id);
    rest.splice(direction < 0 ? where.tier : where.tier + 1, 0, [id]);
    return compact(rest);
  }
  const other = where.tier + direction;
  if (other < 0 || other >= ranking.length) return copy;
  [copy[where.tier], copy[other]] = [copy[other]!, copy[where.tier]!];
  return copy;
}

/** Join the tier above: a tie with it. The first tier has nothing above it. */
export function rankingTieWithAbove(ranking: Ranking, id: RolloutId): RolloutId[][] {
  const where = locate(ranking, id);
  if (where === null || where.tier === 0) return ranking.map((t) => [...t]);
  const rest = without(ranking, id);
  rest[where.tier - 1]!.push(id);
  return compact(rest);
}

/** Take the id out of its tie into its own tier, just below the rest of the tie. */
export function rankingSplit(ranking: Ranking, id: RolloutId): RolloutId[][] {
  const where = locate(ranking, id);
  if (where === null || ranking[where.tier]!.length < 2) return ranking.map((t) => [...t]);
  const rest = without(ranking, id);
  rest.splice(where.tier + 1, 0, [id]);
  return rest;
}

/**
 * Drop an id (dragged) into a tier (`into`, a tie) or as a new tier before index `tier` (`before`;
 * `tier` = ranking.length appends a last tier). An id not yet ranked is added.
 */
export function rankingPlace(
  ranking: Ranking,
  id: RolloutId,
  tier: number,
  mode: "into" | "before",
): RolloutId[][] {
  const where = locate(ranking, id);
  // Indices refer to the ranking as shown; removing the id may remove its tier and shift them.
  const emptied = where !== null && ranking[where.tier]!.length === 1;
  let target = tier;
  if (emptied && where.tier < tier) target--;
  const rest = compact(without(ranking, id));
  target = Math.max(0, Math.min(target, rest.length));
  if (mode === "into" && target < rest.length) rest[target]!.push(id);
  else rest.splice(target, 0, [id]);
  return rest;
}

/** Remove an id from the ranking (it goes back to "unranked"). */
export function rankingRemove(ranking: Ranking, id: RolloutId): RolloutId[][] {
  return compact(without(ranking, id));
}
