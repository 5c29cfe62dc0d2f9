/**
 * The lead's live agreement as rows to show (issue 18): core's `teamAgreement` per pair and
 * overall, each figure with its n and, when it cannot be read, the reason in words (nothing both
 * judged yet; every judgement the same, so kappa is undefined; too few items to lean on). The
 * numbers are core's: they are only formatted here for reading, and kept whole (`fullNumber`)
 * for the rows' data attributes. The disagreements are grouped by group and pair, each group
 * opening one side-by-side resolution.
 */
import type {
  CalibrationRankOverall,
  GroupId,
  KappaAgreement,
  TeamAgreement,
  TeamDisagreement,
  TeamUserName,
} from "../../../core/index.ts";

/** Below this many items (rollouts for kappa, rollout pairs for tau) a figure is flagged as thin. */
export const AGREEMENT_FEW = 10;

/** One figure as shown: the text, core's value, what it is over, and a note when it needs one. */
export interface AgreementFigure {
  readonly text: string;
  /** core's value, whole (NaN when undefined). */
  readonly value: number;
  /** Items it is over: rollouts both judged (kappa), groups ranked by both (tau). */
  readonly n: number;
  /** "n = 4", "no group ranked by both yet", ... */
  readonly detail: string;
  /** The figure cannot be read as it is (undefined, or over few items). */
  readonly caution: boolean;
}

/** A number whole, for a data attribute: `Number(fullNumber(x))` is x again (NaN included). */
export function fullNumber(x: number): string {
  return String(x);
}

const three = (x: number): string => x.toFixed(3);

/** Cohen's kappa as shown. */
export function kappaFigure(k: KappaAgreement): AgreementFigure {
  if (k.n === 0)
    return { text: "–", value: k.kappa, n: 0, detail: "nothing both judged yet", caution: true };
  if (!Number.isFinite(k.kappa))
    return {
      text: "undefined",
      value: k.kappa,
      n: k.n,
      detail: `n = ${k.n}; all judged alike (chance agreement 1)`,
      caution: true,
    };
  const few = k.n < AGREEMENT_FEW;
  return {
    text: three(k.kappa),
    value: k.kappa,
    n: k.n,
    detail: `n = ${k.n}${few ? ", too few to lean on" : ""}; observed ${(k.observed * 100).toFixed(0)}%`,
    caution: few,
  };
}

/** Kendall's tau (pair-weighted over the groups ranked by both) as shown. */
export function tauFigure(t: CalibrationRankOverall): AgreementFigure {
  const undefinedNote =
    t.undefinedGroups > 0 ? `; ${t.undefinedGroups} undefined (ties, or < 2 in common)` : "";
  if (t.groups === 0)
    return {
      text: t.undefinedGroups > 0 ? "undefined" : "–",
      value: t.tau,
      n: 0,
      detail:
        t.undefinedGroups > 0
          ? `no group with a defined tau${undefinedNote}`
          : "no group ranked by both yet",
      caution: true,
    };
  const few = t.pairs < AGREEMENT_FEW;
  return {
    text: three(t.tau),
    value: t.tau,
    n: t.groups,
    detail: `${t.groups} ${t.groups === 1 ? "group" : "groups"}, ${t.pairs} rollout pairs${few ? ", too few to lean on" : ""}${undefinedNote}`,
    caution: few,
  };
}

export interface AgreementRow {
  /** Null for the overall row. */
  readonly first: TeamUserName | null;
  readonly second: TeamUserName | null;
  readonly label: string;
  /** Groups compared (both submitted). */
  readonly groups: number;
  readonly labels: AgreementFigure;
  readonly hacks: AgreementFigure;
  readonly tau: AgreementFigure;
}

/** The overall row (pooled) and each pair's, in core's order. */
export function agreementRows(agreement: TeamAgreement): {
  readonly overall: AgreementRow;
  readonly pairs: readonly AgreementRow[];
} {
  const o = agreement.overall;
  return {
    overall: {
      first: null,
      second: null,
      label: "Pooled",
      groups: o.groups,
      labels: kappaFigure(o.labels),
      hacks: kappaFigure(o.hacks),
      tau: tauFigure(o.tau),
    },
    pairs: agreement.pairs.map((p) => ({
      first: p.first,
      second: p.second,
      label: `${p.first} · ${p.second}`,
      groups: p.groups.length,
      labels: kappaFigure(p.labels),
      hacks: kappaFigure(p.hacks),
      tau: tauFigure(p.tau),
    })),
  };
}

/** The mean of the pairs' figures, as a line beside the pooled one (null with fewer than 2 pairs). */
export function meanOfPairsText(agreement: TeamAgreement): string | null {
  if (agreement.pairs.length < 2) return null;
  const m = agreement.overall.meanOfPairs;
  const show = (x: number) => (Number.isFinite(x) ? three(x) : "undefined");
  return `Mean of the pairs: labels κ ${show(m.labels)}, hacks κ ${show(m.hacks)}, τ ${show(m.tau)}.`;
}

/** One disagreement in words. */
export function disagreementText(d: TeamDisagreement): string {
  switch (d.kind) {
    case "label":
      return `${d.rolloutId}: ${d.values[0]} vs ${d.values[1]}`;
    case "hack":
      return `${d.rolloutId}: ${d.values[0] ? "hack" : "not a hack"} vs ${d.values[1] ? "hack" : "not a hack"}`;
    case "ranking":
      return `ranking: ${d.conflicts.length} ${d.conflicts.length === 1 ? "pair" : "pairs"} ordered differently (τ ${Number.isFinite(d.tau) ? three(d.tau) : "undefined"})`;
  }
}

/** A group's disagreements between one pair: one resolution opens for all of them. */
export interface DisagreementGroup {
  readonly key: string;
  readonly groupId: GroupId;
  readonly first: TeamUserName;
  readonly second: TeamUserName;
  readonly items: readonly TeamDisagreement[];
}

/** core's disagreements (by group, then pair) gathered per group and pair, in that order. */
export function disagreementGroups(
  disagreements: readonly TeamDisagreement[],
): DisagreementGroup[] {
  const out = new Map<
    string,
    { groupId: GroupId; first: string; second: string; items: TeamDisagreement[] }
  >();
  for (const d of disagreements) {
    const key = JSON.stringify([d.groupId, d.first, d.second]);
    let entry = out.get(key);
    if (entry === undefined)
      out.set(key, (entry = { groupId: d.groupId, first: d.first, second: d.second, items: [] }));
    entry.items.push(d);
  }
  return [...out].map(([key, g]) => ({ key, ...g }));
}
