/**
 * View model of the judge panel's Run section: the build options from the settings, the scope's
 * group count, which run buttons are open, and the spread check's sample (core `judgeSample` over
 * `judgeSpreadEligible`, sized and seeded as typed) with its line. Pure; RunSection renders it.
 */
import {
  judgeSample,
  judgeSampleValid,
  judgeSpreadEligible,
  JUDGE_TEXT_MAX_CHARS,
  type AnalysisSettings,
  type JudgeBuildOptions,
  type JudgeMode,
  type RolloutGroup,
} from "../../../core/index.ts";

/** The LLM modes, in the order of their buttons. */
export const RUN_MODES: readonly JudgeMode[] = ["gar", "pairwise", "rubric", "cluster"];

export const RUN_LABELS: Readonly<Record<JudgeMode, string>> = {
  gar: "Run group grader (GAR)",
  pairwise: "Run pairwise judge",
  rubric: "Run rubric scorer (GRS)",
  cluster: "Run diversity clusterer",
};

/** Starts an LLM run of `mode` over `chosen`; `what` says what it judges, for the run's name. */
export type StartRun = (
  mode: JudgeMode,
  chosen: readonly RolloutGroup[],
  label: string,
  what: string,
) => void;

/** Who grades the spread check's sample: the offline heuristic, or an LLM grader with scores. */
export type SpreadGrader = "gar" | "heuristic" | "rubric";

/** The run's label in the status line, by the spread check's grader. */
export function spreadRunLabel(grader: SpreadGrader): string {
  switch (grader) {
    case "heuristic":
      return "Spread check (heuristic grader)";
    case "gar":
      return "Spread check (LLM group grader)";
    case "rubric":
      return "Spread check (LLM rubric scorer)";
  }
}

/** What a run reads of the settings: which rollouts pass, their rewards, and the text judged. */
export function judgeOptionsFrom(settings: AnalysisSettings): JudgeBuildOptions {
  return {
    passThreshold: settings.passThreshold,
    rewardWeights: settings.rewardWeights,
    completionRule: settings.completionRule,
    maxChars: JUDGE_TEXT_MAX_CHARS,
  };
}

/** "1 group", "12 groups". */
export function groupCountText(n: number): string {
  return `${n} group${n === 1 ? "" : "s"}`;
}

/** The "selected" scope's choice: it names the open group. */
export function selectedScopeLabel(selected: string | null): string {
  return `the selected group${selected === null ? "" : ` (${selected})`}`;
}

export interface RunButtonsView {
  /** The LLM runs wait for a saved connection, a finished run, and groups in the scope. */
  readonly llmDisabled: boolean;
  /** The heuristic grader needs no connection. */
  readonly heuristicDisabled: boolean;
  /** The LLM buttons' tooltip while no connection is saved. */
  readonly llmTitle: string | undefined;
}

export function prepareRunButtons(
  inScope: number,
  running: boolean,
  configured: boolean,
): RunButtonsView {
  return {
    llmDisabled: running || !configured || inScope === 0,
    heuristicDisabled: running || inScope === 0,
    llmTitle: configured ? undefined : "Save a connection first",
  };
}

export interface SpreadCheckView {
  /** The groups the check grades (none while the size or seed is not valid). */
  readonly sample: readonly RolloutGroup[];
  /** "5 of 12 eligible groups", or what the size and seed must be. */
  readonly sampleText: string;
  readonly disabled: boolean;
}

/** The spread check's sample of the groups with two or more passes, from the typed size and seed. */
export function prepareSpreadCheck(
  groups: readonly RolloutGroup[],
  options: JudgeBuildOptions,
  input: {
    readonly sampleSize: string;
    readonly seed: string;
    readonly grader: SpreadGrader;
    readonly running: boolean;
    readonly configured: boolean;
  },
): SpreadCheckView {
  const eligible = judgeSpreadEligible(groups, options);
  const size = Number(input.sampleSize);
  const seed = Number(input.seed);
  const valid = judgeSampleValid(size, seed);
  const sample = valid ? judgeSample(eligible, size, seed) : [];
  return {
    sample,
    sampleText: valid
      ? `${sample.length} of ${eligible.length} eligible group${eligible.length === 1 ? "" : "s"}`
      : "sample: a whole number >= 1; seed: a whole number >= 0",
    disabled:
      !valid ||
      sample.length === 0 ||
      input.running ||
      (input.grader !== "heuristic" && !input.configured),
  };
}
