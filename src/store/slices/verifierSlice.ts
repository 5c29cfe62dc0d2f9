/**
 * The reward spec the user applied and what it gave, as an overlay over the loaded data: the load
 * (datasetSlice) always holds the file's own rollouts, and the rollouts every view reads are
 * derived here from the load plus the verifiers' scored groups (`selectViewLoad`). The scoring
 * itself runs in store/verifiers/verifierSync.ts, loaded only when a spec is saved or the
 * Verifiers panel opens; this slice is state and small pure functions, in the first page's bundle.
 */
import type { StateCreator } from "zustand";
import {
  rolloutReward,
  VERIFIER_SPEC_EMPTY,
  type JudgeRun,
  type LoggedRewardResolution,
  type RolloutGroup,
  type VerifierOutcome,
  type VerifierSpec,
} from "../../core/index.ts";
import type { Store } from "../createStore.ts";
import type { LoadState } from "./datasetSlice.ts";

export type VerifierStatus =
  /** No spec in force (nothing enabled, the logged reward kept), or no dataset. */
  | { readonly kind: "off" }
  | { readonly kind: "running"; readonly rollouts: number }
  | { readonly kind: "done"; readonly rollouts: number }
  /** The spec does not fit the loaded data; the data is shown without it. */
  | { readonly kind: "invalid"; readonly problems: readonly string[] }
  | { readonly kind: "error"; readonly message: string };

/** The outcomes of the spec in force, by rollout id (rows in `names` order). */
export interface VerifierResults {
  readonly names: readonly string[];
  readonly byRollout: ReadonlyMap<string, readonly VerifierOutcome[]>;
  /** The judge runs the outcomes were scored with (judge verifiers' versions name the run read). */
  readonly judgeRuns: readonly JudgeRun[];
  /** The logged-reward rule applied (`auto` resolved on the file's rollouts); null before a run. */
  readonly resolution: LoggedRewardResolution | null;
  /** Each scored rollout's own reward (the file's, before the verifiers), by id. */
  readonly logged: ReadonlyMap<string, number | null>;
}

export const VERIFIER_RESULTS_EMPTY: VerifierResults = {
  names: [],
  byRollout: new Map(),
  judgeRuns: [],
  resolution: null,
  logged: new Map(),
};

/** One group as the verifiers scored it, and the file's group it was scored from. */
export interface ScoredGroup {
  readonly raw: RolloutGroup;
  readonly scored: RolloutGroup;
}

/**
 * The verifiers' groups over the loaded data. A scored group is shown only while the load still
 * holds the very group it was scored from (same file, not re-parsed since), so an overlay can never
 * show one file's scores over another's rollouts.
 */
export interface VerifierOverlay {
  /** What the scores depend on (the spec, the judge runs read, the logged-reward rule). */
  readonly key: string;
  readonly file: File | null;
  readonly groups: ReadonlyMap<string, ScoredGroup>;
}

export const VERIFIER_OVERLAY_EMPTY: VerifierOverlay = { key: "", file: null, groups: new Map() };

export interface VerifierState {
  /** The applied spec: what the data is scored with. */
  readonly spec: VerifierSpec;
  /** The spec being edited in the panel (not persisted); applying it makes it `spec`. */
  readonly draft: VerifierSpec;
  readonly status: VerifierStatus;
  readonly results: VerifierResults;
  /** The reward components of the loaded file's own rollouts, for checks and pickers. */
  readonly fileComponents: readonly string[];
  readonly overlay: VerifierOverlay;
}

export interface VerifierSlice {
  readonly verifiers: VerifierState;
  readonly setVerifierDraft: (draft: VerifierSpec) => void;
  /** Apply a spec (the draft, or an imported one): the data is re-scored with it. */
  readonly applyVerifierSpec: (spec: VerifierSpec) => void;
  /** The sync's writes: status, results, the file's components and the overlay. */
  readonly updateVerifiers: (
    partial: Partial<Pick<VerifierState, "status" | "results" | "fileComponents" | "overlay">>,
  ) => void;
}

export const VERIFIER_STATE_EMPTY: VerifierState = {
  spec: VERIFIER_SPEC_EMPTY,
  draft: VERIFIER_SPEC_EMPTY,
  status: { kind: "off" },
  results: VERIFIER_RESULTS_EMPTY,
  fileComponents: [],
  overlay: VERIFIER_OVERLAY_EMPTY,
};

export const createVerifierSlice: StateCreator<Store, [], [], VerifierSlice> = (set) => ({
  verifiers: VERIFIER_STATE_EMPTY,
  setVerifierDraft: (draft) => set((s) => ({ verifiers: { ...s.verifiers, draft } })),
  applyVerifierSpec: (spec) => set((s) => ({ verifiers: { ...s.verifiers, spec, draft: spec } })),
  updateVerifiers: (partial) => set((s) => ({ verifiers: { ...s.verifiers, ...partial } })),
});

type Ready = Extract<LoadState, { status: "ready" }>;

/**
 * The load with some groups replaced: in the id map, in the dataset's list, and in the group
 * summaries' rewards (what the group list reads with reward weights off).
 */
export function loadWithGroups(
  load: Ready,
  replacements: ReadonlyMap<string, RolloutGroup>,
): Ready {
  if (replacements.size === 0) return load;
  const groups = new Map(load.groups);
  for (const [id, g] of replacements) if (groups.has(id)) groups.set(id, g);
  const dataset = load.dataset;
  return {
    ...load,
    groups,
    dataset: {
      ...dataset,
      groups: dataset.groups.map((g) => replacements.get(g.id) ?? g),
      summaries: dataset.summaries.map((s) => {
        const g = replacements.get(s.id);
        return g === undefined
          ? s
          : { ...s, rewards: g.rollouts.map((r) => rolloutReward(r, null)) };
      }),
    },
  };
}

/** The scored groups of an overlay that still stand over this load. */
export function overlayReplacements(
  load: Ready,
  overlay: VerifierOverlay,
): Map<string, RolloutGroup> {
  const out = new Map<string, RolloutGroup>();
  if (overlay.file !== load.file) return out;
  for (const [id, { raw, scored }] of overlay.groups)
    if (load.groups.get(id) === raw) out.set(id, scored);
  return out;
}

/** The loaded data as views show it: the file's rollouts with the verifiers' components. */
export function viewLoad(load: LoadState, overlay: VerifierOverlay): LoadState {
  if (load.status !== "ready" || overlay.groups.size === 0) return load;
  return loadWithGroups(load, overlayReplacements(load, overlay));
}

const viewCache = new WeakMap<object, { overlay: VerifierOverlay; view: LoadState }>();

/**
 * `viewLoad` of a store's state, the same object for the same load and overlay (selectors compare
 * by identity, so a view re-renders only when the data or the scores change).
 */
export function selectViewLoad(s: Pick<Store, "load" | "verifiers">): LoadState {
  const overlay = s.verifiers.overlay;
  if (s.load.status !== "ready" || overlay.groups.size === 0) return s.load;
  const hit = viewCache.get(s.load);
  if (hit !== undefined && hit.overlay === overlay) return hit.view;
  const view = viewLoad(s.load, overlay);
  viewCache.set(s.load, { overlay, view });
  return view;
}
