/**
 * The settings form's fields, derived from core's settings schema (core/settings/analysisSchema.ts:
 * each setting's label, control, default and where that default comes from), and the dataset
 * bar's summary of the settings that differ from their defaults.
 */
import {
  ANALYSIS_DEFAULTS,
  ANALYSIS_SETTING_SCHEMA,
  type AnalysisSettingKey,
  type AnalysisSettings,
  type SettingDecl,
  type SettingValue,
} from "../../../core/index.ts";

interface FieldBase<K extends string> {
  readonly key: K;
  readonly label: string;
  /** Where the default comes from. */
  readonly source: string;
  /** The stable test id (the issue fixes `settings-scale`; the others follow the pattern). */
  readonly testId: string;
  /** Its name in the dataset bar's summary of changed settings ("scale none"); the label by default. */
  readonly short?: string;
  /** What the setting does, when its label does not say it: the start of its tooltip. */
  readonly help?: string;
  readonly default: SettingValue;
}

/** A setting as the form shows it: its declaration's control. */
export type SettingField<K extends string = AnalysisSettingKey> =
  | (FieldBase<K> & {
      readonly control: "select";
      readonly options: readonly { readonly value: string | number; readonly label: string }[];
    })
  | (FieldBase<K> & {
      readonly control: "number";
      readonly min?: number;
      readonly max?: number;
      readonly step: number;
      /** Accepts a typed value (the store is only updated with valid ones). */
      readonly valid: (x: number) => boolean;
    })
  | (FieldBase<K> & { readonly control: "checkbox" });

/** The form's field of a setting's declaration. */
export function settingField<K extends string>(decl: SettingDecl<K>): SettingField<K> {
  const base: FieldBase<K> = {
    key: decl.key,
    label: decl.label,
    source: decl.source,
    testId: decl.testId,
    default: decl.default,
    ...(decl.short === undefined ? {} : { short: decl.short }),
    ...(decl.help === undefined ? {} : { help: decl.help }),
  };
  switch (decl.kind) {
    case "choice":
    case "number-choice":
      return { ...base, control: "select", options: decl.options };
    case "number":
      return {
        ...base,
        control: "number",
        step: decl.step,
        valid: decl.valid,
        ...(decl.min === undefined ? {} : { min: decl.min }),
        ...(decl.max === undefined ? {} : { max: decl.max }),
      };
    case "switch":
      return { ...base, control: "checkbox" };
  }
}

/** Every setting the panel shows, from core's settings schema, in its order. */
export const SETTING_FIELDS: readonly SettingField[] = ANALYSIS_SETTING_SCHEMA.map(settingField);

/** A field's tooltip: what it does (when it says), its default and where that comes from. */
export function settingHint<K extends string>(field: SettingField<K>): string {
  const hint = `Default ${settingDefaultLabel(field)}: ${field.source}`;
  return field.help === undefined ? hint : `${field.help} ${hint}`;
}

/** The default of a field, as shown beside it: a named option's label, on/off, or the number. */
export function settingDefaultLabel<K extends string>(field: SettingField<K>): string {
  const value = field.default;
  if (field.control === "select" && typeof value === "string")
    return field.options.find((o) => o.value === value)?.label ?? value;
  if (field.control === "checkbox") return value ? "on" : "off";
  return String(value);
}

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
