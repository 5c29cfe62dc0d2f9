/**
 * The test split's seal, as a method (Hamel Husain's validate-evaluator recipe): tune the judge on
 * train and dev, then look at test exactly once. Unsealing is allowed once and logged with its time,
 * the judge it was unsealed against and that judge's prompt version. Any judge run that could not
 * have been the one tested (started after the unseal, or with another prompt version) is warned
 * about and logged, since its test metrics are no longer those of a held-out set. Re-splitting
 * is allowed only while sealed, and is logged too.
 */
import type { JudgeRun } from "../judge/runs.ts";
import type { CalibrationSource } from "./sources.ts";
import { SPLIT_NAMES, type SplitName } from "./splits.ts";
import type { CalibrationLogEntry, CalibrationState } from "./state.ts";

/** Unseal the test split against a source, at `now` (ISO 8601). */
export function calibrationUnseal(
  state: CalibrationState,
  source: Pick<CalibrationSource, "id" | "label" | "promptVersion">,
  now: string,
): CalibrationState {
  if (state.unsealed !== null)
    throw new Error(
      `the test split was already unsealed at ${state.unsealed.at}: it can be unsealed only once`,
    );
  const version = source.promptVersion === "" ? "none" : source.promptVersion;
  return {
    ...state,
    unsealed: { at: now, judge: source.id, promptVersion: source.promptVersion },
    log: [
      ...state.log,
      {
        at: now,
        event: "unseal",
        message: `test split unsealed against ${source.label} [${source.id}], prompt version ${version}`,
      },
    ],
  };
}

/**
 * Whether unsealing against a source would show a test result: the source gives pass/fail
 * verdicts (a clusterer gives none) and the test split holds rows it judged. The one unseal is
 * not to be spent on nothing.
 */
export function calibrationCanUnseal(givesVerdicts: boolean, testRows: number): boolean {
  return givesVerdicts && testRows > 0;
}

export type CalibrationRerunReason = "after-unseal" | "prompt-version";

export interface CalibrationRerunWarning {
  readonly runId: string;
  readonly startedAt: string;
  readonly promptVersion: string;
  /** Why: it started after the unseal, its prompt version differs from the unsealed one, or both. */
  readonly reasons: readonly CalibrationRerunReason[];
  /** The sentence shown and logged; it names the run, so a run is logged once. */
  readonly message: string;
}

/**
 * The judge runs that come after the unseal: those that started after it (by time), and those
 * whose prompt version differs from the one the test split was unsealed with. None while sealed.
 * A run whose start time does not parse is judged by its prompt version alone.
 */
export function calibrationRerunWarnings(
  state: CalibrationState,
  runs: readonly JudgeRun[],
): CalibrationRerunWarning[] {
  const unsealed = state.unsealed;
  if (unsealed === null) return [];
  const at = Date.parse(unsealed.at);
  const out: CalibrationRerunWarning[] = [];
  for (const run of runs) {
    const { id, startedAt, promptVersion } = run.info;
    const started = Date.parse(startedAt);
    const reasons: CalibrationRerunReason[] = [];
    if (Number.isFinite(at) && Number.isFinite(started) && started > at)
      reasons.push("after-unseal");
    if (promptVersion !== unsealed.promptVersion) reasons.push("prompt-version");
    if (reasons.length === 0) continue;
    const why = reasons
      .map((r) =>
        r === "after-unseal"
          ? `started ${startedAt}, after the unseal at ${unsealed.at}`
          : `prompt version ${promptVersion} differs from the unsealed ${unsealed.promptVersion === "" ? "source's (none)" : unsealed.promptVersion}`,
      )
      .join("; ");
    out.push({
      runId: id,
      startedAt,
      promptVersion,
      reasons,
      message: `judge run [${id}] ${why}: its test metrics are not a held-out result`,
    });
  }
  return out;
}

/**
 * The state with a "rerun-after-unseal" log entry (at `now`) for each warning not logged yet (the
 * same object when every one already is), so logging the same runs again changes nothing.
 */
export function calibrationLogReruns(
  state: CalibrationState,
  warnings: readonly CalibrationRerunWarning[],
  now: string,
): CalibrationState {
  const logged = new Set(
    state.log.filter((e) => e.event === "rerun-after-unseal").map((e) => e.message),
  );
  const added: CalibrationLogEntry[] = [];
  for (const w of warnings) {
    if (logged.has(w.message)) continue;
    logged.add(w.message);
    added.push({ at: now, event: "rerun-after-unseal", message: w.message });
  }
  return added.length === 0 ? state : { ...state, log: [...state.log, ...added] };
}

/** Split shares as whole-or-decimal percentages, "15/42.5/42.5". */
export function calibrationFractionsText(fractions: Readonly<Record<SplitName, number>>): string {
  return SPLIT_NAMES.map((s) => String(Number((fractions[s] * 100).toFixed(4)))).join("/");
}

/**
 * New split settings: every assignment is cleared (rows are placed afresh under the new seed and
 * shares) and a "resplit" entry is logged. The same state when nothing changes.
 *
 * @throws Error once the test split is unsealed (test rows must stay test rows)
 * @throws RangeError when the shares are negative or do not sum to 1
 */
export function calibrationResplit(
  state: CalibrationState,
  next: { readonly seed: number; readonly fractions: Readonly<Record<SplitName, number>> },
  now: string,
): CalibrationState {
  if (state.unsealed !== null)
    throw new Error("the test split is unsealed: its rows can no longer be re-split");
  const f = next.fractions;
  const total = f.train + f.dev + f.test;
  if (SPLIT_NAMES.some((s) => !(f[s] >= 0)) || Math.abs(total - 1) > 1e-9)
    throw new RangeError(`split fractions must be non-negative and sum to 1, got ${total}`);
  if (!Number.isInteger(next.seed))
    throw new RangeError(`the seed must be an integer, got ${next.seed}`);
  const same = next.seed === state.seed && SPLIT_NAMES.every((s) => f[s] === state.fractions[s]);
  if (same) return state;
  const cleared = Object.keys(state.assignments).length;
  return {
    ...state,
    seed: next.seed,
    fractions: { train: f.train, dev: f.dev, test: f.test },
    assignments: {},
    log: [
      ...state.log,
      {
        at: now,
        event: "resplit",
        message: `re-split with seed ${next.seed} and train/dev/test ${calibrationFractionsText(f)}% (was seed ${state.seed}, ${calibrationFractionsText(state.fractions)}%; ${cleared} assignment(s) cleared)`,
      },
    ],
  };
}
