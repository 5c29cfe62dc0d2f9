/**
 * The mapping form's pickers: one field (a select over the sample's fields, or a text box when the
 * sample has none) and the reward fields (ticked from the numeric fields, or typed).
 */
import type { Ref } from "react";
import type { FieldMapping } from "../../../store/slices/presetsSlice.ts";
import styles from "./Mapping.module.css";
import {
  rewardKeysFromText,
  rewardKeysText,
  rewardSummary,
  withRewardKey,
} from "./mappingFormModel.ts";
import type { FieldOption } from "./prepareMappingFields.ts";

export interface FieldPickerProps {
  readonly id: string;
  readonly typed: boolean;
  readonly value: string;
  readonly options: readonly FieldOption[];
  /** The label of the "no field" choice. */
  readonly empty: string;
  readonly required?: boolean;
  readonly onChange: (path: string) => void;
  readonly testId: string;
  readonly inputRef?: Ref<HTMLSelectElement & HTMLInputElement>;
}

/** A select over the sample's fields, or a text box when the sample has none. */
export function FieldPicker({
  id,
  typed,
  value,
  options,
  empty,
  required = false,
  onChange,
  testId,
  inputRef,
}: FieldPickerProps) {
  if (typed) {
    return (
      <input
        id={id}
        ref={inputRef}
        className={styles.input}
        value={value}
        required={required}
        spellCheck={false}
        onChange={(e) => onChange(e.currentTarget.value)}
        data-testid={testId}
      />
    );
  }
  return (
    <select
      id={id}
      ref={inputRef}
      className={styles.select}
      value={value}
      required={required}
      onChange={(e) => onChange(e.currentTarget.value)}
      data-testid={testId}
    >
      <option value="">{empty}</option>
      {options.map((o) => (
        <option key={o.path} value={o.path}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** The reward fields: a comma-separated box when typed, else a checkbox per numeric field. */
export function RewardFields({
  id,
  hintId,
  typed,
  picks,
  options,
  onChange,
}: {
  id: string;
  hintId: string;
  typed: boolean;
  picks: FieldMapping;
  options: readonly FieldOption[];
  onChange: (change: (picks: FieldMapping) => FieldMapping) => void;
}) {
  if (typed)
    return (
      <div className={styles.pickers}>
        <label htmlFor={id}>Reward fields</label>
        <input
          id={id}
          className={styles.input}
          value={rewardKeysText(picks)}
          onChange={(e) => {
            const rewardKeys = rewardKeysFromText(e.currentTarget.value);
            onChange((p) => ({ ...p, rewardKeys }));
          }}
          aria-describedby={hintId}
          data-testid="mapping.reward-input"
        />
        <span id={hintId} className={styles.muted}>
          Comma-separated; several fields are summed.
        </span>
      </div>
    );
  return (
    <fieldset className={styles.rewards} data-testid="mapping.rewards">
      <legend>Reward fields</legend>
      {options.length === 0 ? (
        <p className={styles.muted}>No numeric fields in the sample.</p>
      ) : (
        options.map((o) => (
          <label key={o.path} className={styles.check}>
            <input
              type="checkbox"
              checked={picks.rewardKeys.includes(o.path)}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                onChange((p) => withRewardKey(p, o.path, on));
              }}
              data-testid="mapping.reward"
              value={o.path}
            />
            {o.label}
          </label>
        ))
      )}
      <p className={styles.muted}>{rewardSummary(picks)}</p>
    </fieldset>
  );
}
