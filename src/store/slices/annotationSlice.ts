/**
 * Human annotations of the loaded dataset (core's versioned `Annotations`): rankings, hacks,
 * labels, notes and the reviewed mark, by group id. Every number that depends on them is derived
 * in hooks.ts, so a change here updates the advantages at once.
 */
import type { StateCreator } from "zustand";
import {
  annotationsWithCalibration,
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  groupAnnotationIsEmpty,
  rolloutSimilarityInput,
  type AnnotationExtras,
  type Annotations,
  type GroupAnnotation,
  type HackDetail,
  type HumanLabel,
  type Ranking,
  type SimilarityInput,
} from "../../core/index.ts";
import { similarRollouts } from "../../workers/computeClient.ts";
import type { Store } from "../index.ts";

/** One rollout of another group compared with a marked hack ("find similar"). */
export interface SimilarCandidate {
  readonly groupId: string;
  readonly rolloutId: string;
  /** n-gram Jaccard similarity with the hack's text, in [0, 1]. */
  readonly similarity: number;
}

/** Undo steps kept per dataset. */
export const UNDO_LIMIT = 500;

export interface AnnotationSlice {
  readonly annotations: Annotations;
  /** Earlier states, newest last, and undone states, newest last (undo and redo). */
  readonly annotationPast: readonly Annotations[];
  readonly annotationFuture: readonly Annotations[];
  /** Replace every annotation (an imported file). Undoable. */
  readonly setAnnotations: (annotations: Annotations) => void;
  /** Change one group's annotation; an annotation equal to the empty one is removed. */
  readonly updateGroupAnnotation: (
    groupId: string,
    update: (current: GroupAnnotation) => GroupAnnotation,
  ) => void;
  readonly setReviewed: (groupId: string, reviewed: boolean) => void;
  readonly undoAnnotation: () => void;
  readonly redoAnnotation: () => void;
  /** Replace a group's ranking (the ranking panel's edits, built with core's rankingEdit). */
  readonly setRanking: (groupId: string, ranking: Ranking) => void;
  /** Set a rollout's human label; null removes it. */
  readonly setLabel: (groupId: string, rolloutId: string, label: HumanLabel | null) => void;
  /** Mark a rollout as a hack with its details, or update the details of a marked one. */
  readonly markHack: (groupId: string, rolloutId: string, detail: HackDetail) => void;
  /** Unmark a hack; its details go too. */
  readonly unmarkHack: (groupId: string, rolloutId: string) => void;
  readonly setGroupNotes: (groupId: string, notes: string) => void;
  /** Set a rollout's note; "" removes it. */
  readonly setRolloutNote: (groupId: string, rolloutId: string, note: string) => void;
  /** Replace the hack taxonomy (blank and repeated reasons are dropped). */
  readonly setHackReasons: (reasons: readonly string[]) => void;
  /**
   * Change the document's extras (judge runs, rubrics, calibration). Not undoable: undo and redo
   * restore human judgements and keep the extras as they are. Saved like any annotation.
   */
  readonly updateAnnotationExtras: (
    update: (current: AnnotationExtras) => Partial<AnnotationExtras>,
  ) => void;
  /**
   * Every rollout of the other parsed groups with its n-gram similarity to one rollout's text
   * (settings' n and completion rule), computed in the compute worker. Nothing is stored.
   */
  readonly findSimilar: (groupId: string, rolloutId: string) => Promise<SimilarCandidate[]>;
}

type AnnotationState = Pick<AnnotationSlice, "annotations" | "annotationPast" | "annotationFuture">;

/**
 * A new state that can be undone; an unchanged one leaves the history alone. The calibration
 * records (core `annotationsWithCalibration`: a split for each new label, judge runs after the
 * unseal logged) are brought up to date here, on every change, whichever panel is open.
 */
function commit(s: AnnotationState, changed: Annotations): Partial<AnnotationState> {
  if (changed === s.annotations) return {};
  const annotations = annotationsWithCalibration(changed, new Date().toISOString());
  return {
    annotations,
    annotationPast: [...s.annotationPast, s.annotations].slice(-UNDO_LIMIT),
    annotationFuture: [],
  };
}

function withGroup(annotations: Annotations, groupId: string, next: GroupAnnotation): Annotations {
  if (annotations.groups[groupId] === next) return annotations;
  const groups = { ...annotations.groups };
  if (groupAnnotationIsEmpty(next)) delete groups[groupId];
  else groups[groupId] = next;
  return { ...annotations, groups };
}

function editGroup(
  s: AnnotationState,
  groupId: string,
  update: (current: GroupAnnotation) => GroupAnnotation,
): Partial<AnnotationState> {
  const current = s.annotations.groups[groupId] ?? GROUP_ANNOTATION_EMPTY;
  const next = update(current);
  if (next === current) return {};
  return commit(s, withGroup(s.annotations, groupId, next));
}

function extrasOf(a: Annotations): AnnotationExtras {
  return { judgeRuns: a.judgeRuns, rubrics: a.rubrics, calibration: a.calibration };
}

function sameTiers(a: Ranking, b: Ranking): boolean {
  return a.length === b.length && a.every((t, i) => t.join("\u0000") === b[i]!.join("\u0000"));
}

function omit<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const rest = { ...record };
  delete rest[key];
  return rest;
}

export const createAnnotationSlice: StateCreator<Store, [], [], AnnotationSlice> = (set, get) => ({
  annotations: ANNOTATIONS_EMPTY,
  annotationPast: [],
  annotationFuture: [],
  setAnnotations: (annotations) => set((s) => commit(s, annotations)),
  updateGroupAnnotation: (groupId, update) =>
    set((s) => {
      const current = s.annotations.groups[groupId] ?? GROUP_ANNOTATION_EMPTY;
      return commit(s, withGroup(s.annotations, groupId, update(current)));
    }),
  setReviewed: (groupId, reviewed) =>
    set((s) => {
      const current = s.annotations.groups[groupId] ?? GROUP_ANNOTATION_EMPTY;
      if (current.reviewed === reviewed) return {};
      return commit(s, withGroup(s.annotations, groupId, { ...current, reviewed }));
    }),
  setRanking: (groupId, ranking) =>
    set((s) =>
      editGroup(s, groupId, (a) =>
        sameTiers(a.ranking, ranking) ? a : { ...a, ranking: ranking.map((t) => [...t]) },
      ),
    ),
  setLabel: (groupId, rolloutId, label) =>
    set((s) => {
      const edited = editGroup(s, groupId, (a) => {
        if ((a.labels[rolloutId] ?? null) === label) return a;
        const labels = omit(a.labels, rolloutId);
        if (label !== null) labels[rolloutId] = label;
        return { ...a, labels };
      });
      if (edited.annotations === undefined) return edited;
      // A label remembers the task's rubric version current when it was set (rubrics issue).
      const rubric = edited.annotations.rubrics[groupId];
      const current = rubric?.versions[rubric.versions.length - 1];
      if (rubric === undefined || current === undefined) return edited;
      const labelVersions = omit(rubric.labelVersions, rolloutId);
      if (label !== null) labelVersions[rolloutId] = current.version;
      return {
        ...edited,
        annotations: {
          ...edited.annotations,
          rubrics: { ...edited.annotations.rubrics, [groupId]: { ...rubric, labelVersions } },
        },
      };
    }),
  markHack: (groupId, rolloutId, detail) =>
    set((s) =>
      editGroup(s, groupId, (a) => {
        const old = a.hackDetails[rolloutId];
        const marked = a.hacks.includes(rolloutId);
        if (
          marked &&
          old !== undefined &&
          old.reason === detail.reason &&
          old.note === detail.note &&
          old.quote === detail.quote
        )
          return a;
        return {
          ...a,
          hacks: marked ? a.hacks : [...a.hacks, rolloutId],
          hackDetails: { ...a.hackDetails, [rolloutId]: { ...detail } },
        };
      }),
    ),
  unmarkHack: (groupId, rolloutId) =>
    set((s) =>
      editGroup(s, groupId, (a) =>
        !a.hacks.includes(rolloutId) && a.hackDetails[rolloutId] === undefined
          ? a
          : {
              ...a,
              hacks: a.hacks.filter((h) => h !== rolloutId),
              hackDetails: omit(a.hackDetails, rolloutId),
            },
      ),
    ),
  setGroupNotes: (groupId, notes) =>
    set((s) => editGroup(s, groupId, (a) => (a.notes === notes ? a : { ...a, notes }))),
  setRolloutNote: (groupId, rolloutId, note) =>
    set((s) =>
      editGroup(s, groupId, (a) => {
        if ((a.rolloutNotes[rolloutId] ?? "") === note) return a;
        const rolloutNotes = omit(a.rolloutNotes, rolloutId);
        if (note !== "") rolloutNotes[rolloutId] = note;
        return { ...a, rolloutNotes };
      }),
    ),
  setHackReasons: (reasons) =>
    set((s) => {
      const clean = [...new Set(reasons.map((r) => r.trim()).filter((r) => r !== ""))];
      const old = s.annotations.hackReasons;
      if (clean.length === old.length && clean.every((r, i) => r === old[i])) return {};
      return commit(s, { ...s.annotations, hackReasons: clean });
    }),
  findSimilar: async (groupId, rolloutId) => {
    const { load, settings } = get();
    if (load.status !== "ready") return [];
    const source = load.groups.get(groupId)?.rollouts.find((r) => r.id === rolloutId);
    if (source === undefined) return [];
    const others: Omit<SimilarCandidate, "similarity">[] = [];
    const inputs: SimilarityInput[] = [];
    for (const [id, group] of load.groups) {
      if (id === groupId) continue;
      for (const r of group.rollouts) {
        others.push({ groupId: id, rolloutId: r.id });
        inputs.push(rolloutSimilarityInput(r, settings.completionRule, settings.textChars));
      }
    }
    const query = rolloutSimilarityInput(source, settings.completionRule, settings.textChars);
    const similarity = await similarRollouts(query, inputs, settings.ngram, settings.similarityOn);
    return others.map((o, i) => ({ ...o, similarity: similarity[i]! }));
  },
  updateAnnotationExtras: (update) =>
    set((s) => {
      const patch = update(extrasOf(s.annotations));
      if (Object.keys(patch).length === 0) return {};
      const next = { ...s.annotations, ...patch };
      return { annotations: annotationsWithCalibration(next, new Date().toISOString()) };
    }),
  undoAnnotation: () =>
    set((s) => {
      const previous = s.annotationPast[s.annotationPast.length - 1];
      if (previous === undefined) return {};
      return {
        annotations: { ...previous, ...extrasOf(s.annotations) },
        annotationPast: s.annotationPast.slice(0, -1),
        annotationFuture: [...s.annotationFuture, s.annotations],
      };
    }),
  redoAnnotation: () =>
    set((s) => {
      const next = s.annotationFuture[s.annotationFuture.length - 1];
      if (next === undefined) return {};
      return {
        annotations: { ...next, ...extrasOf(s.annotations) },
        annotationPast: [...s.annotationPast, s.annotations],
        annotationFuture: s.annotationFuture.slice(0, -1),
      };
    }),
});
