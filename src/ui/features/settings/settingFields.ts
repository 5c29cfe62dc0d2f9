/**
 * The settings form's fields, derived from core's settings schema (core/settings/analysisSchema.ts:
 * each setting's label, control, default and where that default comes from, through
 * ui/components/settingField.ts), and the dataset bar's summary of the settings that differ from
 * their defaults.
 */
import {
  ANALYSIS_DEFAULTS,
  ANALYSIS_SETTING_SCHEMA,
  type AnalysisSettingKey,
  type AnalysisSettings,
} from "../../../core/index.ts";
import {
  settingDefaultLabel,
  settingField,
  type SettingField as Field,
} from "../../components/settingField.ts";

/** A setting as the settings panel shows it (the analysis settings' keys). */
export type SettingField = Field<AnalysisSettingKey>;

/** Every setting the panel shows, from core's settings schema, in its order. */
export const SETTING_FIELDS: readonly SettingField[] = ANALYSIS_SETTING_SCHEMA.map(settingField);

/** A number as the summary writes it: short, and 1e-6 rather than 0.000001. */
function shortNumber(x: number): string {
  return x !== 0 && Math.abs(x) < 1e-3 ? x.toExponential() : String(x);
}

/** The value of a field as the summary writes it: an option's value, on/off, or the number. */
function shortValue(field: SettingField, settings: AnalysisSettings): string {
  const value = settings[field.key];
  if (field.control === "checkbox") return value ? "on" : "off";
  if (typeof value === "number") return shortNumber(value);
  return String(value);
}

export interface SettingSummaryItem {
  readonly key: keyof AnalysisSettings;
  /** "scale none", "eps 1e-6". */
  readonly text: string;
  /** The field's label, its value and its default, for the tooltip. */
  readonly title: string;
}

/**
 * The settings that differ from their defaults, in the panel's order, as short chips for the
 * dataset bar (issue 13: the settings live in a side sheet, and what is in force stays in view).
 */
export function settingsSummary(settings: AnalysisSettings): SettingSummaryItem[] {
  const items: SettingSummaryItem[] = SETTING_FIELDS.filter(
    (field) => settings[field.key] !== ANALYSIS_DEFAULTS[field.key],
  ).map((field) => {
    const value = shortValue(field, settings);
    return {
      key: field.key,
      text: `${field.short ?? field.label.toLowerCase()} ${value}`,
      title: `${field.label}: ${value} (default ${settingDefaultLabel(field)})`,
    };
  });
  if (settings.rewardWeights !== null) {
    const weights = Object.entries(settings.rewardWeights)
      .map(([name, w]) => `${name} ${shortNumber(w)}`)
      .join(", ");
    items.push({
      key: "rewardWeights",
      text: "weighted components",
      title: `Reward weights: ${weights === "" ? "every component 1" : weights} (default off: the logged reward)`,
    });
  }
  return items;
}
