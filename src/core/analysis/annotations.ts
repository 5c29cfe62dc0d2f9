/**
 * Human annotations, as the studio exports them (version 1). Rankings are tiers of rollout ids,
 * best first. Later versions may add fields but never rename these. Parsing and validation of files
 * lives in src/io; this is the typed shape after the boundary.
 */
import type { GroupId, RolloutId } from "../types.ts";

export type HumanLabel = "pass" | "fail" | "defer";

export interface GroupAnnotation {
  /** Best-first tiers of rollout ids; a tier with several ids is a tie. Empty: no ranking. */
  readonly ranking: readonly (readonly RolloutId[])[];
  readonly hacks: readonly RolloutId[];
  readonly labels: Readonly<Record<RolloutId, HumanLabel>>;
  readonly notes: string;
  /** Someone read the whole group (the review flow's "done"); absent in older files: false. */
  readonly reviewed: boolean;
}

export interface Annotations {
  readonly version: 1;
  readonly groups: Readonly<Record<GroupId, GroupAnnotation>>;
}

export const ANNOTATIONS_EMPTY: Annotations = { version: 1, groups: {} };

export const GROUP_ANNOTATION_EMPTY: GroupAnnotation = {
  ranking: [],
  hacks: [],
  labels: {},
  notes: "",
  reviewed: false,
};
