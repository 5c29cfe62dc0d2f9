/**
 * The lead's resolution of one group (issue 18): two people's annotations side by side, rollout by
 * rollout (labels, hack marks, notes) and as rankings, and the draft of the gold annotation the
 * lead edits. The draft starts from the gold already saved for the group, else from core's
 * `teamSuggestGold` (what both submitted annotations agree on); the lead takes one side whole, or
 * edits labels, hack marks, the ranking (one side's) and the notes. Saving writes the draft as the
 * group's gold; nothing here writes anything.
 */
import {
  GROUP_ANNOTATION_EMPTY,
  groupAnnotationIsEmpty,
  type GroupAnnotation,
  type GroupId,
  type HumanLabel,
  type RolloutId,
} from "../../../core/index.ts";

/** One rollout as both people left it. */
export interface ResolveRow {
  readonly rolloutId: RolloutId;
  /** The id as shown: without the group's prefix when it has one ("task-1/2" -> "2"). */
  readonly short: string;
  readonly labels: readonly [HumanLabel | null, HumanLabel | null];
  readonly hacks: readonly [boolean, boolean];
  readonly notes: readonly [string, string];
  /** The two differ on the label or the hack mark. */
  readonly differs: boolean;
}

/** A rollout id as shown in the resolution (the group is named above it). */
export function shortRolloutId(groupId: GroupId, rolloutId: RolloutId): string {
  const prefix = `${groupId}/`;
  return rolloutId.startsWith(prefix) && rolloutId.length > prefix.length
    ? rolloutId.slice(prefix.length)
    : rolloutId;
}

/**
 * The rows: the group's rollouts in their order when known, then any other rollout either
 * annotation (or the draft) mentions, in order of appearance.
 */
export function resolveRows(
  groupId: GroupId,
  sides: readonly [GroupAnnotation, GroupAnnotation],
  rolloutIds: readonly RolloutId[],
  draft: GroupAnnotation = GROUP_ANNOTATION_EMPTY,
): ResolveRow[] {
  const ids = new Set(rolloutIds);
  for (const a of [...sides, draft]) {
    for (const id of Object.keys(a.labels)) ids.add(id);
    for (const id of a.hacks) ids.add(id);
    for (const tier of a.ranking) for (const id of tier) ids.add(id);
    for (const id of Object.keys(a.rolloutNotes)) ids.add(id);
  }
  const [a, b] = sides;
  const label = (x: GroupAnnotation, id: RolloutId) =>
    Object.hasOwn(x.labels, id) ? x.labels[id]! : null;
  const note = (x: GroupAnnotation, id: RolloutId) =>
    Object.hasOwn(x.rolloutNotes, id) ? x.rolloutNotes[id]! : "";
  return [...ids].map((rolloutId) => {
    const labels = [label(a, rolloutId), label(b, rolloutId)] as const;
    const hacks = [a.hacks.includes(rolloutId), b.hacks.includes(rolloutId)] as const;
    return {
      rolloutId,
      short: shortRolloutId(groupId, rolloutId),
      labels,
      hacks,
      notes: [note(a, rolloutId), note(b, rolloutId)] as const,
      differs: labels[0] !== labels[1] || hacks[0] !== hacks[1],
    };
  });
}

/** A ranking in words, best first: "0 > 2 = 1" (a tie joined by "="); "not ranked". */
export function rankingText(groupId: GroupId, ranking: GroupAnnotation["ranking"]): string {
  if (ranking.length === 0) return "not ranked";
  return ranking
    .map((tier) => tier.map((id) => shortRolloutId(groupId, id)).join(" = "))
    .join(" > ");
}

/** One side as the gold: its judgements and notes; not the reviewed mark or pairwise session. */
export function takeSide(side: GroupAnnotation): GroupAnnotation {
  return {
    ...GROUP_ANNOTATION_EMPTY,
    ranking: side.ranking,
    labels: side.labels,
    hacks: side.hacks,
    hackDetails: side.hackDetails,
    notes: side.notes,
    rolloutNotes: side.rolloutNotes,
  };
}

/** The draft a resolution opens with: the saved gold, else core's suggestion. */
export function initialDraft(
  saved: GroupAnnotation | null,
  suggestion: GroupAnnotation,
): GroupAnnotation {
  return saved ?? suggestion;
}

/** The draft with one rollout's label set (null: none). */
export function draftLabel(
  draft: GroupAnnotation,
  rolloutId: RolloutId,
  label: HumanLabel | null,
): GroupAnnotation {
  const labels = Object.fromEntries(
    Object.entries(draft.labels).filter(([id]) => id !== rolloutId),
  );
  return { ...draft, labels: label === null ? labels : { ...labels, [rolloutId]: label } };
}

/**
 * The draft with one rollout marked as a hack or not. A new mark takes the detail (reason, note,
 * quote) of a side that marked it, the first one first.
 */
export function draftHack(
  draft: GroupAnnotation,
  rolloutId: RolloutId,
  marked: boolean,
  sides: readonly GroupAnnotation[],
): GroupAnnotation {
  const hacks = draft.hacks.filter((id) => id !== rolloutId);
  const hackDetails = Object.fromEntries(
    Object.entries(draft.hackDetails).filter(([id]) => id !== rolloutId),
  );
  if (!marked) return { ...draft, hacks, hackDetails };
  const detail = sides.find(
    (s) => s.hacks.includes(rolloutId) && Object.hasOwn(s.hackDetails, rolloutId),
  )?.hackDetails[rolloutId];
  return {
    ...draft,
    hacks: [...hacks, rolloutId],
    hackDetails: detail === undefined ? hackDetails : { ...hackDetails, [rolloutId]: detail },
  };
}

/** Which ranking the draft holds: one side's (0, 1), none, or one of its own ("other"). */
export function draftRankingSource(
  draft: GroupAnnotation,
  sides: readonly [GroupAnnotation, GroupAnnotation],
): 0 | 1 | "none" | "other" {
  const key = (r: GroupAnnotation["ranking"]) => JSON.stringify(r.map((t) => [...t].sort()));
  if (draft.ranking.length === 0) return "none";
  if (key(draft.ranking) === key(sides[0].ranking)) return 0;
  if (key(draft.ranking) === key(sides[1].ranking)) return 1;
  return "other";
}

/** Does the draft say something (an empty gold is not stored: saving it clears the group)? */
export function draftIsEmpty(draft: GroupAnnotation): boolean {
  return groupAnnotationIsEmpty(draft);
}

/** The draft differs from what is saved (for the "not saved" mark). */
export function draftChanged(draft: GroupAnnotation, saved: GroupAnnotation | null): boolean {
  return JSON.stringify(draft) !== JSON.stringify(saved ?? GROUP_ANNOTATION_EMPTY);
}
