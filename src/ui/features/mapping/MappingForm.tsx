/**
 * The pickers of the field-mapping dialog, for one sample: group key, id, text and reward fields,
 * the fields table, the live preview, presets, and the submit that loads the file as "mapped".
 * Every decision (options, guesses, preview, problems) comes from prepareMappingFields.
 */
import { useEffect, useId, useMemo, useRef, useState, type Ref } from "react";
import { useStore } from "../../../store/index.ts";
import { mappingToFormatOptions, type FieldMapping } from "../../../store/slices/presetsSlice.ts";
import styles from "./Mapping.module.css";
import PresetList from "./PresetList.tsx";
import {
  discoverFields,
  guessPicks,
  prepareMappingFields,
  type FieldOption,
} from "./prepareMappingFields.ts";

export interface MappingFormProps {
  readonly file: File;
  readonly records: readonly unknown[];
  /** Column names known without records (a CSV header). */
  readonly columns: readonly string[];
  /** Where the sample came from, for people: "CSV; 12 records in the first 64 KB". */
  readonly source: string;
  readonly onClose: () => void;
}

export default function MappingForm({ file, records, columns, source, onClose }: MappingFormProps) {
  const loadFile = useStore((s) => s.loadFile);
  const [picks, setPicks] = useState<FieldMapping>(() =>
    guessPicks(discoverFields(records, columns)),
  );
  const model = useMemo(
    () => prepareMappingFields(records, picks, columns),
    [records, picks, columns],
  );
  const first = useRef<HTMLSelectElement & HTMLInputElement>(null);
  const ids = { group: useId(), id: useId(), text: useId(), reward: useId(), hint: useId() };
  // Focus is DOM state: put it on the first picker once the fields are on screen.
  useEffect(() => first.current?.focus(), []);

  const typed = model.fields.length === 0;
  const set = (change: Partial<FieldMapping>): void => setPicks((p) => ({ ...p, ...change }));

  return (
    <form
      className={styles.body}
      onSubmit={(e) => {
        e.preventDefault();
        if (!model.canSubmit) return;
        loadFile(file, { format: "mapped", options: mappingToFormatOptions(model.mapping) });
        onClose();
      }}
    >
      <p className={styles.muted} data-testid="mapping.source">
        <strong className={styles.file}>{file.name}</strong>: {source}.{" "}
        {typed
          ? "No fields could be read from the start of the file; type the field names."
          : "Pick the fields that hold each part of a rollout."}
      </p>

      <div className={styles.pickers}>
        <label htmlFor={ids.group}>Group key</label>
        <FieldPicker
          id={ids.group}
          inputRef={first}
          typed={typed}
          required
          value={picks.groupKey}
          options={model.keyOptions}
          empty="Choose a field…"
          onChange={(groupKey) => set({ groupKey })}
          testId="mapping.group"
        />

        <label htmlFor={ids.text}>Text or messages</label>
        <FieldPicker
          id={ids.text}
          typed={typed}
          required
          value={picks.textKey}
          options={model.textOptions}
          empty="Choose a field…"
          onChange={(textKey) => set({ textKey })}
          testId="mapping.text"
        />

        <label htmlFor={ids.id}>Rollout id</label>
        <FieldPicker
          id={ids.id}
          typed={typed}
          value={picks.idKey}
          options={model.keyOptions}
          empty="None: number the rollouts in each group"
          onChange={(idKey) => set({ idKey })}
          testId="mapping.id"
        />
      </div>

      {typed ? (
        <div className={styles.pickers}>
          <label htmlFor={ids.reward}>Reward fields</label>
          <input
            id={ids.reward}
            className={styles.input}
            value={picks.rewardKeys.join(",")}
            onChange={(e) =>
              set({
                // Kept as typed (joined back without loss); prepareMappingFields cleans it.
                rewardKeys: e.currentTarget.value.split(","),
              })
            }
            aria-describedby={ids.hint}
            data-testid="mapping.reward-input"
          />
          <span id={ids.hint} className={styles.muted}>
            Comma-separated; several fields are summed.
          </span>
        </div>
      ) : (
        <fieldset className={styles.rewards} data-testid="mapping.rewards">
          <legend>Reward fields</legend>
          {model.rewardOptions.length === 0 ? (
            <p className={styles.muted}>No numeric fields in the sample.</p>
          ) : (
            model.rewardOptions.map((o) => (
              <label key={o.path} className={styles.check}>
                <input
                  type="checkbox"
                  checked={picks.rewardKeys.includes(o.path)}
                  onChange={(e) => {
                    const on = e.currentTarget.checked;
                    setPicks((p) => ({
                      ...p,
                      rewardKeys: on
                        ? [...p.rewardKeys, o.path]
                        : p.rewardKeys.filter((r) => r !== o.path),
                    }));
                  }}
                  data-testid="mapping.reward"
                  value={o.path}
                />
                {o.label}
              </label>
            ))
          )}
          <p className={styles.muted}>
            {picks.rewardKeys.length === 0
              ? "None: the rollouts load without rewards."
              : picks.rewardKeys.length === 1
                ? "This field is the reward."
                : "Several fields: each is a reward component, and the reward is their sum."}
          </p>
        </fieldset>
      )}

      {typed ? null : (
        <details className={styles.fieldsBox} open={model.fieldsExpanded}>
          <summary>
            {model.fields.length} field{model.fields.length === 1 ? "" : "s"} in the sample
          </summary>
          <table className={styles.fields} data-testid="mapping.fields">
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Kind</th>
                <th scope="col">Sample value</th>
              </tr>
            </thead>
            <tbody>
              {model.fields.map((f) => (
                <tr key={f.path} data-testid="mapping.field">
                  <td>
                    <code>{f.path}</code>
                  </td>
                  <td className={styles.muted}>{f.kind}</td>
                  <td className={styles.sample}>{f.sample}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}

      <p className={styles.preview} aria-live="polite" data-testid="mapping.preview">
        {typed ? "No preview without sampled records." : model.previewLine}
      </p>
      {model.problems.length > 0 ? (
        <ul className={styles.problems} data-testid="mapping.problems">
          {model.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}

      <PresetList
        current={model.mapping}
        canSave={model.canSubmit}
        onApply={(mapping) => setPicks(mapping)}
      />

      <div className={styles.footer}>
        <button
          type="button"
          className={styles.button}
          onClick={onClose}
          data-testid="mapping.cancel"
        >
          Cancel
        </button>
        <button
          type="submit"
          className={styles.primary}
          disabled={!model.canSubmit}
          data-testid="mapping.submit"
        >
          Load with these fields
        </button>
      </div>
    </form>
  );
}

interface FieldPickerProps {
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
function FieldPicker({
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
