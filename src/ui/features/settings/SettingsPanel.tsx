/**
 * The analysis settings, each with its default and where the default comes from. A change
 * recomputes every visible number at once (the numbers are derived from the settings on render).
 */
import { useId } from "react";
import { useShallow } from "zustand/react/shallow";
import type { SettingValue } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import RewardWeights from "./RewardWeights.tsx";
import styles from "./Settings.module.css";
import {
  SETTING_FIELDS,
  settingDefaultLabel,
  settingHint,
  type SettingField,
} from "./settingFields.ts";

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

export default function SettingsPanel() {
  const { settings, setSettingValue, resets, resetSettings } = useStore(
    useShallow((s) => ({
      settings: s.settings,
      setSettingValue: s.setSettingValue,
      resets: s.settingsResets,
      resetSettings: s.resetSettings,
    })),
  );
  return (
    <section className={styles.panel} aria-label="Settings" data-testid="settings.panel">
      <SettingsForm
        fields={SETTING_FIELDS}
        values={settings}
        resets={resets}
        onChange={setSettingValue}
      />
      <RewardWeights />
      <details className={styles.about} data-testid="settings.sources">
        <summary>Defaults and sources</summary>
        <table className={styles.sources}>
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">Default</th>
              <th scope="col">Where the default comes from</th>
            </tr>
          </thead>
          <tbody>
            {SETTING_FIELDS.map((field) => (
              <tr key={field.key}>
                <th scope="row">{field.label}</th>
                <td>{settingDefaultLabel(field)}</td>
                <td>{field.source}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">Reward weights</th>
              <td>off (the logged reward)</td>
              <td>TRL reward_weights: every component weighs 1 once weights are on</td>
            </tr>
          </tbody>
        </table>
      </details>
      <button
        type="button"
        className={styles.reset}
        onClick={resetSettings}
        data-testid="settings-reset"
      >
        Defaults
      </button>
    </section>
  );
}
