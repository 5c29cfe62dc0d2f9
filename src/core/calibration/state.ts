/**
 * The calibration set-up that must persist with the annotations: the split seed and shares, every
 * rollout's split once assigned (so a row in the sealed test split stays there), and the seal.
 * The test split's labels and metrics stay hidden until it is unsealed, once; the unseal is logged
 * with its time and the judge prompt version, and a judge run after it is warned about.
 */
import type { RolloutId } from "../types.ts";
import { SPLIT_DEFAULTS, splitAssign, type SplitName } from "./splits.ts";

export interface CalibrationUnseal {
  /** ISO 8601 time of the unseal. */
  readonly at: string;
  /** The judge source compared when it was unsealed (a judge run id, or a verifier or reward name). */
  readonly judge: string;
  /** That judge's prompt version (`JudgeRunInfo.promptVersion`), or "" for a non-LLM source. */
  readonly promptVersion: string;
}

export interface CalibrationLogEntry {
  readonly at: string;
  readonly event: "unseal" | "rerun-after-unseal" | "resplit";
  readonly message: string;
}

export interface CalibrationState {
  readonly seed: number;
  readonly fractions: Readonly<Record<SplitName, number>>;
  /** Split per rollout id, kept once assigned. */
  readonly assignments: Readonly<Record<RolloutId, SplitName>>;
  /** null while the test split is sealed. */
  readonly unsealed: CalibrationUnseal | null;
  /** Everything that touched the seal, oldest first. */
  readonly log: readonly CalibrationLogEntry[];
}

export const CALIBRATION_STATE_EMPTY: CalibrationState = {
  seed: SPLIT_DEFAULTS.seed,
  fractions: SPLIT_DEFAULTS.fractions,
  assignments: {},
  unsealed: null,
  log: [],
};

/** A rollout to place in a split: its id and its stratum (the human label). */
export interface CalibrationRow {
  readonly rolloutId: RolloutId;
  readonly label: string;
}

/**
 * Every row's split under the state's seed and shares, keeping the splits already assigned, and
 * the state with the new assignments recorded (the same object when nothing was added). Persist the
 * returned state so a row placed in the sealed test split stays there.
 */
export function calibrationAssign(
  state: CalibrationState,
  rows: readonly CalibrationRow[],
): { readonly splits: Map<RolloutId, SplitName>; readonly state: CalibrationState } {
  const previous = new Map(Object.entries(state.assignments));
  const splits = splitAssign(
    rows.map((r) => ({ key: r.rolloutId, stratum: r.label })),
    { seed: state.seed, fractions: state.fractions },
    previous,
  );
  let added = false;
  for (const key of splits.keys()) if (!previous.has(key)) added = true;
  if (!added) return { splits, state };
  const assignments: Record<RolloutId, SplitName> = { ...state.assignments };
  for (const [key, split] of splits) assignments[key] = split;
  return { splits, state: { ...state, assignments } };
}
