/**
 * Human annotations of the loaded dataset (core's versioned `Annotations`): rankings, hacks,
 * labels, notes and the reviewed mark, by group id. Every number that depends on them is derived
 * in hooks.ts, so a change here updates the advantages at once.
 */
import type { StateCreator } from "zustand";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
  type GroupAnnotation,
} from "../../core/index.ts";
import type { Store } from "../index.ts";
import type { PersistState } from "../persistence/annotationsSync.ts";

export interface AnnotationSlice {
  readonly annotations: Annotations;
  /** Whether the annotations are saved in this browser (IndexedDB), and any failure to do so. */
  readonly persist: PersistState;
  /** Replace every annotation (an imported file; a new dataset starts from empty). */
  readonly setAnnotations: (annotations: Annotations) => void;
  /** Change one group's annotation; an annotation equal to the empty one is removed. */
  readonly updateGroupAnnotation: (
    groupId: string,
    update: (current: GroupAnnotation) => GroupAnnotation,
  ) => void;
  readonly setReviewed: (groupId: string, reviewed: boolean) => void;
}

function isEmpty(a: GroupAnnotation): boolean {
  return (
    a.ranking.length === 0 &&
    a.hacks.length === 0 &&
    Object.keys(a.labels).length === 0 &&
    a.notes === "" &&
    !a.reviewed
  );
}

export const createAnnotationSlice: StateCreator<Store, [], [], AnnotationSlice> = (set) => ({
  annotations: ANNOTATIONS_EMPTY,
  persist: { status: "off" },
  setAnnotations: (annotations) => set({ annotations }),
  updateGroupAnnotation: (groupId, update) =>
    set((s) => {
      const next = update(s.annotations.groups[groupId] ?? GROUP_ANNOTATION_EMPTY);
      const groups = { ...s.annotations.groups };
      if (isEmpty(next)) delete groups[groupId];
      else groups[groupId] = next;
      return { annotations: { version: 1, groups } };
    }),
  setReviewed: (groupId, reviewed) =>
    set((s) => {
      const current = s.annotations.groups[groupId] ?? GROUP_ANNOTATION_EMPTY;
      const next = { ...current, reviewed };
      const groups = { ...s.annotations.groups };
      if (isEmpty(next)) delete groups[groupId];
      else groups[groupId] = next;
      return { annotations: { version: 1, groups } };
    }),
});
