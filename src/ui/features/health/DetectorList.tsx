/**
 * The run view's detectors: each of core's five rules with its formula (the name's tooltip), the
 * steps where it fired (each a button that filters the group browser to it), its alerts, or why
 * it is idle, and its thresholds as fields of the health settings form (derived from core's
 * schema). The settings every rule reads (window, significance, diversity sample) come first.
 * Test ids: `health-detector` (data-rule, data-fired: the fired steps comma-joined) and
 * `health-alert` (data-rule, data-step).
 */
import type { HealthSettings, SettingValue } from "../../../core/index.ts";
import { SettingsForm } from "../../components/SettingsForm.tsx";
import {
  healthFields,
  SHARED_HEALTH_SETTINGS,
  type DetectorRow,
  type HealthSettingKey,
} from "./detectorModel.ts";
import styles from "./Health.module.css";

/** Fired steps listed as buttons at most; past this, "and N more". */
const MAX_STEP_BUTTONS = 16;

const SHARED_FIELDS = healthFields(SHARED_HEALTH_SETTINGS);

export default function DetectorList({
  rows,
  settings,
  resets,
  onSetting,
  onStep,
}: {
  rows: readonly DetectorRow[];
  settings: HealthSettings;
  resets: number;
  onSetting: (key: HealthSettingKey, value: SettingValue) => void;
  onStep: (step: number) => void;
}) {
  return (
    <section className={styles.detectors} aria-label="Detectors">
      <h3 className={styles.heading}>Detectors</h3>
      <div className={styles.shared}>
        <SettingsForm
          fields={SHARED_FIELDS}
          values={settings}
          resets={resets}
          onChange={onSetting}
        />
      </div>
      <ul className={styles.rules}>
        {rows.map((r) => (
          <li
            key={r.rule}
            className={styles.rule}
            data-status={r.status}
            data-testid="health-detector"
            data-rule={r.rule}
            data-fired={r.firedAttribute}
          >
            <div className={styles.ruleHead}>
              <span className={styles.ruleName} title={r.formula}>
                {r.label}
              </span>
              <span className={styles.ruleStatus}>{r.statusText}</span>
            </div>
            {r.over !== null ? <span className={styles.ruleOver}>{r.over}</span> : null}
            {r.fired.length > 0 ? (
              <div className={styles.firedSteps} aria-label={`${r.label}: steps where it fired`}>
                {r.fired.slice(0, MAX_STEP_BUTTONS).map((step) => (
                  <button
                    key={step}
                    type="button"
                    className={styles.stepButton}
                    title={`Show the groups of step ${step}`}
                    onClick={() => onStep(step)}
                  >
                    {step}
                  </button>
                ))}
                {r.fired.length > MAX_STEP_BUTTONS ? (
                  <span>and {r.fired.length - MAX_STEP_BUTTONS} more</span>
                ) : null}
              </div>
            ) : null}
            {r.alerts.map((a) => (
              <p
                key={`${a.rule}-${a.step}`}
                className={styles.alert}
                data-testid="health-alert"
                data-rule={a.rule}
                data-step={a.step}
              >
                {a.message}
              </p>
            ))}
            <div className={styles.thresholds}>
              <SettingsForm
                fields={r.fields}
                values={settings}
                resets={resets}
                onChange={onSetting}
              />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
