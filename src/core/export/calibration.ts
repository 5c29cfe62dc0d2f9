/**
 * The calibration set as JSON Lines: one row per rollout that has a human label or a verdict from
 * the chosen judge run, with the prompt and the completion as judges read it, both labels, the
 * calibration split, and the rubric and prompt versions behind them.
 *
 * Splits come from the persisted calibration state (`calibrationAssign`) over the rows the
 * calibration view splits (`calibrationAssignRows`: every human pass or fail label, stratified by
 * it), and a rollout keeps a split once assigned. Rows without one (deferred or unlabelled) carry the split they were given earlier, if
 * any, else null. The caller persists the returned state so an exported split stays true.
 *
 * The sealed test split: its rows are exported with split "test", `sealed: true`, and their human
 * labels. The labels are the user's own data; the seal hides the judge's metrics on test inside the
 * studio until it is unsealed, which an export does not do.
 */
import type { AnalysisSettings } from "../analysis/analyze.ts";
import { rolloutReward } from "../analysis/analyze.ts";
import type { Annotations, HumanLabel } from "../analysis/annotations.ts";
import { calibrationHumanSource } from "../calibration/human.ts";
import { calibrationAssignRows } from "../calibration/report.ts";
import { calibrationAssign, type CalibrationState } from "../calibration/state.ts";
import type { SplitName } from "../calibration/splits.ts";
import { rubricCurrent } from "../judge/rubricBook.ts";
import {
  JUDGE_VERDICT_DEFAULTS,
  judgeRunVerdicts,
  type JudgeMode,
  type JudgeRun,
  type JudgeSource,
} from "../judge/runs.ts";
import type { GroupId, RolloutGroup, RolloutId } from "../types.ts";
import {
  exportJudgeRun,
  exportPromptCompletion,
  type ExportMessage,
  type TranscriptForm,
} from "./text.ts";

/** Judge modes whose runs give a pass/fail verdict per rollout (`judgeRunVerdicts`). */
export const CALIBRATION_JUDGE_MODES: readonly JudgeMode[] = ["gar", "rubric", "pairwise"];

export interface CalibrationExportRow {
  readonly group_id: GroupId;
  readonly rollout_id: RolloutId;
  /** A chat transcript's prompt messages, or the prompt as text (see TranscriptForm). */
  readonly prompt: string | readonly ExportMessage[];
  /**
   * A chat transcript's messages after the prompt, or the completion as judges read it
   * (`rolloutText` under the settings' completion rule).
   */
  readonly completion: string | readonly ExportMessage[];
  readonly human_label: HumanLabel | null;
  /** The chosen run's verdict; null when it gave none for this rollout (or no run is chosen). */
  readonly judge_verdict: "pass" | "fail" | null;
  /** The chosen run (the same on every row), or null when none. */
  readonly judge_run_id: string | null;
  /** "llm", or "heuristic" for the offline heuristic grader; null when no run is chosen. */
  readonly judge_source: JudgeSource | null;
  readonly judge_prompt_version: string | null;
  /** rubric runs: the rubric version this group was scored with. */
  readonly judge_rubric_version: number | null;
  readonly split: SplitName | null;
  /** In the test split while the test split is sealed. */
  readonly sealed: boolean;
  /** The task's rubric version that was current when the human label was set. */
  readonly rubric_version: number | null;
  /** The task's current rubric version (a label under an older one may need a second look). */
  readonly rubric_version_current: number | null;
}

export interface CalibrationExport {
  readonly rows: readonly CalibrationExportRow[];
  readonly run: JudgeRun | null;
  /** The calibration state with the splits this export assigned (the same object when none). */
  readonly calibration: CalibrationState;
}

/**
 * Build the calibration rows, in data order (groups, then rollouts).
 *
 * @param judgeRunId the run to compare: an id, "newest" for the newest run that gives verdicts
 *   (gar, rubric or pairwise), or null (the default) or "none" for no judge at all: no run is
 *   compared unless the user names one (issue 13, finding 8)
 * @param transcripts how chat transcripts are written (messages by default, or text)
 * @throws ExportError when `judgeRunId` names no run, or a cluster run
 */
export function exportCalibration(
  groups: readonly RolloutGroup[],
  annotations: Annotations,
  settings: AnalysisSettings,
  judgeRunId: string | null,
  transcripts: TranscriptForm = "messages",
): CalibrationExport {
  const run =
    judgeRunId === null || judgeRunId === "none"
      ? null
      : exportJudgeRun(
          annotations.judgeRuns,
          judgeRunId === "newest" ? null : judgeRunId,
          CALIBRATION_JUDGE_MODES,
        );
  const verdictOptions = { ...JUDGE_VERDICT_DEFAULTS, passThreshold: settings.passThreshold };
  const candidates: {
    group: RolloutGroup;
    index: number;
    label: HumanLabel | null;
    verdict: "pass" | "fail" | null;
  }[] = [];
  const rewardsOf = new Map<GroupId, number[]>();
  for (const group of groups) {
    const labels = Object.hasOwn(annotations.groups, group.id)
      ? annotations.groups[group.id]!.labels
      : {};
    const rewards = group.rollouts.map((r) => rolloutReward(r, settings.rewardWeights));
    rewardsOf.set(group.id, rewards);
    const verdicts =
      run === null
        ? new Map<RolloutId, "pass" | "fail">()
        : judgeRunVerdicts(run, group, rewards, verdictOptions);
    group.rollouts.forEach((r, index) => {
      const label = Object.hasOwn(labels, r.id) ? labels[r.id]! : null;
      const verdict = verdicts.get(r.id) ?? null;
      if (label === null && verdict === null) return;
      candidates.push({ group, index, label, verdict });
    });
  }
  // The rows the calibration view splits (every pass/fail label, the label as the stratum), so a
  // rollout gets the same split here as there.
  const toSplit = calibrationAssignRows(
    groups.map((group) => ({ group, rewards: rewardsOf.get(group.id)! })),
    calibrationHumanSource(annotations),
  );
  const { splits, state } = calibrationAssign(annotations.calibration, toSplit);
  const sealed = state.unsealed === null;
  const rows = candidates.map(({ group, index, label, verdict }): CalibrationExportRow => {
    const r = group.rollouts[index]!;
    const task = Object.hasOwn(annotations.rubrics, group.id)
      ? annotations.rubrics[group.id]!
      : null;
    const split =
      splits.get(r.id) ??
      (Object.hasOwn(state.assignments, r.id) ? state.assignments[r.id]! : null);
    const result =
      run !== null && Object.hasOwn(run.groups, group.id) ? run.groups[group.id]! : null;
    return {
      group_id: group.id,
      rollout_id: r.id,
      ...exportPromptCompletion(r, transcripts, settings.completionRule),
      human_label: label,
      judge_verdict: verdict,
      judge_run_id: run?.info.id ?? null,
      judge_source: run?.info.source ?? null,
      judge_prompt_version: run?.info.promptVersion ?? null,
      judge_rubric_version: result?.rubricVersion ?? null,
      split,
      sealed: sealed && split === "test",
      rubric_version:
        task !== null && Object.hasOwn(task.labelVersions, r.id) ? task.labelVersions[r.id]! : null,
      rubric_version_current: rubricCurrent(annotations.rubrics, group.id)?.version ?? null,
    };
  });
  return { rows, run, calibration: state };
}
