/**
 * The Exports panel's view model: for each kind, what it is, its file name, its row count under the
 * chosen options (or why it cannot be written), and the judge runs the user can pick. The file's
 * text is built only on download (`exportText`), with core's `exportBuild`, the same call
 * `rollout-studio export` makes, so the two write the same bytes.
 */
import {
  CALIBRATION_JUDGE_MODES,
  EXPORT_KINDS,
  ExportError,
  exportBuild,
  exportFileName,
  exportPreview,
  type AnalysisSettings,
  type Annotations,
  type CalibrationState,
  type ExportKind,
  type ExportOptions,
  type JudgeMode,
  type JudgeRun,
  judgeRunName,
  rewardJudgeMode,
  type RolloutGroup,
  type TranscriptForm,
} from "../../../core/index.ts";

/** What the user chose in the panel. */
export interface ExportChoices {
  /**
   * calibration: a run id, "newest" for the newest verdict run, null (the default) for no judge:
   * no run is compared until the user picks one.
   */
  readonly calibrationRun: string | null;
  /** rewards: source, mode, run and floor. */
  readonly rewards: Omit<ExportOptions, "transcripts">;
  /** calibration, rewards, dpo: chat transcripts as message lists (default) or as text. */
  readonly transcripts: TranscriptForm;
}

export interface ExportEntry {
  readonly kind: ExportKind;
  readonly title: string;
  readonly description: string;
  readonly fileName: string;
  /** Rows (JSONL lines, rubric tasks, annotated groups); null when the export cannot be written. */
  readonly rows: number | null;
  readonly unit: string;
  /** Why the export cannot be written with these options. */
  readonly error: string | null;
  /** The judge run the export reads, for the label ("gar-… (heuristic)"). */
  readonly run: string | null;
}

const TEXT: Readonly<Record<ExportKind, { title: string; description: string; unit: string }>> = {
  calibration: {
    title: "Calibration set",
    description:
      "JSONL, one row per rollout with a human label or a judge verdict: prompt, completion, both labels, split, rubric and prompt versions. Test rows keep their human labels and say sealed: true.",
    unit: "rows",
  },
  rubrics: {
    title: "Rubrics",
    description:
      'JSON keyed by task id: each task\'s current {"solution": [...], "behavior": [...]}, the mapping a GRS grader takes as rubrics=.',
    unit: "tasks",
  },
  rewards: {
    title: "Rewards",
    description:
      'JSONL per rollout: the original and the shaped reward, with its source and settings. TRL with scale_rewards="none" reproduces equation 3.',
    unit: "rows",
  },
  dpo: {
    title: "DPO pairs",
    description:
      "JSONL prompt / chosen / rejected from the human rankings: every pair across tiers (better tier chosen), and every hack rejected against every other pass. Chat transcripts are whole conversations, tool calls included (TRL's conversational form).",
    unit: "pairs",
  },
  annotations: {
    title: "Annotations",
    description:
      "The annotations file (version 1) that rollout-studio export and analyze read with --annotations.",
    unit: "groups",
  },
};

/**
 * The options of one kind: calibration reads its own run choice, rewards everything; the
 * transcript form applies to every kind that writes transcripts.
 */
export function exportOptionsFor(kind: ExportKind, choices: ExportChoices): ExportOptions {
  const options = { ...choices.rewards, transcripts: choices.transcripts };
  return kind === "calibration" ? { ...options, judgeRunId: choices.calibrationRun } : options;
}

/** A run's distinct name (mode, model or heuristic grader, prompt, time, scope) and its id. */
const runLabel = (run: JudgeRun): string => `${judgeRunName(run)} [${run.info.id}]`;

/** Every kind's entry, in the order of EXPORT_KINDS. */
export function prepareExports(
  dataFile: string,
  groups: readonly RolloutGroup[],
  annotations: Annotations,
  settings: AnalysisSettings,
  choices: ExportChoices,
): ExportEntry[] {
  return EXPORT_KINDS.map((kind): ExportEntry => {
    const base = { kind, ...TEXT[kind], fileName: exportFileName(dataFile, kind) };
    if (kind === "annotations")
      return { ...base, rows: Object.keys(annotations.groups).length, error: null, run: null };
    try {
      const preview = exportPreview(
        kind,
        { groups, annotations, settings },
        exportOptionsFor(kind, choices),
      );
      return {
        ...base,
        rows: preview.rows,
        error: null,
        run: preview.run === null ? null : runLabel(preview.run),
      };
    } catch (e) {
      if (!(e instanceof ExportError) && !(e instanceof RangeError)) throw e;
      return { ...base, rows: null, error: e.message, run: null };
    }
  });
}

export interface RunOption {
  /** "" stands for null: no judge (calibration) or the newest run (rewards). */
  readonly value: string;
  readonly label: string;
}

/**
 * The choices of a judge-run menu. Calibration (`allowNone`): "none" first and the default, then
 * "newest" (naming the run it is now) and the runs newest first: no run is compared unless picked.
 * Rewards with the judge source (the user picked the judge there): "newest" as the default, then
 * the runs of the mode.
 */
export function prepareRunOptions(
  runs: readonly JudgeRun[],
  modes: readonly JudgeMode[],
  allowNone: boolean,
): RunOption[] {
  const eligible = runs.filter((r) => modes.includes(r.info.mode)).reverse();
  const newest = eligible[0];
  const newestLabel = newest === undefined ? "newest (no run yet)" : `newest: ${runLabel(newest)}`;
  const each = eligible.map((r) => ({ value: r.info.id, label: runLabel(r) }));
  return allowNone
    ? [
        { value: "", label: "none (human labels only)" },
        ...(newest === undefined ? [] : [{ value: "newest", label: newestLabel }]),
        ...each,
      ]
    : [{ value: "", label: newestLabel }, ...each];
}

/** The judge modes whose runs a kind can read under the reward options. */
export function exportRunModes(
  kind: "calibration" | "rewards",
  choices: ExportChoices,
): JudgeMode[] {
  if (kind === "calibration") return [...CALIBRATION_JUDGE_MODES];
  return [rewardJudgeMode(choices.rewards.mode)];
}

/**
 * A download's text and the calibration state to persist (the splits a calibration export
 * assigned; the same object when none). The annotations kind is passed through `annotationsJson`,
 * the file serialiser (src/io), which the panel loads on demand.
 *
 * @throws as core's exportBuild
 */
export function exportText(
  kind: ExportKind,
  groups: readonly RolloutGroup[],
  annotations: Annotations,
  settings: AnalysisSettings,
  choices: ExportChoices,
  annotationsJson: (a: Annotations) => string,
): { readonly text: string; readonly calibration: CalibrationState } {
  if (kind === "annotations")
    return { text: annotationsJson(annotations), calibration: annotations.calibration };
  const out = exportBuild(kind, { groups, annotations, settings }, exportOptionsFor(kind, choices));
  return { text: out.text, calibration: out.calibration };
}
