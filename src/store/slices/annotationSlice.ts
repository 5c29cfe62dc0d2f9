/**
 * Human annotations of the loaded dataset (core's versioned `Annotations`): rankings, hacks,
 * labels, notes and the reviewed mark, by group id. Every number that depends on them is derived
 * in hooks.ts, so a change here updates the advantages at once.
 */
import type { StateCreator } from "zustand";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  groupAnnotationIsEmpty,
  type Annotations,
  type GroupAnnotation,
} from "../../core/index.ts";
import type { Store } from "../index.ts";
import type { PersistState } from "../persistence/annotationsSync.ts";

/** Undo steps kept per dataset. */
export const UNDO_LIMIT = 500;

export interface AnnotationSlice {
  readonly annotations: Annotations;
  /** Whether the annotations are saved in this browser (IndexedDB), and any failure to do so. */
  readonly persist: PersistState;
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
}

type AnnotationState = Pick<AnnotationSlice, "annotations" | "annotationPast" | "annotationFuture">;

/** A new state that can be undone; an unchanged one leaves the history alone. */
function commit(s: AnnotationState, annotations: Annotations): Partial<AnnotationState> {
  if (annotations === s.annotations) return {};
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

export const createAnnotationSlice: StateCreator<Store, [], [], AnnotationSlice> = (set) => ({
  annotations: ANNOTATIONS_EMPTY,
  persist: { status: "off" },
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
  undoAnnotation: () =>
    set((s) => {
      const previous = s.annotationPast[s.annotationPast.length - 1];
      if (previous === undefined) return {};
      return {
        annotations: previous,
        annotationPast: s.annotationPast.slice(0, -1),
        annotationFuture: [...s.annotationFuture, s.annotations],
      };
    }),
  redoAnnotation: () =>
    set((s) => {
      const next = s.annotationFuture[s.annotationFuture.length - 1];
      if (next === undefined) return {};
      return {
        annotations: next,
        annotationPast: [...s.annotationPast, s.annotations],
        annotationFuture: s.annotationFuture.slice(0, -1),
      };
    }),
});
