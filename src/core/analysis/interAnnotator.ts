/**
 * Inter-annotator agreement between two annotation files of the same dataset (annotation issue):
 * Kendall's tau-b on the rankings, Cohen's kappa on the labels and on the hack marks, and every
 * disagreement, so the two people can resolve them.
 */
import { calibrationRankRow, type CalibrationRankRow } from "../calibration/rankAgreement.ts";
import type { GroupId, RolloutGroup, RolloutId } from "../types.ts";
import type { Annotations, GroupAnnotation, HumanLabel } from "./annotations.ts";

export type DisagreementKind = "ranking" | "label" | "hack";

export interface Disagreement {
  readonly groupId: GroupId;
  readonly rolloutId?: RolloutId;
  readonly kind: DisagreementKind;
  readonly message: string;
}

export interface RankingAgreement {
  readonly groupId: GroupId;
  /** Rollouts both annotators ranked. */
  readonly n: number;
  /** Kendall tau-b over those rollouts' tier positions; NaN when either ranking is one tie. */
  readonly tau: number;
}

export interface KappaAgreement {
  /** Items both annotators judged. */
  readonly n: number;
  /** Share of those items with the same judgement. */
  readonly observed: number;
  /** Cohen's kappa, `(po - pe) / (1 - pe)`; NaN when pe = 1 or n = 0. */
  readonly kappa: number;
}

export interface InterAnnotatorReport {
  /** Groups both files annotate. */
  readonly sharedGroups: number;
  readonly onlyFirst: number;
  readonly onlySecond: number;
  readonly rankings: readonly RankingAgreement[];
  /** Mean tau over the groups with a defined tau; NaN when none. */
  readonly meanTau: number;
  readonly labels: KappaAgreement;
  readonly hacks: KappaAgreement;
  readonly disagreements: readonly Disagreement[];
}

/**
 * Cohen's kappa over paired categorical judgements.
 *
 * Example: `[["pass","pass"],["fail","fail"],["pass","fail"],["fail","fail"]]` gives po = 0.75,
 * pe = 0.5 * 0.25 + 0.5 * 0.75 = 0.5, kappa = 0.5.
 */
export function cohenKappa(pairs: readonly (readonly [string, string])[]): KappaAgreement {
  const n = pairs.length;
  if (n === 0) return { n, observed: NaN, kappa: NaN };
  const first = new Map<string, number>();
  const second = new Map<string, number>();
  let same = 0;
  for (const [x, y] of pairs) {
    if (x === y) same++;
    first.set(x, (first.get(x) ?? 0) + 1);
    second.set(y, (second.get(y) ?? 0) + 1);
  }
  const po = same / n;
  let pe = 0;
  for (const [category, count] of first) pe += (count / n) * ((second.get(category) ?? 0) / n);
  return { n, observed: po, kappa: pe >= 1 ? NaN : (po - pe) / (1 - pe) };
}

/** Both annotators' labels of one rollout. */
export interface LabelComparison {
  readonly rolloutId: RolloutId;
  readonly first: HumanLabel;
  readonly second: HumanLabel;
}

/** Whether each annotator marked one rollout as a hack. */
export interface HackComparison {
  readonly rolloutId: RolloutId;
  readonly first: boolean;
  readonly second: boolean;
}

/**
 * Two commonly ranked rollouts the annotators order differently: each side's sign of
 * `tier(x) - tier(y)` (-1: x above y, 0: tied, 1: y above x).
 */
export interface RankingConflict {
  readonly x: RolloutId;
  readonly y: RolloutId;
  readonly first: number;
  readonly second: number;
}

/**
 * One group's two annotations compared item by item: the primitive both `annotationsAgreement`
 * (two files) and team mode's agreement (every pair of annotators) add up.
 */
export interface GroupComparison {
  readonly groupId: GroupId;
  /**
   * Kendall tau-b over the rollouts both ranked (`calibrationRankRow`: tier positions, its `pairs`
   * the row's weight); null when fewer than two rollouts are ranked by both.
   */
  readonly ranking: CalibrationRankRow | null;
  /** The commonly ranked pairs ordered differently, in the first ranking's order. */
  readonly rankingConflicts: readonly RankingConflict[];
  /** Every rollout both labelled (pass, fail or defer), in the first annotation's order. */
  readonly labels: readonly LabelComparison[];
  /**
   * Hack marks over the group's rollouts when `rolloutIds` is given (a rollout neither marked
   * agrees on "not a hack"); without it, over every rollout either annotation mentions.
   */
  readonly hacks: readonly HackComparison[];
}

/**
 * Compare two annotations of one group.
 *
 * @param rolloutIds the group's rollout ids, when known (see `GroupComparison.hacks`)
 */
export function compareGroupAnnotations(
  groupId: GroupId,
  a: GroupAnnotation,
  b: GroupAnnotation,
  rolloutIds?: readonly RolloutId[],
): GroupComparison {
  // Rankings: tau over the rollouts both ranked.
  const ta = tierOf(a);
  const tb = tierOf(b);
  const common = [...ta.keys()].filter((id) => tb.has(id));
  const rankingConflicts: RankingConflict[] = [];
  for (let i = 0; i < common.length; i++)
    for (let j = i + 1; j < common.length; j++) {
      const x = common[i]!;
      const y = common[j]!;
      const first = Math.sign(ta.get(x)! - ta.get(y)!);
      const second = Math.sign(tb.get(x)! - tb.get(y)!);
      if (first !== second) rankingConflicts.push({ x, y, first, second });
    }
  const labels: LabelComparison[] = [];
  for (const [rolloutId, first] of Object.entries(a.labels)) {
    const second = b.labels[rolloutId];
    if (second !== undefined) labels.push({ rolloutId, first, second });
  }
  const ha = new Set(a.hacks);
  const hb = new Set(b.hacks);
  const universe = rolloutIds ?? [...new Set([...mentioned(a), ...mentioned(b)])];
  return {
    groupId,
    ranking: common.length < 2 ? null : calibrationRankRow(groupId, common, a.ranking, b.ranking),
    rankingConflicts,
    labels,
    hacks: universe.map((rolloutId) => ({
      rolloutId,
      first: ha.has(rolloutId),
      second: hb.has(rolloutId),
    })),
  };
}

/** Tier index of every ranked rollout (0 = best; a tie shares its tier's index). */
function tierOf(annotation: GroupAnnotation): Map<RolloutId, number> {
  const tiers = new Map<RolloutId, number>();
  annotation.ranking.forEach((tier, t) => {
    for (const id of tier) if (!tiers.has(id)) tiers.set(id, t);
  });
  return tiers;
}

const hackWord = (marked: boolean): string => (marked ? "hack" : "not a hack");

/**
 * Compare two annotators' files.
 *
 * @param groups the loaded groups, when known: hack marks are then compared over every rollout of
 *   a shared group (a rollout neither marked counts as agreement on "not a hack"); without them,
 *   over the rollouts either file mentions
 */
export function annotationsAgreement(
  first: Annotations,
  second: Annotations,
  groups?: readonly RolloutGroup[],
): InterAnnotatorReport {
  const byId = new Map((groups ?? []).map((g) => [g.id, g]));
  const shared = Object.keys(first.groups).filter((id) => id in second.groups);
  const rankings: RankingAgreement[] = [];
  const labelPairs: [string, string][] = [];
  const hackPairs: [string, string][] = [];
  const disagreements: Disagreement[] = [];
  for (const groupId of shared) {
    const ids = byId.get(groupId)?.rollouts.map((r) => r.id);
    const c = compareGroupAnnotations(
      groupId,
      first.groups[groupId]!,
      second.groups[groupId]!,
      ids,
    );
    if (c.ranking !== null) rankings.push({ groupId, n: c.ranking.n, tau: c.ranking.tau });
    for (const { x, y, first: da, second: db } of c.rankingConflicts)
      disagreements.push({
        groupId,
        kind: "ranking",
        message: `${x} vs ${y}: ${order(x, y, da)} in the first file, ${order(x, y, db)} in the second`,
      });
    for (const { rolloutId, first: la, second: lb } of c.labels) {
      labelPairs.push([la, lb]);
      if (la !== lb)
        disagreements.push({
          groupId,
          rolloutId,
          kind: "label",
          message: `${rolloutId}: "${la}" in the first file, "${lb}" in the second`,
        });
    }
    for (const { rolloutId, first: ha, second: hb } of c.hacks) {
      hackPairs.push([hackWord(ha), hackWord(hb)]);
      if (ha !== hb)
        disagreements.push({
          groupId,
          rolloutId,
          kind: "hack",
          message: `${rolloutId}: ${hackWord(ha)} in the first file, ${hackWord(hb)} in the second`,
        });
    }
  }
  const defined = rankings.filter((r) => Number.isFinite(r.tau));
  return {
    sharedGroups: shared.length,
    onlyFirst: Object.keys(first.groups).length - shared.length,
    onlySecond: Object.keys(second.groups).length - shared.length,
    rankings,
    meanTau: defined.length === 0 ? NaN : defined.reduce((s, r) => s + r.tau, 0) / defined.length,
    labels: cohenKappa(labelPairs),
    hacks: cohenKappa(hackPairs),
    disagreements,
  };
}

function order(x: RolloutId, y: RolloutId, sign: number): string {
  return sign < 0 ? `${x} above ${y}` : sign > 0 ? `${y} above ${x}` : "tied";
}

function mentioned(a: GroupAnnotation): RolloutId[] {
  return [...a.ranking.flat(), ...a.hacks, ...Object.keys(a.labels)];
}
