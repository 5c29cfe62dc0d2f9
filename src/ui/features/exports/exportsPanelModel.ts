/**
 * The Exports panel's menus and lines: the transcript, source and mode menus, how a pick there
 * changes the other reward choices (core's `rewardSourceFits`), the settings note, a kind's count
 * and what a download says. Pure; ExportsPanel and ExportOptions render it.
 */
import {
  REWARD_MODES,
  REWARD_SOURCES,
  rewardSourceFits,
  TRANSCRIPT_FORMS,
  type AnalysisSettings,
  type RewardMode,
  type RewardSource,
  type TranscriptForm,
} from "../../../core/index.ts";
import type { ExportChoices, ExportEntry } from "./prepareExports.ts";

/** One choice of a menu: its value and what the menu says for it. */
export interface MenuOption<T extends string> {
  readonly value: T;
  readonly label: string;
}

const TRANSCRIPT_LABEL: Readonly<Record<TranscriptForm, string>> = {
  messages: "whole conversations",
  text: "final-message text (--text)",
};
const SOURCE_LABEL: Readonly<Record<RewardSource, string>> = {
  human: "human ranking",
  judge: "judge run",
};
const MODE_LABEL: Readonly<Record<RewardMode, string>> = {
  advantage: "advantage (GAR, equation 3)",
  reward: "reward (GRS, equation 2)",
};

export const TRANSCRIPT_OPTIONS: readonly MenuOption<TranscriptForm>[] = TRANSCRIPT_FORMS.map(
  (value) => ({ value, label: TRANSCRIPT_LABEL[value] }),
);
export const SOURCE_OPTIONS: readonly MenuOption<RewardSource>[] = REWARD_SOURCES.map((value) => ({
  value,
  label: SOURCE_LABEL[value],
}));
export const MODE_OPTIONS: readonly MenuOption<RewardMode>[] = REWARD_MODES.map((value) => ({
  value,
  label: MODE_LABEL[value],
}));

type RewardChoices = ExportChoices["rewards"];

/**
 * The reward choices after picking a source. The picked run is dropped (the menu's runs depend on
 * the choices); reward mode needs the judge source, so picking the human source goes back to
 * advantage mode.
 */
export function withRewardSource(rewards: RewardChoices, source: RewardSource): RewardChoices {
  return {
    ...rewards,
    source,
    judgeRunId: null,
    ...(rewardSourceFits(source, rewards.mode) ? {} : { mode: "advantage" as const }),
  };
}

/** The reward choices after picking a mode: as for a source, reward mode brings the judge source. */
export function withRewardMode(rewards: RewardChoices, mode: RewardMode): RewardChoices {
  return {
    ...rewards,
    mode,
    judgeRunId: null,
    ...(rewardSourceFits(rewards.source, mode) ? {} : { source: "judge" as const }),
  };
}

/** A typed floor: empty text is no number (the rewards entry then says why), not 0. */
export function floorFromText(text: string): number {
  return text.trim() === "" ? NaN : Number(text);
}

/** A judge-run menu's value as a choice: "" stands for null (see `RunOption`). */
export function runFromMenu(value: string): string | null {
  return value === "" ? null : value;
}

/** The settings every file is written under; the completion rule only where it makes text. */
export function settingsNote(settings: AnalysisSettings, transcripts: TranscriptForm): string {
  return (
    `Under the current settings: pass threshold ${settings.passThreshold}, GAR cap ` +
    `${settings.cap}, min factor ${settings.minFactor}, hack zeroing ` +
    `${settings.hackZero ? "on" : "off"}` +
    `${transcripts === "text" ? `, completion text ${settings.completionRule}` : ""}.`
  );
}

/** "1,234 rows", or "–" while the export cannot be written. */
export function countText(entry: Pick<ExportEntry, "rows" | "unit">): string {
  return entry.rows === null ? "–" : `${entry.rows.toLocaleString("en-US")} ${entry.unit}`;
}

/** The download's media type: JSON Lines or JSON, by the file's extension. */
export function downloadType(fileName: string): string {
  return fileName.endsWith(".jsonl") ? "application/x-ndjson" : "application/json";
}

/** What a download says once saved; `assignedSplits` when it gave labelled rollouts their split. */
export function savedText(fileName: string, assignedSplits: boolean): string {
  return (
    `Saved ${fileName}.` +
    (assignedSplits
      ? " Labelled rollouts that had no calibration split now have one, kept with the annotations."
      : "")
  );
}

/** What a download says when its file could not be written. */
export function failedText(fileName: string, error: unknown): string {
  return `${fileName} could not be written: ${error instanceof Error ? error.message : String(error)}`;
}
