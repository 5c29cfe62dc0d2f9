/**
 * The applied verifiers as calibration judges: each one's pass/fail verdict per rollout, derived
 * from the verifier slice's results, and whether a spec is applied to the data (for the Exports
 * panel's command lines). A module of its own and tiny, so the calibration panel can list the
 * verifiers without loading them (there are none until a spec is applied, and then the verifiers'
 * runtime is loaded already).
 */
import {
  calibrationSourceFromRollouts,
  verifierVersion,
  type CalibrationSource,
  type RolloutId,
  type VerifierSpec,
} from "../../core/index.ts";
import { useStore } from "../index.ts";
import type { VerifierResults, VerifierState } from "../slices/verifierSlice.ts";

/** One verifier's verdicts. */
export interface VerifierVerdictSet {
  readonly name: string;
  /** The kind, as the panel names it ("format gate", "exact match", ...). */
  readonly kind: string;
  /** core `verifierVersion`: changes when what decides its verdicts changes. */
  readonly version: string;
  /** A verdict per scored rollout; a rollout it does not apply to (no ground truth) is absent. */
  readonly verdicts: ReadonlyMap<RolloutId, "pass" | "fail">;
}

/** The file name the Verifiers panel exports the applied spec as (`--verifiers` in commands). */
export const VERIFIER_SPEC_FILE_NAME = "reward-spec.json";

/** What the verdict hook selects from. */
export interface VerifierVerdicts {
  readonly sets: readonly VerifierVerdictSet[];
  /**
   * A spec is applied and the loaded rollouts carry its components: the Exports panel's command
   * lines then add `--verifiers reward-spec.json` to write the same bytes.
   */
  readonly applied: boolean;
}

const setsCache = new WeakMap<
  VerifierResults,
  { spec: VerifierState["spec"]; sets: VerifierVerdictSet[] }
>();

/** The verdict sets of the slice's results, the same array for the same results. */
export function verdictsOf(
  v: Pick<VerifierState, "spec" | "results" | "status">,
): VerifierVerdicts {
  let hit = setsCache.get(v.results);
  if (hit?.spec !== v.spec) {
    hit = { spec: v.spec, sets: verifierVerdictSets(v.spec, v.results) };
    setsCache.set(v.results, hit);
  }
  return { sets: hit.sets, applied: v.status.kind === "done" };
}

/** Select from the applied verifiers' verdicts (`useVerifierVerdicts((v) => v.sets)`). */
export function useVerifierVerdicts<T>(select: (v: VerifierVerdicts) => T): T {
  return useStore((s) => select(verdictsOf(s.verifiers)));
}

/** The prefix of a verifier source's id (`verifier:<name>`), so it never clashes with a run's. */
export const VERIFIER_SOURCE_PREFIX = "verifier:";

/** Each verifier as a calibration source of kind "verifier" (no ranking: its verdicts are binary). */
export function verifierCalibrationSources(
  sets: readonly VerifierVerdictSet[],
): CalibrationSource[] {
  return sets.map((set) =>
    calibrationSourceFromRollouts({
      id: `${VERIFIER_SOURCE_PREFIX}${set.name}`,
      label: `verifier ${set.name} · ${set.kind} · ${set.version}`,
      kind: "verifier",
      promptVersion: set.version,
      verdict: (rollout) => set.verdicts.get(rollout.id) ?? null,
    }),
  );
}

/** Each evaluated verifier's verdicts, for calibration (what the verifier store publishes). */
export function verifierVerdictSets(
  spec: VerifierSpec,
  results: Pick<VerifierResults, "names" | "byRollout" | "judgeRuns">,
): VerifierVerdictSet[] {
  const kinds = new Map(
    spec.verifiers.map((v) => [
      v.name,
      v.kind === "judge" ? `${v.mode} judge` : VERIFIER_KIND_NAMES[v.kind],
    ]),
  );
  return results.names.map((name, k) => {
    const verdicts = new Map<string, "pass" | "fail">();
    for (const [id, row] of results.byRollout) {
      const pass = row[k]?.pass ?? null;
      if (pass !== null) verdicts.set(id, pass ? "pass" : "fail");
    }
    const kind = kinds.get(name);
    return {
      name,
      kind: kind ?? "verifier",
      version: verifierVersion(spec, name, results.judgeRuns),
      verdicts,
    };
  });
}

const VERIFIER_KIND_NAMES = {
  format: "format gate",
  "exact-match": "exact match",
  "json-schema": "JSON schema",
  "length-penalty": "length penalty",
} as const;
