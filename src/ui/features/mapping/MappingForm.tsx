/**
 * The pickers of the field-mapping dialog, for one sample: group key, id, text and reward fields,
 * the fields table, the live preview, presets, and the submit that loads the file as "mapped".
 * Every decision (options, guesses, preview, problems) comes from prepareMappingFields, and the
 * form's own lines from mappingFormModel.
 */
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useStore } from "../../../store/index.ts";
import { mappingToFormatOptions, type FieldMapping } from "../../../store/slices/presetsSlice.ts";
import { FieldPicker, RewardFields } from "./FieldPickers.tsx";
import styles from "./Mapping.module.css";
import { fieldsSummary, mappingAsk, mappingTyped, previewText } from "./mappingFormModel.ts";
import PresetList from "./PresetList.tsx";
import {
  discoverFields,
  guessPicks,
  prepareMappingFields,
  type MappingModel,
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

  const typed = mappingTyped(model);
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
        <strong className={styles.file}>{file.name}</strong>: {source}. {mappingAsk(typed)}
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

      <RewardFields
        id={ids.reward}
        hintId={ids.hint}
        typed={typed}
        picks={picks}
        options={model.rewardOptions}
        onChange={setPicks}
      />

      {typed ? null : <FieldsTable model={model} />}

      <p className={styles.preview} aria-live="polite" data-testid="mapping.preview">
        {previewText(model, typed)}
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

/** The sample's fields with their kind and a sample value; collapsed when there are many. */
function FieldsTable({ model }: { model: MappingModel }) {
  return (
    <details className={styles.fieldsBox} open={model.fieldsExpanded}>
      <summary>{fieldsSummary(model)}</summary>
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
  );
}
