/**
 * Merging another annotator's file into the current annotations, and the view model of the
 * agreement report (core `annotationsAgreement`: Kendall tau on rankings, Cohen's kappa on labels
 * and hack marks, the disagreements).
 *
 * The merge rule, as the report states it: groups only in the other file are added; in groups both
 * files annotate, the current values are kept, and the other file fills only what the current one
 * leaves empty (a missing ranking, empty notes, unlabelled rollouts, rollout notes, a comparison
 * session). Hack marks and the reviewed mark stay the current file's (an unmarked rollout is a
 * judgement too).
 */
import type {
  Annotations,
  GroupAnnotation,
  InterAnnotatorReport,
  KappaAgreement,
} from "../../../core/index.ts";

export interface MergeResult {
  readonly merged: Annotations;
  /** Groups taken whole from the other file. */
  readonly added: number;
  /** Shared groups where the other file filled an empty field. */
  readonly filled: number;
}

function fillGroup(current: GroupAnnotation, other: GroupAnnotation): GroupAnnotation {
  return {
    ...current,
    ranking: current.ranking.length > 0 ? current.ranking : other.ranking,
    notes: current.notes.trim() !== "" ? current.notes : other.notes,
    labels: { ...other.labels, ...current.labels },
    rolloutNotes: { ...other.rolloutNotes, ...current.rolloutNotes },
    pairwise: current.pairwise ?? other.pairwise,
  };
}

function sameGroup(x: GroupAnnotation, y: GroupAnnotation): boolean {
  return (
    x.ranking === y.ranking &&
    x.notes === y.notes &&
    x.pairwise === y.pairwise &&
    Object.keys(x.labels).length === Object.keys(y.labels).length &&
    Object.keys(x.rolloutNotes).length === Object.keys(y.rolloutNotes).length
  );
}

export function mergeAnnotations(current: Annotations, other: Annotations): MergeResult {
  const groups: Record<string, GroupAnnotation> = { ...current.groups };
  let added = 0;
  let filled = 0;
  for (const [id, theirs] of Object.entries(other.groups)) {
    const ours = current.groups[id];
    if (ours === undefined) {
      groups[id] = theirs;
      added++;
      continue;
    }
    const next = fillGroup(ours, theirs);
    if (!sameGroup(next, ours)) {
      groups[id] = next;
      filled++;
    }
  }
  const reasons = [...current.hackReasons];
  for (const r of other.hackReasons) if (!reasons.includes(r)) reasons.push(r);
  return {
    merged:
      added === 0 && filled === 0 && reasons.length === current.hackReasons.length
        ? current
        : { ...current, hackReasons: reasons, groups },
    added,
    filled,
  };
}

const fixed = (x: number, digits = 3): string => (Number.isFinite(x) ? x.toFixed(digits) : "–");
const pct = (x: number): string => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "–");

export interface KappaView {
  readonly n: number;
  readonly observed: string;
  readonly kappa: string;
}

function kappaView(k: KappaAgreement): KappaView {
  return { n: k.n, observed: pct(k.observed), kappa: fixed(k.kappa) };
}

export interface AgreementView {
  readonly sharedGroups: number;
  readonly onlyCurrent: number;
  readonly onlyOther: number;
  readonly meanTau: string;
  readonly rankings: readonly { groupId: string; n: number; tau: string }[];
  readonly labels: KappaView;
  readonly hacks: KappaView;
  readonly disagreements: readonly {
    key: string;
    groupId: string;
    rolloutId: string;
    kind: string;
    message: string;
  }[];
}

/** The report with its numbers formatted ("–" where a figure is undefined, e.g. no shared data). */
export function prepareAgreement(report: InterAnnotatorReport): AgreementView {
  return {
    sharedGroups: report.sharedGroups,
    onlyCurrent: report.onlyFirst,
    onlyOther: report.onlySecond,
    meanTau: fixed(report.meanTau),
    rankings: report.rankings.map((r) => ({ groupId: r.groupId, n: r.n, tau: fixed(r.tau) })),
    labels: kappaView(report.labels),
    hacks: kappaView(report.hacks),
    disagreements: report.disagreements.map((d, i) => ({
      key: `${i}`,
      groupId: d.groupId,
      rolloutId: d.rolloutId ?? "",
      kind: d.kind,
      message: d.message,
    })),
  };
}
