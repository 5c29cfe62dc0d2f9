/**
 * Rank agreement between the human ranking and a source's ranking of a group: Kendall's tau-b and
 * Spearman's rho over the rollouts both rank (people rank the passes only, so in practice the
 * human-ranked passes), and an overall figure across groups.
 *
 * Overall = the mean of the per-group coefficients weighted by each group's number of pairs,
 * n (n - 1) / 2 over its commonly ranked rollouts, over the groups where the coefficient is
 * defined. A group of 5 ranked passes (10 pairs) so counts ten times a group of 2 (1 pair): each
 * compared pair of rollouts weighs the same, as if the groups' pairs were pooled, while a pair is
 * still only ever compared within its group (rankings of different prompts are not comparable).
 */
import type { GroupId, RolloutId } from "../types.ts";
import { calibrationKendallTauB, calibrationSpearman } from "./agreement.ts";
import type { CalibrationTiers } from "./sources.ts";

export interface CalibrationRankRow {
  readonly groupId: GroupId;
  /** Rollouts ranked by both sides. */
  readonly n: number;
  /** n (n - 1) / 2: the row's weight in the overall figure. */
  readonly pairs: number;
  /** Kendall's tau-b; NaN when fewer than two common rollouts or one side ties them all. */
  readonly tau: number;
  /** Spearman's rho on average ranks; NaN in the same cases. */
  readonly rho: number;
}

export interface CalibrationRankOverall {
  /** Pair-weighted mean tau over the groups where tau is defined (NaN when none). */
  readonly tau: number;
  /** Pair-weighted mean rho over the groups where rho is defined (NaN when none). */
  readonly rho: number;
  /** Groups that entered the mean of tau, and their pairs. */
  readonly groups: number;
  readonly pairs: number;
  /** Groups with both rankings whose coefficients are undefined (left out, counted). */
  readonly undefinedGroups: number;
}

/** Each id's tier position (0 = best) in best-first tiers; NaN for an id the tiers leave out. */
export function calibrationTierPositions(
  tiers: CalibrationTiers,
  ids: readonly RolloutId[],
): number[] {
  const position = new Map<RolloutId, number>();
  tiers.forEach((tier, t) => {
    for (const id of tier) if (!position.has(id)) position.set(id, t);
  });
  return ids.map((id) => position.get(id) ?? NaN);
}

/**
 * Agreement of two rankings of one group.
 *
 * @param ids the group's rollout ids (ids in a ranking but not in the group are ignored)
 */
export function calibrationRankRow(
  groupId: GroupId,
  ids: readonly RolloutId[],
  human: CalibrationTiers,
  source: CalibrationTiers,
): CalibrationRankRow {
  const h = calibrationTierPositions(human, ids);
  const s = calibrationTierPositions(source, ids);
  const n = h.filter((x, i) => Number.isFinite(x) && Number.isFinite(s[i])).length;
  return {
    groupId,
    n,
    pairs: (n * (n - 1)) / 2,
    tau: n < 2 ? NaN : calibrationKendallTauB(h, s),
    rho: n < 2 ? NaN : calibrationSpearman(h, s),
  };
}

/** The pair-weighted overall coefficients (see the module comment). */
export function calibrationRankOverall(
  rows: readonly CalibrationRankRow[],
): CalibrationRankOverall {
  const weighted = (pick: (r: CalibrationRankRow) => number) => {
    let sum = 0,
      weight = 0,
      groups = 0;
    for (const r of rows) {
      const v = pick(r);
      if (!Number.isFinite(v) || r.pairs === 0) continue;
      sum += v * r.pairs;
      weight += r.pairs;
      groups++;
    }
    return { value: weight === 0 ? NaN : sum / weight, weight, groups };
  };
  const tau = weighted((r) => r.tau);
  const rho = weighted((r) => r.rho);
  return {
    tau: tau.value,
    rho: rho.value,
    groups: tau.groups,
    pairs: tau.weight,
    undefinedGroups: rows.length - tau.groups,
  };
}
