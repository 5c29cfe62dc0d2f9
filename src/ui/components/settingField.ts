/**
 * A setting as a form shows it, derived from its declaration in one of core's settings schemas
 * (core/settings/settingDecl.ts: label, control, default and where that default comes from): the
 * analysis settings' side sheet and the run view's detector thresholds build their forms from it.
 */
import type { SettingDecl, SettingValue } from "../../core/index.ts";

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
export type SettingField<K extends string = string> =
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
