/**
 * The `rollout-studio export` command that writes the same file as a download from the panel:
 * the data file, the annotations file the studio exports beside it, the kind, the reward spec the
 * Verifiers panel exports when one is applied, and every option and setting that differs from the
 * CLI's defaults.
 */
import {
  ANALYSIS_DEFAULTS,
  EXPORT_DEFAULTS,
  exportFileName,
  type AnalysisSettings,
  type ExportKind,
} from "../../../core/index.ts";
import { exportOptionsFor, type ExportChoices } from "./prepareExports.ts";

/** A shell word: as it is when it is plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * @param verifiersFile the applied reward spec's file (the Verifiers panel's export), or null when
 *   no spec is applied; the kinds that read rollouts then take `--verifiers`
 */
export function exportCommandLine(
  dataFile: string,
  kind: ExportKind,
  settings: AnalysisSettings,
  choices: ExportChoices,
  verifiersFile: string | null = null,
): string {
  const d = ANALYSIS_DEFAULTS;
  const args = [
    "npx",
    "rollout-studio",
    "export",
    dataFile,
    "--annotations",
    exportFileName(dataFile, "annotations"),
    "--kind",
    kind,
    "--out",
    exportFileName(dataFile, kind),
  ];
  if (verifiersFile !== null && kind !== "annotations" && kind !== "rubrics")
    args.push("--verifiers", verifiersFile);
  const options = exportOptionsFor(kind, choices);
  if (kind === "calibration" && options.judgeRunId !== null)
    args.push("--judge-run", options.judgeRunId);
  if (kind === "rewards") {
    if (options.source !== EXPORT_DEFAULTS.source) args.push("--source", options.source);
    if (options.mode !== EXPORT_DEFAULTS.mode) args.push("--mode", options.mode);
    if (options.source === "judge" && options.judgeRunId !== null)
      args.push("--judge-run", options.judgeRunId);
    if (options.mode === "reward" && options.floor !== EXPORT_DEFAULTS.floor)
      args.push("--floor", String(options.floor));
  }
  if (settings.passThreshold !== d.passThreshold)
    args.push("--pass-threshold", String(settings.passThreshold));
  if (settings.cap !== d.cap) args.push("--cap", String(settings.cap));
  if (settings.minFactor !== d.minFactor) args.push("--min-factor", String(settings.minFactor));
  if (settings.hackZero !== d.hackZero) args.push("--no-hack-zero");
  // The completion rule only makes text: in the conversational form no rule applies.
  if (kind !== "rubrics" && kind !== "annotations" && options.transcripts === "text")
    args.push("--text", settings.completionRule);
  for (const [name, weight] of Object.entries(settings.rewardWeights ?? {}))
    args.push("--weight", `${name}=${weight}`);
  return args.map(shellWord).join(" ");
}
