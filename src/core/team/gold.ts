/**
 * Gold annotations (issue 18): the lead's resolution of a group becomes its gold annotation, and
 * the gold document is a version-1 annotations file (`rollout-studio export --annotator gold`),
 * as is one annotator's work. Calibration can then take the gold, or any annotator, as its human
 * side.
 *
 * A suggestion is not gold. `teamSuggestGold` offers the lead what every submitted annotation of a
 * group agrees on, and names what is left open; only a resolution the lead saves (which may be the
 * suggestion, as it is or edited) is gold. Nothing here turns agreement into gold by itself.
 */
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  groupAnnotationIsEmpty,
  type Annotations,
  type GroupAnnotation,
  type HackDetail,
  type HumanLabel,
} from "../analysis/annotations.ts";
import type { GroupId, RolloutId } from "../types.ts";
import { teamLatestWork } from "./progress.ts";
import type { TeamUserName, TeamWork } from "./types.ts";

/** The annotator name of the gold document. */
export const TEAM_GOLD_ANNOTATOR = "gold";

/** The lead's resolution of one group: its gold annotation. */
export interface TeamResolution {
  readonly groupId: GroupId;
  readonly annotation: GroupAnnotation;
  /** The lead who resolved it. */
  readonly lead: TeamUserName;
}

export interface TeamDocumentOptions {
  /** The hack taxonomy the document states (default: `HACK_REASONS_DEFAULT`). */
  readonly hackReasons?: readonly string[];
}

/**
 * A version-1 annotations document of some groups' annotations, under an annotator's name. A
 * later entry for a group replaces an earlier one; an empty annotation is not stored (as the
 * studio never stores one). Judge runs, rubrics and calibration are the empty document's.
 */
export function teamAnnotationsDocument(
  annotator: string,
  entries: readonly { readonly groupId: GroupId; readonly annotation: GroupAnnotation }[],
  options: TeamDocumentOptions = {},
): Annotations {
  const groups = new Map<GroupId, GroupAnnotation>();
  for (const { groupId, annotation } of entries) {
    groups.delete(groupId);
    if (!groupAnnotationIsEmpty(annotation)) groups.set(groupId, annotation);
  }
  return {
    ...ANNOTATIONS_EMPTY,
    annotator,
    hackReasons: options.hackReasons ?? ANNOTATIONS_EMPTY.hackReasons,
    groups: Object.fromEntries(groups),
  };
}

/** The gold document: every resolution's annotation, under the annotator name "gold". */
export function teamGoldDocument(
  resolutions: readonly TeamResolution[],
  options: TeamDocumentOptions = {},
): Annotations {
  return teamAnnotationsDocument(TEAM_GOLD_ANNOTATOR, resolutions, options);
}

/**
 * One person's annotations as a version-1 document: the groups they submitted, or with
 * `include: "all"` their drafts too (their later entry for a group counts).
 */
export function teamAnnotatorDocument(
  user: TeamUserName,
  work: readonly TeamWork[],
  include: "submitted" | "all",
  options: TeamDocumentOptions = {},
): Annotations {
  const theirs = [...teamLatestWork(work.filter((w) => w.user === user)).values()];
  return teamAnnotationsDocument(
    user,
    theirs.filter((w) => include === "all" || w.submitted),
    options,
  );
}

export interface TeamGoldSuggestion {
  readonly groupId: GroupId;
  /**
   * What every submitted annotation agrees on, for the lead to edit and save as a resolution:
   * never gold by itself. Notes, rollout notes, comparisons and the reviewed mark start empty.
   */
  readonly suggestion: GroupAnnotation;
  /** Whose submitted annotations it was drawn from, in the order of the work. */
  readonly from: readonly TeamUserName[];
  /** What they do not all agree on, left out of the suggestion for the lead. */
  readonly open: {
    /** Rollouts someone labelled that not everyone labelled the same, in order of appearance. */
    readonly labels: readonly RolloutId[];
    /** Rollouts some but not all marked as hacks, in order of appearance. */
    readonly hacks: readonly RolloutId[];
    /** The rankings differ (or some ranked and some did not). */
    readonly ranking: boolean;
  };
}

/** Tiers as comparable text: each tier's ids sorted (a tie has no order). */
function tiersKey(ranking: GroupAnnotation["ranking"]): string {
  return JSON.stringify(ranking.map((tier) => [...tier].sort()));
}

function sameDetail(a: HackDetail | undefined, b: HackDetail | undefined): boolean {
  return (
    a !== undefined &&
    b !== undefined &&
    a.reason === b.reason &&
    a.note === b.note &&
    a.quote === b.quote
  );
}

/**
 * The suggested gold of one group from its submitted annotations (drafts are not read; a
 * person's later entry counts): a label every submitter gave the same rollout, the hack marks
 * every submitter made (with their detail when all details are the same), and the ranking when
 * every submitter's is the same. With one submitter the suggestion is theirs; with none, empty.
 */
export function teamSuggestGold(groupId: GroupId, work: readonly TeamWork[]): TeamGoldSuggestion {
  const submitted = [...teamLatestWork(work.filter((w) => w.groupId === groupId)).values()].filter(
    (w) => w.submitted,
  );
  const all = submitted.map((w) => w.annotation);
  const labels: [RolloutId, HumanLabel][] = [];
  const openLabels: RolloutId[] = [];
  for (const rolloutId of new Set(all.flatMap((a) => Object.keys(a.labels)))) {
    const given = all.map((a) =>
      Object.hasOwn(a.labels, rolloutId) ? a.labels[rolloutId] : undefined,
    );
    const first = given[0];
    if (first !== undefined && given.every((l) => l === first)) labels.push([rolloutId, first]);
    else openLabels.push(rolloutId);
  }
  const hacks: RolloutId[] = [];
  const hackDetails: [RolloutId, HackDetail][] = [];
  const openHacks: RolloutId[] = [];
  for (const rolloutId of new Set(all.flatMap((a) => a.hacks))) {
    if (!all.every((a) => a.hacks.includes(rolloutId))) {
      openHacks.push(rolloutId);
      continue;
    }
    hacks.push(rolloutId);
    const details = all.map((a) =>
      Object.hasOwn(a.hackDetails, rolloutId) ? a.hackDetails[rolloutId] : undefined,
    );
    const detail = details[0];
    if (detail !== undefined && details.every((d) => sameDetail(d, detail)))
      hackDetails.push([rolloutId, detail]);
  }
  const rankingAgreed = all.every((a) => tiersKey(a.ranking) === tiersKey(all[0]!.ranking));
  return {
    groupId,
    suggestion: {
      ...GROUP_ANNOTATION_EMPTY,
      labels: Object.fromEntries(labels),
      hacks,
      hackDetails: Object.fromEntries(hackDetails),
      ranking: rankingAgreed && all.length > 0 ? all[0]!.ranking : [],
    },
    from: submitted.map((w) => w.user),
    open: { labels: openLabels, hacks: openHacks, ranking: !rankingAgreed },
  };
}
