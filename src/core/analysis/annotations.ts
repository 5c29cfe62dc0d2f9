/**
 * Human annotations, as the studio exports them (version 1). Rankings are tiers of rollout ids,
 * best first. Later versions may add fields but never rename these. Parsing and validation of files
 * lives in src/io; this is the typed shape after the boundary.
 */
import type { GroupId, RolloutId } from "../types.ts";
import { CALIBRATION_STATE_EMPTY, type CalibrationState } from "../calibration/state.ts";
import type { RubricBook } from "../judge/rubricBook.ts";
import type { JudgeRun } from "../judge/runs.ts";
import type { PairwiseSession } from "./pairwise.ts";

export type HumanLabel = "pass" | "fail" | "defer";

/** The hack taxonomy a new annotation file starts with (annotation issue); users can edit it. */
export const HACK_REASONS_DEFAULT: readonly string[] = [
  "leaked or external answer",
  "invented id",
  "swallowed exception",
  "relaxed validation",
  "format gaming",
  "repeated side effect",
  "other",
];

/** Why a rollout is marked as a hack: a reason from the taxonomy, a note, the offending text. */
export interface HackDetail {
  readonly reason: string;
  readonly note: string;
  /** Text quoted from the transcript ("" when none was selected). */
  readonly quote: string;
}

export interface GroupAnnotation {
  /** Best-first tiers of rollout ids; a tier with several ids is a tie. Empty: no ranking. */
  readonly ranking: readonly (readonly RolloutId[])[];
  readonly hacks: readonly RolloutId[];
  readonly labels: Readonly<Record<RolloutId, HumanLabel>>;
  readonly notes: string;
  /** Someone read the whole group (the review flow's "done"); absent in older files: false. */
  readonly reviewed: boolean;
  /** Details of the rollouts in `hacks` (the list decides what is a hack; details may be absent). */
  readonly hackDetails: Readonly<Record<RolloutId, HackDetail>>;
  /** Free-text notes per rollout. */
  readonly rolloutNotes: Readonly<Record<RolloutId, string>>;
  /** The group's blind pairwise comparisons, or null when none were started. */
  readonly pairwise: PairwiseSession | null;
}

export interface Annotations {
  readonly version: 1;
  /** Who annotated ("" when not given): shown when two files are merged. */
  readonly annotator: string;
  /** The hack taxonomy in use. */
  readonly hackReasons: readonly string[];
  readonly groups: Readonly<Record<GroupId, GroupAnnotation>>;
  /** Judge runs, oldest first (absent in older files: none). */
  readonly judgeRuns: readonly JudgeRun[];
  /** Rubrics per task with their versions (absent in older files: none). */
  readonly rubrics: RubricBook;
  /** Calibration splits and the test split's seal (absent in older files: fresh and sealed). */
  readonly calibration: CalibrationState;
}

/** The document-level fields that are not human judgements: undo and redo leave them alone. */
export type AnnotationExtras = Pick<Annotations, "judgeRuns" | "rubrics" | "calibration">;

export const ANNOTATIONS_EMPTY: Annotations = {
  version: 1,
  annotator: "",
  hackReasons: HACK_REASONS_DEFAULT,
  groups: {},
  judgeRuns: [],
  rubrics: {},
  calibration: CALIBRATION_STATE_EMPTY,
};

export const GROUP_ANNOTATION_EMPTY: GroupAnnotation = {
  ranking: [],
  hacks: [],
  labels: {},
  notes: "",
  reviewed: false,
  hackDetails: {},
  rolloutNotes: {},
  pairwise: null,
};

/** True when an annotation says nothing (it is then not stored). */
export function groupAnnotationIsEmpty(a: GroupAnnotation): boolean {
  return (
    a.ranking.length === 0 &&
    a.hacks.length === 0 &&
    Object.keys(a.labels).length === 0 &&
    a.notes === "" &&
    !a.reviewed &&
    Object.keys(a.rolloutNotes).length === 0 &&
    a.pairwise === null
  );
}
