/**
 * Saved field mappings inside the mapping dialog: apply one (its picks replace the current ones),
 * delete one, or save the current picks under a name (an existing name is replaced).
 */
import { useId, useState } from "react";
import { useShallow } from "zustand/react/shallow";
import { useStore } from "../../../store/index.ts";
import type { FieldMapping } from "../../../store/slices/presetsSlice.ts";
import styles from "./Mapping.module.css";

export interface PresetListProps {
  /** The current picks, as they would be saved. */
  readonly current: FieldMapping;
  /** False while the picks are incomplete: an incomplete mapping is not saved. */
  readonly canSave: boolean;
  readonly onApply: (mapping: FieldMapping) => void;
}

/** "group → text, rewards a + b": what a preset maps, in one line. */
export function describeMapping(mapping: FieldMapping): string {
  const parts = [`${mapping.groupKey} → ${mapping.textKey}`];
  if (mapping.idKey !== "") parts.push(`id ${mapping.idKey}`);
  if (mapping.rewardKeys.length > 0)
    parts.push(
      `${mapping.rewardKeys.length === 1 ? "reward" : "rewards"} ${mapping.rewardKeys.join(" + ")}`,
    );
  return parts.join(", ");
}

export default function PresetList({ current, canSave, onApply }: PresetListProps) {
  const { presets, savePreset, deletePreset } = useStore(
    useShallow((s) => ({
      presets: s.presets,
      savePreset: s.savePreset,
      deletePreset: s.deletePreset,
    })),
  );
  const [name, setName] = useState("");
  const nameId = useId();
  const headingId = useId();
  const trimmed = name.trim();
  const replaces = presets.some((p) => p.name === trimmed);
  const save = (): void => {
    if (!canSave || trimmed === "") return;
    savePreset(trimmed, current);
    setName("");
  };

  return (
    <section className={styles.presets} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.subtitle}>
        Presets
      </h3>
      {presets.length === 0 ? (
        <p className={styles.muted} data-testid="mapping.presets-empty">
          No presets yet.
        </p>
      ) : (
        <ul className={styles.presetList} data-testid="mapping.presets">
          {presets.map((p) => (
            <li key={p.name} className={styles.preset} data-testid="mapping.preset">
              <span className={styles.presetText}>
                <strong data-testid="mapping.preset.name">{p.name}</strong>{" "}
                <span className={styles.muted}>{describeMapping(p.mapping)}</span>
              </span>
              <button
                type="button"
                className={styles.button}
                onClick={() => onApply(p.mapping)}
                aria-label={`Apply preset ${p.name}`}
                data-testid="mapping.preset.apply"
              >
                Apply
              </button>
              <button
                type="button"
                className={styles.button}
                onClick={() => deletePreset(p.name)}
                aria-label={`Delete preset ${p.name}`}
                data-testid="mapping.preset.delete"
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className={styles.saveRow}>
        <label htmlFor={nameId}>Preset name</label>
        <input
          id={nameId}
          className={styles.input}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          onKeyDown={(e) => {
            // Enter saves the preset instead of submitting the whole form.
            if (e.key !== "Enter") return;
            e.preventDefault();
            save();
          }}
          data-testid="mapping.preset-name"
        />
        <button
          type="button"
          className={styles.button}
          onClick={save}
          disabled={!canSave || trimmed === ""}
          data-testid="mapping.preset-save"
        >
          {replaces ? "Replace preset" : "Save as preset"}
        </button>
      </div>
    </section>
  );
}
