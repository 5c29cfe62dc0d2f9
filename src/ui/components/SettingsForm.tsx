/**
 * A form of settings derived from a schema (./settingField.ts): one control per field, by its
 * declaration's kind, its label's tooltip the help, the default and where that comes from. Only
 * valid values reach `onChange`. The analysis settings' sheet and the run view's detector
 * thresholds use it.
 */
import { useId } from "react";
import type { SettingValue } from "../../core/index.ts";
import { settingHint, type SettingField } from "./settingField.ts";
import styles from "./SettingsForm.module.css";

/** One setting's control, by its field's kind; only valid values reach `onChange`. */
export function SettingControl<K extends string>({
  field,
  value,
  resets,
  onChange,
}: {
  field: SettingField<K>;
  value: SettingValue;
  /** Counts resets, so an uncontrolled number input starts over from the defaults. */
  resets: number;
  onChange: (key: K, value: SettingValue) => void;
}) {
  const id = useId();
  const hint = settingHint(field);
  const label = (
    <label htmlFor={id} className={styles.label} title={hint}>
      {field.label}
    </label>
  );
  switch (field.control) {
    case "select":
      return (
        <div className={styles.field}>
          {label}
          <select
            id={id}
            value={String(value)}
            title={hint}
            data-testid={field.testId}
            onChange={(e) => {
              const picked = e.currentTarget.value;
              const option = field.options.find((o) => String(o.value) === picked);
              if (option !== undefined) onChange(field.key, option.value);
            }}
          >
            {field.options.map((o) => (
              <option key={o.value} value={String(o.value)}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      );
    case "checkbox":
      return (
        <div className={styles.field}>
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            title={hint}
            data-testid={field.testId}
            onChange={(e) => onChange(field.key, e.currentTarget.checked)}
          />
          {label}
        </div>
      );
    case "number":
      return (
        <div className={styles.field}>
          {label}
          <input
            id={id}
            className={styles.number}
            type="number"
            step={field.step}
            min={field.min}
            max={field.max}
            defaultValue={typeof value === "number" ? value : undefined}
            key={resets}
            title={hint}
            data-testid={field.testId}
            onChange={(e) => {
              const typed = e.currentTarget.valueAsNumber;
              if (field.valid(typed)) onChange(field.key, typed);
            }}
          />
        </div>
      );
  }
}

/** The controls of these fields over these values (the panel's: the schema's and the store's). */
export function SettingsForm<K extends string>({
  fields,
  values,
  resets,
  onChange,
}: {
  fields: readonly SettingField<K>[];
  values: Readonly<Record<K, SettingValue>>;
  resets: number;
  onChange: (key: K, value: SettingValue) => void;
}) {
  return fields.map((field) => (
    <SettingControl
      key={field.key}
      field={field}
      value={values[field.key]}
      resets={resets}
      onChange={onChange}
    />
  ));
}
