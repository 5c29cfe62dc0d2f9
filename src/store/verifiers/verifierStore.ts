/**
 * The verifiers' runtime, loaded only when the Verifiers panel opens or a saved spec exists
 * (./verifierBoot.ts), so the first page does not carry them: it reads the saved spec back into the
 * store's verifier slice, saves every spec applied after, and starts the sync that keeps the
 * slice's overlay scored (./verifierSync.ts). The state itself is the one store's
 * (slices/verifierSlice.ts).
 */
import { VERIFIER_SPEC_EMPTY, type VerifierOutcome, type VerifierSpec } from "../../core/index.ts";
import { formatIssue } from "../../io/issues.ts";
import {
  verifierSpecFromUnknown,
  verifierSpecParse,
  verifierSpecToJson,
} from "../../io/verifiers/specFile.ts";
import { verifyInputs } from "../../workers/verifyClient.ts";
import { useStore } from "../index.ts";
import type { VerifierResults } from "../slices/verifierSlice.ts";
import { VERIFIER_SPEC_STORAGE_KEY } from "./verifierBoot.ts";
import { startVerifierSync } from "./verifierSync.ts";

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

/** The saved spec (`{ state: { spec }, version: 1 }`, as earlier versions wrote it), or null. */
function readSavedSpec(): VerifierSpec | null {
  try {
    const text = localStorage.getItem(VERIFIER_SPEC_STORAGE_KEY);
    if (text === null) return null;
    const saved: unknown = JSON.parse(text);
    const state =
      typeof saved === "object" && saved !== null && "state" in saved ? saved.state : undefined;
    return readPersistedSpec(state);
  } catch (e) {
    console.warn("The saved verifier spec could not be read.", e);
    return null;
  }
}

function saveSpec(spec: VerifierSpec): void {
  try {
    localStorage.setItem(
      VERIFIER_SPEC_STORAGE_KEY,
      JSON.stringify({ state: { spec }, version: 1 }),
    );
  } catch (e) {
    console.warn("The verifier spec could not be saved in this browser.", e);
  }
}

const saved = readSavedSpec();
if (saved !== null && useStore.getState().verifiers.spec === VERIFIER_SPEC_EMPTY)
  useStore.getState().applyVerifierSpec(saved);
useStore.subscribe((state, previous) => {
  if (state.verifiers.spec !== previous.verifiers.spec) saveSpec(state.verifiers.spec);
});

const sync = startVerifierSync(
  useStore,
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

/** A spec file's text read back: the spec, or every problem found, one per line. */
export function verifierSpecImport(
  fileName: string,
  text: string,
):
  | { readonly ok: true; readonly spec: VerifierSpec }
  | { readonly ok: false; readonly message: string } {
  const parsed = verifierSpecParse(fileName, text);
  return parsed.ok
    ? { ok: true, spec: parsed.value }
    : { ok: false, message: parsed.issues.map(formatIssue).join("\n") };
}

/** A spec as the JSON `rollout-studio analyze --verifiers` reads. */
export const verifierSpecExport: (spec: VerifierSpec) => string = verifierSpecToJson;
