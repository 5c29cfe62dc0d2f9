/**
 * The run's health settings (issue 19): the detectors' window and thresholds and the diversity
 * sample, declared once in core (core/settings/healthSchema.ts). Persisted like the analysis
 * settings (they are preferences) and validated field by field when read back: stored values are
 * untrusted input.
 */
import type { StateCreator } from "zustand";
import {
  HEALTH_DEFAULTS,
  HEALTH_SETTING_SCHEMA,
  settingAccepts,
  settingsRead,
  type HealthSettings,
  type SettingValue,
} from "../../core/index.ts";
import type { Store } from "../index.ts";

export interface HealthSettingsSlice {
  readonly healthSettings: HealthSettings;
  /** Counts resets, so uncontrolled inputs can start over from the defaults (not persisted). */
  readonly healthSettingsResets: number;
  /** Set a health setting from the form's value: one its declaration refuses is ignored. */
  readonly setHealthSetting: (key: keyof HealthSettings, value: SettingValue) => void;
  readonly resetHealthSettings: () => void;
}

export const createHealthSettingsSlice: StateCreator<Store, [], [], HealthSettingsSlice> = (
  set,
) => ({
  healthSettings: HEALTH_DEFAULTS,
  healthSettingsResets: 0,
  setHealthSetting: (key, value) => {
    const decl = HEALTH_SETTING_SCHEMA.find((d) => d.key === key);
    if (decl !== undefined && settingAccepts(decl, value))
      set((s) => ({ healthSettings: { ...s.healthSettings, [key]: value } }));
  },
  resetHealthSettings: () =>
    set((s) => ({
      healthSettings: HEALTH_DEFAULTS,
      healthSettingsResets: s.healthSettingsResets + 1,
    })),
});

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/** Health settings read back from storage: each valid field is kept, anything else is its default. */
export function readHealthSettings(persisted: unknown): HealthSettings {
  const raw =
    isRecord(persisted) && isRecord(persisted.healthSettings) ? persisted.healthSettings : {};
  return settingsRead(HEALTH_SETTING_SCHEMA, raw);
}
