/**
 * The analysis settings, each with its default and where the default comes from. A change
 * recomputes every visible number at once (the numbers are derived from the settings on render).
 */
import { useId } from "react";
import { useShallow } from "zustand/react/shallow";
import { useStore } from "../../../store/index.ts";
import RewardWeights from "./RewardWeights.tsx";
import styles from "./Settings.module.css";
import {
  SETTING_FIELDS,
  settingDefaultLabel,
  settingHint,
  type SettingField,
} from "./settingFields.ts";

function Control({ field }: { field: SettingField }) {
  const id = useId();
  const { settings, setSetting, resets } = useStore(
    useShallow((s) => ({
      settings: s.settings,
      setSetting: s.setSetting,
      resets: s.settingsResets,
    })),
  );
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
            value={String(settings[field.key])}
            title={hint}
            data-testid={field.testId}
            onChange={(e) => setSetting(field.key, e.currentTarget.value as never)}
          >
            {field.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      );
    case "tie":
      return (
        <div className={styles.field}>
          {label}
          <select
            id={id}
            value={String(settings.tieCredit)}
            title={hint}
            data-testid={field.testId}
            onChange={(e) => setSetting("tieCredit", e.currentTarget.value === "0.5" ? 0.5 : 0)}
          >
            <option value="0">0 (benchmax)</option>
            <option value="0.5">0.5 (Pref-GRPO)</option>
          </select>
        </div>
      );
    case "checkbox":
      return (
        <div className={styles.field}>
          <input
            id={id}
            type="checkbox"
            checked={settings.hackZero}
            title={hint}
            data-testid={field.testId}
            onChange={(e) => setSetting("hackZero", e.currentTarget.checked)}
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
            defaultValue={settings[field.key]}
            key={resets}
            title={hint}
            data-testid={field.testId}
            onChange={(e) => {
              const value = e.currentTarget.valueAsNumber;
              if (field.valid(value)) setSetting(field.key, value);
            }}
          />
        </div>
      );
  }
}

export default function SettingsPanel() {
  const resetSettings = useStore((s) => s.resetSettings);
  return (
    <section className={styles.panel} aria-label="Settings" data-testid="settings.panel">
      {SETTING_FIELDS.map((field) => (
        <Control key={field.key} field={field} />
      ))}
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
