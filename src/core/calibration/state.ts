/**
 * The calibration set-up that must persist with the annotations: the split seed and shares, every
 * rollout's split once assigned (so a row in the sealed test split stays there), and the seal.
 * The test split's labels and metrics stay hidden until it is unsealed, once; the unseal is logged
 * with its time and the judge prompt version, and a judge run after it is warned about.
 */
import type { RolloutId } from "../types.ts";
import { SPLIT_DEFAULTS, type SplitName } from "./splits.ts";

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
