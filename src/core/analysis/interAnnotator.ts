/**
 * Inter-annotator agreement between two annotation files of the same dataset (annotation issue):
 * Kendall's tau-b on the rankings, Cohen's kappa on the labels and on the hack marks, and every
 * disagreement, so the two people can resolve them.
 */
import { calibrationKendallTauB } from "../calibration/agreement.ts";
import type { GroupId, RolloutGroup, RolloutId } from "../types.ts";
import type { Annotations, GroupAnnotation } from "./annotations.ts";

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

/** Tier index of every ranked rollout (0 = best; a tie shares its tier's index). */
function tierOf(annotation: GroupAnnotation): Map<RolloutId, number> {
  const tiers = new Map<RolloutId, number>();
  annotation.ranking.forEach((tier, t) => {
    for (const id of tier) if (!tiers.has(id)) tiers.set(id, t);
  });
  return tiers;
}

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
    const a = first.groups[groupId]!;
    const b = second.groups[groupId]!;
    // Rankings: tau over the rollouts both ranked.
    const ta = tierOf(a);
    const tb = tierOf(b);
    const common = [...ta.keys()].filter((id) => tb.has(id));
    if (common.length >= 2) {
      const tau = calibrationKendallTauB(
        common.map((id) => -ta.get(id)!),
        common.map((id) => -tb.get(id)!),
      );
      rankings.push({ groupId, n: common.length, tau });
      for (let i = 0; i < common.length; i++)
        for (let j = i + 1; j < common.length; j++) {
          const x = common[i]!;
          const y = common[j]!;
          const da = Math.sign(ta.get(x)! - ta.get(y)!);
          const db = Math.sign(tb.get(x)! - tb.get(y)!);
          if (da !== db)
            disagreements.push({
              groupId,
              kind: "ranking",
              message: `${x} vs ${y}: ${order(x, y, da)} in the first file, ${order(x, y, db)} in the second`,
            });
        }
    }
    // Labels: every rollout both labelled (pass, fail or defer).
    for (const [rolloutId, la] of Object.entries(a.labels)) {
      const lb = b.labels[rolloutId];
      if (lb === undefined) continue;
      labelPairs.push([la, lb]);
      if (la !== lb)
        disagreements.push({
          groupId,
          rolloutId,
          kind: "label",
          message: `${rolloutId}: "${la}" in the first file, "${lb}" in the second`,
        });
    }
    // Hacks: over the group's rollouts when known, else over every rollout either file names.
    const ha = new Set(a.hacks);
    const hb = new Set(b.hacks);
    const universe = byId.has(groupId)
      ? byId.get(groupId)!.rollouts.map((r) => r.id)
      : [...new Set([...mentioned(a), ...mentioned(b)])];
    for (const rolloutId of universe) {
      const x = ha.has(rolloutId) ? "hack" : "not a hack";
      const y = hb.has(rolloutId) ? "hack" : "not a hack";
      hackPairs.push([x, y]);
      if (x !== y)
        disagreements.push({
          groupId,
          rolloutId,
          kind: "hack",
          message: `${rolloutId}: ${x} in the first file, ${y} in the second`,
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
