/**
 * Live agreement of a team (issue 18): over the groups two people both submitted, Cohen's kappa on
 * labels and on hack marks and Kendall's tau-b on rankings, per pair of annotators and overall, and
 * every disagreement with both sides' values (so the studio opens the group with both annotations
 * side by side). Each group is compared by `compareGroupAnnotations`, the primitive the two-file
 * comparison (`annotationsAgreement`) adds up, so the team's numbers and the merge report's are
 * the same numbers on the same annotations.
 *
 * Blind mode: a draft is never compared. Only a group both people submitted counts, whatever the
 * other drafts hold, so a number the lead sees cannot move while someone is still typing.
 *
 * Overall, precisely:
 * - pooled (the headline): kappa over every pair's items together, as if one table, each item
 *   with its pair's first person on the first side (pairs ordered as `annotators`); tau as the
 *   pair-weighted mean over every pair's ranked groups (`calibrationRankOverall`: each compared
 *   pair of rollouts weighs the same);
 * - the mean of the pairs' values, over the pairs where the value is defined (a pair with few
 *   items weighs as much as one with many), given beside it.
 */
import type { GroupAnnotation, HumanLabel } from "../analysis/annotations.ts";
import {
  cohenKappa,
  compareGroupAnnotations,
  type GroupComparison,
  type KappaAgreement,
  type RankingConflict,
} from "../analysis/interAnnotator.ts";
import {
  calibrationRankOverall,
  type CalibrationRankOverall,
  type CalibrationRankRow,
} from "../calibration/rankAgreement.ts";
import type { GroupId, RolloutId } from "../types.ts";
import { teamLatestWork, teamWorkKey } from "./progress.ts";
import type { TeamUserName, TeamWork } from "./types.ts";

interface TeamDisagreementBase {
  readonly groupId: GroupId;
  readonly first: TeamUserName;
  readonly second: TeamUserName;
}

/** One rollout labelled differently: `values` = [first's label, second's]. */
export interface TeamLabelDisagreement extends TeamDisagreementBase {
  readonly kind: "label";
  readonly rolloutId: RolloutId;
  readonly values: readonly [HumanLabel, HumanLabel];
}

/** One rollout marked a hack by one of the two: `values` = [first marked it, second marked it]. */
export interface TeamHackDisagreement extends TeamDisagreementBase {
  readonly kind: "hack";
  readonly rolloutId: RolloutId;
  readonly values: readonly [boolean, boolean];
}

/**
 * Rankings that order some commonly ranked rollouts differently: `values` = both rankings
 * (best-first tiers), the group's tau-b, and each pair of rollouts ordered differently.
 */
export interface TeamRankingDisagreement extends TeamDisagreementBase {
  readonly kind: "ranking";
  readonly values: readonly [GroupAnnotation["ranking"], GroupAnnotation["ranking"]];
  readonly tau: number;
  readonly conflicts: readonly RankingConflict[];
}

export type TeamDisagreement =
  TeamLabelDisagreement | TeamHackDisagreement | TeamRankingDisagreement;

export interface TeamPairAgreement {
  readonly first: TeamUserName;
  readonly second: TeamUserName;
  /** The groups both submitted (in the groups' order): what the figures are over. */
  readonly groups: readonly GroupId[];
  /** Cohen's kappa on the labels of rollouts both labelled. */
  readonly labels: KappaAgreement;
  /** Cohen's kappa on hack marks ("hack" / "not a hack"; see `compareGroupAnnotations`). */
  readonly hacks: KappaAgreement;
  /** Per group with two rollouts or more ranked by both: tau-b and its weight. */
  readonly rankings: readonly CalibrationRankRow[];
  /** The pair-weighted tau over `rankings`. */
  readonly tau: CalibrationRankOverall;
  readonly disagreements: readonly TeamDisagreement[];
}

export interface TeamAgreementOverall {
  /** Pooled kappa on labels over every pair's items (see the module comment). */
  readonly labels: KappaAgreement;
  /** Pooled kappa on hack marks. */
  readonly hacks: KappaAgreement;
  /** Pair-weighted tau over every pair's ranked groups. */
  readonly tau: CalibrationRankOverall;
  /** The mean of the pairs' kappas and taus, over the pairs where each is defined; NaN if none. */
  readonly meanOfPairs: { readonly labels: number; readonly hacks: number; readonly tau: number };
  /** Groups some pair both submitted. */
  readonly groups: number;
}

export interface TeamAgreement {
  /** The people compared, in the order pairs take them. */
  readonly annotators: readonly TeamUserName[];
  /** Every pair of them (first before second in `annotators`), with or without shared groups. */
  readonly pairs: readonly TeamPairAgreement[];
  readonly overall: TeamAgreementOverall;
  /** Every pair's disagreements, by group (in the groups' order), then pair, then kind. */
  readonly disagreements: readonly TeamDisagreement[];
}

export interface TeamAgreementOptions {
  /**
   * The people to compare, in order (e.g. the assignment's annotators); work by anyone else is
   * left out. Default: everyone with a submitted group, in code-unit order of their names.
   */
  readonly annotators?: readonly TeamUserName[];
  /**
   * The groups to compare (e.g. a queue), in order. Default: every group of the work, in the order
   * it first appears there.
   */
  readonly groups?: readonly GroupId[];
  /** Each group's rollout ids, when known: hack marks are then compared over all of them. */
  readonly rollouts?: ReadonlyMap<GroupId, readonly RolloutId[]>;
}

const hackWord = (marked: boolean): string => (marked ? "hack" : "not a hack");

/** The comparisons of the groups both people submitted, in the groups' order. */
function comparePair(
  first: TeamUserName,
  second: TeamUserName,
  latest: ReadonlyMap<string, TeamWork>,
  groups: readonly GroupId[],
  rollouts: ReadonlyMap<GroupId, readonly RolloutId[]> | undefined,
): GroupComparison[] {
  const out: GroupComparison[] = [];
  for (const groupId of groups) {
    const a = latest.get(teamWorkKey(first, groupId));
    const b = latest.get(teamWorkKey(second, groupId));
    if (a?.submitted !== true || b?.submitted !== true) continue;
    out.push(compareGroupAnnotations(groupId, a.annotation, b.annotation, rollouts?.get(groupId)));
  }
  return out;
}

/** Kappas and tau over some comparisons (one pair's, or every pair's pooled). */
function figures(comparisons: readonly GroupComparison[]) {
  const rankings = comparisons.flatMap((c) => (c.ranking === null ? [] : [c.ranking]));
  return {
    labels: cohenKappa(
      comparisons.flatMap((c) => c.labels.map((l) => [l.first, l.second] as const)),
    ),
    hacks: cohenKappa(
      comparisons.flatMap((c) =>
        c.hacks.map((h) => [hackWord(h.first), hackWord(h.second)] as const),
      ),
    ),
    rankings,
    tau: calibrationRankOverall(rankings),
  };
}

/** The disagreements of one group's comparison: the ranking's, then labels, then hacks. */
function disagreementsOf(
  c: GroupComparison,
  first: TeamUserName,
  second: TeamUserName,
  a: GroupAnnotation,
  b: GroupAnnotation,
): TeamDisagreement[] {
  const base = { groupId: c.groupId, first, second };
  const out: TeamDisagreement[] = [];
  if (c.rankingConflicts.length > 0)
    out.push({
      ...base,
      kind: "ranking",
      values: [a.ranking, b.ranking],
      tau: c.ranking?.tau ?? NaN,
      conflicts: c.rankingConflicts,
    });
  for (const l of c.labels)
    if (l.first !== l.second)
      out.push({ ...base, kind: "label", rolloutId: l.rolloutId, values: [l.first, l.second] });
  for (const h of c.hacks)
    if (h.first !== h.second)
      out.push({ ...base, kind: "hack", rolloutId: h.rolloutId, values: [h.first, h.second] });
  return out;
}

function pairAgreement(
  first: TeamUserName,
  second: TeamUserName,
  latest: ReadonlyMap<string, TeamWork>,
  comparisons: readonly GroupComparison[],
): TeamPairAgreement {
  const annotation = (user: TeamUserName, groupId: GroupId) =>
    latest.get(teamWorkKey(user, groupId))!.annotation;
  return {
    first,
    second,
    groups: comparisons.map((c) => c.groupId),
    ...figures(comparisons),
    disagreements: comparisons.flatMap((c) =>
      disagreementsOf(
        c,
        first,
        second,
        annotation(first, c.groupId),
        annotation(second, c.groupId),
      ),
    ),
  };
}

/** The groups to compare: the given ones, or the work's in order of first appearance. */
function groupOrder(work: readonly TeamWork[], options: TeamAgreementOptions): GroupId[] {
  return [...new Set(options.groups ?? work.map((w) => w.groupId))];
}

/**
 * One pair's agreement over the groups both submitted. Symmetric: swapping the two swaps each
 * value pair and conflict sign and leaves every figure as it is.
 */
export function teamPairAgreement(
  first: TeamUserName,
  second: TeamUserName,
  work: readonly TeamWork[],
  options: TeamAgreementOptions = {},
): TeamPairAgreement {
  const latest = teamLatestWork(work);
  const groups = groupOrder(work, options);
  return pairAgreement(
    first,
    second,
    latest,
    comparePair(first, second, latest, groups, options.rollouts),
  );
}

const meanDefined = (values: readonly number[]): number => {
  const defined = values.filter(Number.isFinite);
  return defined.length === 0 ? NaN : defined.reduce((s, v) => s + v, 0) / defined.length;
};

/** A team's agreement: every pair's and overall (see the module comment for "overall"). */
export function teamAgreement(
  work: readonly TeamWork[],
  options: TeamAgreementOptions = {},
): TeamAgreement {
  const annotators = [
    ...new Set(
      options.annotators ??
        work
          .filter((w) => w.submitted)
          .map((w) => w.user)
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    ),
  ];
  const latest = teamLatestWork(work);
  const groups = groupOrder(work, options);
  const pairs: TeamPairAgreement[] = [];
  const pooled: GroupComparison[] = [];
  annotators.forEach((first, i) => {
    for (const second of annotators.slice(i + 1)) {
      const comparisons = comparePair(first, second, latest, groups, options.rollouts);
      pooled.push(...comparisons);
      pairs.push(pairAgreement(first, second, latest, comparisons));
    }
  });
  const position = new Map(groups.map((g, i) => [g, i]));
  const all = pairs
    .flatMap((p, pairIndex) => p.disagreements.map((d) => ({ d, pairIndex })))
    .sort(
      (x, y) =>
        position.get(x.d.groupId)! - position.get(y.d.groupId)! || x.pairIndex - y.pairIndex,
    )
    .map(({ d }) => d);
  const total = figures(pooled);
  return {
    annotators,
    pairs,
    overall: {
      labels: total.labels,
      hacks: total.hacks,
      tau: total.tau,
      meanOfPairs: {
        labels: meanDefined(pairs.map((p) => p.labels.kappa)),
        hacks: meanDefined(pairs.map((p) => p.hacks.kappa)),
        tau: meanDefined(pairs.map((p) => p.tau.tau)),
      },
      groups: new Set(pooled.map((c) => c.groupId)).size,
    },
    disagreements: all,
  };
}
