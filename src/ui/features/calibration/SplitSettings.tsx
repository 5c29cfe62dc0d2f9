/**
 * The split seed and shares. Applying new ones re-splits every labelled rollout (logged), which is
 * allowed only while the test split is sealed. The form is keyed by the state's settings by its
 * parent, so it starts from them again whenever they change.
 */
import { useState } from "react";
import { SPLIT_DEFAULTS, SPLIT_NAMES, type CalibrationState } from "../../../core/index.ts";
import {
  parseSplitForm,
  splitFormFrom,
  type SplitForm,
  type SplitFormResult,
} from "./prepareCalibration.ts";
import styles from "./Calibration.module.css";

const DEFAULTS = splitFormFrom(SPLIT_DEFAULTS);

export default function SplitSettings({
  state,
  title,
  onApply,
}: {
  state: CalibrationState;
  /** The formula tooltip. */
  title: string;
  /** Throws when the split cannot change (the caller's state moved on). */
  onApply: (next: Extract<SplitFormResult, { ok: true }>) => void;
}) {
  const [form, setForm] = useState<SplitForm>(() => splitFormFrom(state));
  const [error, setError] = useState<string | null>(null);
  const sealed = state.unsealed === null;
  const parsed = parseSplitForm(form);
  const current = splitFormFrom(state);
  const changed = SPLIT_NAMES.some((s) => form[s] !== current[s]) || form.seed !== current.seed;
  const assigned = Object.keys(state.assignments).length;
  const set = (key: keyof SplitForm, value: string) => {
    setError(null);
    setForm((f) => ({ ...f, [key]: value }));
  };
  return (
    <div className={styles.section}>
      <div className={styles.row} title={title}>
        <label className={styles.field}>
          Seed
          <input
            className={styles.number}
            inputMode="numeric"
            data-testid="calibration.split.seed"
            value={form.seed}
            disabled={!sealed}
            onChange={(e) => set("seed", e.currentTarget.value)}
          />
        </label>
        {SPLIT_NAMES.map((s) => (
          <label key={s} className={styles.field}>
            {s} %
            <input
              className={styles.number}
              inputMode="decimal"
              data-testid={`calibration.split.${s}`}
              value={form[s]}
              disabled={!sealed}
              onChange={(e) => set(s, e.currentTarget.value)}
            />
          </label>
        ))}
        <button
          type="button"
          className={styles.button}
          data-testid="calibration.split.apply"
          disabled={!sealed || !changed || !parsed.ok}
          onClick={() => {
            if (!parsed.ok) return;
            try {
              onApply(parsed);
            } catch (e) {
              setError(e instanceof Error ? e.message : String(e));
            }
          }}
        >
          Re-split
        </button>
      </div>
      <p className={styles.muted}>
        Stratified by the human label. Defaults: seed {DEFAULTS.seed}, train/dev/test{" "}
        {DEFAULTS.train}/{DEFAULTS.dev}/{DEFAULTS.test}%. {assigned} rollout(s) placed; a rollout
        keeps its split once placed.{" "}
        {sealed
          ? "Re-splitting places every labelled rollout afresh (logged): rows you tuned the judge on may land in test."
          : "The test split is unsealed: the splits can no longer change."}
      </p>
      {!parsed.ok && changed ? (
        <p className={styles.error} data-testid="calibration.split.error">
          {parsed.error}
        </p>
      ) : null}
      {error !== null ? (
        <p className={styles.error} data-testid="calibration.split.error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
