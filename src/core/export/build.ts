/**
 * One entry point for every training export, so the studio's download and `rollout-studio export`
 * write the same bytes: a kind, the data, the annotations, the analysis settings and the export's
 * own options in; the file's text, its row count and its name out.
 *
 * The annotations kind is the annotations file itself; its serialiser (`annotationsToJson`)
 * lives at the I/O boundary in src/io, so callers write that kind with it and use this module for
 * the name and the row count only.
 */
import type { AnalysisSettings } from "../analysis/analyze.ts";
import type { Annotations } from "../analysis/annotations.ts";
import type { CalibrationState } from "../calibration/state.ts";
import type { JudgeRun } from "../judge/runs.ts";
import type { RolloutGroup } from "../types.ts";
import { exportCalibration } from "./calibration.ts";
import { exportDpo } from "./dpo.ts";
import { exportRewards, REWARD_EXPORT_DEFAULTS, type RewardExportOptions } from "./rewards.ts";
import { exportRubrics, exportRubricsJson } from "./rubrics.ts";
import { exportJsonl, type TranscriptForm } from "./text.ts";

export type ExportKind = "calibration" | "rubrics" | "rewards" | "dpo" | "annotations";
export const EXPORT_KINDS: readonly ExportKind[] = [
  "calibration",
  "rubrics",
  "rewards",
  "dpo",
  "annotations",
];

/** Options of every kind; each kind reads its own. */
export interface ExportOptions extends RewardExportOptions {
  /**
   * calibration: the judge run to compare (an id, "newest": the newest that gives verdicts; null
   * or "none": no judge, the default);
   * rewards with the judge source: the run to read (null: the newest of the mode's kind).
   */
  readonly judgeRunId: string | null;
  /**
   * calibration, rewards, dpo: chat transcripts as message lists (TRL's conversational form, the
   * default) or as text under the completion rule (`--text`).
   */
  readonly transcripts: TranscriptForm;
}

export const EXPORT_DEFAULTS: ExportOptions = {
  ...REWARD_EXPORT_DEFAULTS,
  transcripts: "messages",
};

export interface ExportInput {
  readonly groups: readonly RolloutGroup[];
  readonly annotations: Annotations;
  readonly settings: AnalysisSettings;
}

export interface ExportResult {
  readonly text: string;
  /** JSONL: lines; rubrics: tasks. */
  readonly rows: number;
  /** The judge run the export read, when it read one. */
  readonly run: JudgeRun | null;
  /**
   * calibration: the state with the splits this export assigned; persist it (the same object as
   * the input's when nothing was assigned). Other kinds: the input's.
   */
  readonly calibration: CalibrationState;
}

/**
 * Build one export.
 *
 * @throws ExportError (or RangeError for a floor outside [0, 1)) when the options ask for
 *   something the annotations do not hold; see each builder
 */
export function exportBuild(
  kind: Exclude<ExportKind, "annotations">,
  input: ExportInput,
  options: ExportOptions = EXPORT_DEFAULTS,
): ExportResult {
  const { groups, annotations, settings } = input;
  const same = { calibration: annotations.calibration };
  switch (kind) {
    case "calibration": {
      const out = exportCalibration(
        groups,
        annotations,
        settings,
        options.judgeRunId,
        options.transcripts,
      );
      return {
        text: exportJsonl(out.rows),
        rows: out.rows.length,
        run: out.run,
        calibration: out.calibration,
      };
    }
    case "rubrics": {
      const rubrics = exportRubrics(annotations.rubrics, groups);
      return {
        text: exportRubricsJson(rubrics),
        rows: Object.keys(rubrics).length,
        run: null,
        ...same,
      };
    }
    case "rewards": {
      const out = exportRewards(groups, annotations, settings, options, options.transcripts);
      return { text: exportJsonl(out.rows), rows: out.rows.length, run: out.run, ...same };
    }
    case "dpo": {
      const rows = exportDpo(groups, annotations, settings, options.transcripts);
      return { text: exportJsonl(rows), rows: rows.length, run: null, ...same };
    }
  }
}

/**
 * How many rows an export would have, and the judge run it would read, without writing its text
 * (the studio's preview; JSONL text of a large file is only built on download).
 *
 * @throws as {@link exportBuild}
 */
export function exportPreview(
  kind: Exclude<ExportKind, "annotations">,
  input: ExportInput,
  options: ExportOptions = EXPORT_DEFAULTS,
): { readonly rows: number; readonly run: JudgeRun | null } {
  const { groups, annotations, settings } = input;
  switch (kind) {
    case "calibration": {
      const out = exportCalibration(groups, annotations, settings, options.judgeRunId);
      return { rows: out.rows.length, run: out.run };
    }
    case "rubrics":
      return { rows: Object.keys(exportRubrics(annotations.rubrics, groups)).length, run: null };
    case "rewards": {
      const out = exportRewards(groups, annotations, settings, options);
      return { rows: out.rows.length, run: out.run };
    }
    case "dpo":
      return { rows: exportDpo(groups, annotations, settings).length, run: null };
  }
}

/**
 * The download's file name: the data file's name without folders and extension, then the kind:
 * `support.calibration.jsonl`, `support.rubrics.json`, `support.annotations.json`.
 */
export function exportFileName(dataFile: string, kind: ExportKind): string {
  const base = dataFile.replace(/^.*[\\/]/, "").replace(/\.[^.]+$/, "");
  const ext = kind === "rubrics" || kind === "annotations" ? "json" : "jsonl";
  return `${base === "" ? "rollouts" : base}.${kind}.${ext}`;
}
