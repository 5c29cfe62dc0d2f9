/**
 * The reward spec the user applied (persisted in this browser, validated when read back), the
 * state of the run that applies it, and its outcomes per rollout. A store of its own, loaded only
 * when the Verifiers panel opens or a saved spec exists (./verifierBoot.ts), so the first page does
 * not carry the verifiers. Importing this module starts the sync (./verifierSync.ts).
 */
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import {
  VERIFIER_SPEC_EMPTY,
  verifierEmitted,
  type VerifierOutcome,
  type VerifierSpec,
} from "../../core/index.ts";
import { verifierSpecFromUnknown } from "../../io/verifiers/specFile.ts";
import { verifyInputs } from "../../workers/verifyClient.ts";
import { useStore } from "../index.ts";
import { VERIFIER_SPEC_STORAGE_KEY } from "./verifierBoot.ts";
import { useVerifierVerdicts, verifierVerdictSets } from "./verifierVerdicts.ts";
import {
  startVerifierSync,
  VERIFIER_RESULTS_EMPTY,
  type VerifierResults,
  type VerifierStatus,
} from "./verifierSync.ts";

export interface VerifierState {
  /** The applied spec: what the data is scored with. */
  readonly spec: VerifierSpec;
  /** The spec being edited in the panel (not persisted); applying it makes it `spec`. */
  readonly draft: VerifierSpec;
  readonly status: VerifierStatus;
  readonly results: VerifierResults;
  /** The reward components of the loaded file's own rollouts, for checks and pickers. */
  readonly fileComponents: readonly string[];
  readonly setDraft: (draft: VerifierSpec) => void;
  /** Apply a spec (the draft, or an imported one): the data is re-scored with it. */
  readonly applySpec: (spec: VerifierSpec) => void;
}

/** The persisted spec, read back through the spec file's parser; anything invalid is dropped. */
export function readPersistedSpec(persisted: unknown): VerifierSpec {
  const raw =
    typeof persisted === "object" && persisted !== null && "spec" in persisted
      ? persisted.spec
      : undefined;
  if (raw === undefined) return VERIFIER_SPEC_EMPTY;
  const parsed = verifierSpecFromUnknown("saved verifiers", raw);
  if (!parsed.ok) {
    console.warn("The saved verifier spec is invalid and was not applied.", parsed.issues);
    return VERIFIER_SPEC_EMPTY;
  }
  return parsed.value;
}

export const useVerifierStore = create<VerifierState>()(
  persist(
    (set) => ({
      spec: VERIFIER_SPEC_EMPTY,
      draft: VERIFIER_SPEC_EMPTY,
      status: { kind: "off" },
      results: VERIFIER_RESULTS_EMPTY,
      fileComponents: [],
      setDraft: (draft) => set({ draft }),
      applySpec: (spec) => set({ spec, draft: spec }),
    }),
    {
      name: VERIFIER_SPEC_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ spec: s.spec }),
      merge: (persisted, current) => {
        const spec = readPersistedSpec(persisted);
        return { ...current, spec, draft: spec };
      },
    },
  ),
);

// Publish the verdicts whenever a run's results change (the spec alone changes nothing scored).
useVerifierStore.subscribe((state, previous) => {
  if (state.results !== previous.results)
    useVerifierVerdicts.setState({ sets: verifierVerdictSets(state.spec, state.results) });
  if (state.status !== previous.status)
    useVerifierVerdicts.setState({ applied: state.status.kind === "done" });
});

const sync = startVerifierSync(
  useStore,
  useVerifierStore,
  (spec, inputs, signal) => verifyInputs(spec, inputs, { signal }),
  (spec, inputs, signal) => verifyInputs(spec, inputs, { signal, lane: "preview" }),
);

/** Stop the run in flight (a slow pattern); the rollouts are shown without the spec. */
export const verifiersCancel = sync.cancel;

/**
 * What a spec would change before it is applied: it is scored over the file's own rollouts in a
 * worker of its own, and the report says who would pass differently under these settings.
 */
export const verifiersPreview = sync.preview;

/** Outcome of each emitted verifier of a rollout, by name (for a rollout's notes). */
export function verifierOutcomesOf(
  results: VerifierResults,
  rolloutId: string,
): ReadonlyMap<string, VerifierOutcome> {
  const row = results.byRollout.get(rolloutId);
  const out = new Map<string, VerifierOutcome>();
  if (row === undefined) return out;
  results.names.forEach((name, k) => {
    const o = row[k];
    if (o !== undefined) out.set(name, o);
  });
  return out;
}

/** The names of the components the applied spec adds. */
export function verifierComponentNames(spec: VerifierSpec): string[] {
  return verifierEmitted(spec).map((v) => v.name);
}
