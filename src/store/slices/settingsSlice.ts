/**
 * The analysis settings: every knob that changes a number. Persisted (they are preferences), and
 * validated field by field when read back, since stored values are untrusted input: each by its
 * declaration in core's settings schema (core/settings/analysisSchema.ts).
 */
import type { StateCreator } from "zustand";
import {
  ANALYSIS_DEFAULTS,
  ANALYSIS_SETTING_SCHEMA,
  analysisSettingDecl,
  settingAccepts,
  settingsRead,
  type AnalysisSettingKey,
  type SettingValue,
  type AnalysisSettings,
  type SettingDecl,
  type SettingValues,
} from "../../core/index.ts";
import type { Store } from "../index.ts";

export interface SettingsSlice {
  readonly settings: AnalysisSettings;
  /** Counts resets, so uncontrolled inputs can start over from the defaults (not persisted). */
  readonly settingsResets: number;
  readonly setSetting: <K extends keyof AnalysisSettings>(
    key: K,
    value: AnalysisSettings[K],
  ) => void;
  /**
   * Set a declared setting from a generic value (the settings form's): a value its declaration
   * (core's settings schema) refuses is ignored.
   */
  readonly setSettingValue: (key: AnalysisSettingKey, value: SettingValue) => void;
  readonly resetSettings: () => void;
}

export const createSettingsSlice: StateCreator<Store, [], [], SettingsSlice> = (set) => ({
  settings: ANALYSIS_DEFAULTS,
  settingsResets: 0,
  setSetting: (key, value) => set((s) => ({ settings: { ...s.settings, [key]: value } })),
  setSettingValue: (key, value) => {
    if (settingAccepts(analysisSettingDecl(key), value))
      set((s) => ({ settings: { ...s.settings, [key]: value } }));
  },
  resetSettings: () =>
    set((s) => ({ settings: ANALYSIS_DEFAULTS, settingsResets: s.settingsResets + 1 })),
});

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/** Reward weights read back from storage: a record of finite numbers, else none. */
function readWeights(raw: unknown): Readonly<Record<string, number>> | null {
  if (!isRecord(raw)) return null;
  const entries = Object.entries(raw);
  if (entries.length === 0) return null;
  return entries.every(([, w]) => typeof w === "number" && Number.isFinite(w))
    ? (raw as Record<string, number>)
    : null;
}

/** Settings read back from storage: each valid field is kept, anything else falls back to its default. */
export function readSettings(persisted: unknown): AnalysisSettings {
  return readSettingsWith(ANALYSIS_SETTING_SCHEMA, persisted);
}

/**
 * Settings of a schema read back from storage (each field checked by its declaration), and the
 * reward weights, which have no declaration (a record of components, edited on their own).
 */
export function readSettingsWith<D extends SettingDecl>(
  schema: readonly D[],
  persisted: unknown,
): SettingValues<D> & Pick<AnalysisSettings, "rewardWeights"> {
  const raw = isRecord(persisted) && isRecord(persisted.settings) ? persisted.settings : {};
  return { ...settingsRead(schema, raw), rewardWeights: readWeights(raw.rewardWeights) };
}
