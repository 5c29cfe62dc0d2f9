/**
 * The analysis settings, each with its default and where the default comes from. A change
 * recomputes every visible number at once (the numbers are derived from the settings on render).
 */
import { useShallow } from "zustand/react/shallow";
import { useStore } from "../../../store/index.ts";
import { settingDefaultLabel } from "../../components/settingField.ts";
import { SettingsForm } from "../../components/SettingsForm.tsx";
import RewardWeights from "./RewardWeights.tsx";
import styles from "./Settings.module.css";
import { SETTING_FIELDS } from "./settingFields.ts";

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
