/**
 * The labelled inputs of the Verifiers panel and its verifier editor: a label tied to its control
 * (text, number, checkbox, select, or a metadata path with the loaded fields offered).
 */
import { useId, type ReactNode } from "react";
import { choicePicked, numberEntry, type Choice, type FieldText } from "./verifierEditorModel.ts";
import styles from "./Verifiers.module.css";

/** A label over the control `children` renders with the id the label points at. */
export function Field({
  label,
  hint,
  children,
}: FieldText & { readonly children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} title={hint}>
        {label}
      </label>
      {children(id)}
    </div>
  );
}

export interface TextFieldProps extends FieldText {
  readonly value: string;
  readonly testId: string;
  readonly className?: string;
  readonly placeholder?: string;
  readonly spellCheck?: boolean;
  readonly disabled?: boolean;
  readonly onText: (text: string) => void;
}

/** A labelled text input. */
export function TextField({
  label,
  hint,
  value,
  testId,
  className,
  placeholder,
  spellCheck,
  disabled,
  onText,
}: TextFieldProps) {
  return (
    <Field label={label} hint={hint}>
      {(id) => (
        <input
          id={id}
          className={className}
          value={value}
          placeholder={placeholder}
          spellCheck={spellCheck}
          disabled={disabled}
          data-testid={testId}
          onChange={(e) => onText(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}

export interface NumberFieldProps extends FieldText {
  readonly value: number;
  readonly testId: string;
  readonly onValue: (value: number) => void;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
}

/**
 * A labelled number input; an empty or invalid entry reads as NaN (the spec's checks say so).
 * Uncontrolled: the panel remounts it when the draft is replaced.
 */
export function NumberField({
  label,
  hint,
  value,
  testId,
  onValue,
  min,
  max,
  step,
}: NumberFieldProps) {
  return (
    <Field label={label} hint={hint}>
      {(id) => (
        <input
          id={id}
          className={styles.number}
          type="number"
          min={min}
          max={max}
          step={step}
          defaultValue={value}
          data-testid={testId}
          onChange={(e) => onValue(numberEntry(e.currentTarget.valueAsNumber))}
        />
      )}
    </Field>
  );
}

/** A checkbox inside its label. */
export function CheckField({
  label,
  hint,
  checked,
  testId,
  onCheck,
}: FieldText & {
  readonly checked: boolean;
  readonly testId: string;
  readonly onCheck: (checked: boolean) => void;
}) {
  return (
    <label className={styles.check} title={hint}>
      <input
        type="checkbox"
        checked={checked}
        data-testid={testId}
        onChange={(e) => onCheck(e.currentTarget.checked)}
      />
      {label}
    </label>
  );
}

export interface ChoiceFieldProps<T extends string> extends FieldText {
  readonly value: T;
  /** The options, in order; `value` should be one of them. */
  readonly choices: readonly Choice<T>[];
  readonly testId: string;
  /** Called with the picked option's value (typed, so no cast or fallback is needed). */
  readonly onChoice: (value: T) => void;
}

/** A labelled select of fixed options (`choicesOf` makes them from a list of values). */
export function ChoiceField<T extends string>({
  label,
  hint,
  value,
  choices,
  testId,
  onChoice,
}: ChoiceFieldProps<T>) {
  return (
    <Field label={label} hint={hint}>
      {(id) => (
        <select
          id={id}
          value={value}
          data-testid={testId}
          onChange={(e) => {
            const picked = choicePicked(choices, e.currentTarget.value);
            if (picked !== null) onChoice(picked);
          }}
        >
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A labelled metadata path, with the loaded rollouts' fields offered as suggestions. */
export function FieldPathField({
  label,
  hint,
  value,
  fields,
  testId,
  onPath,
}: FieldText & {
  readonly value: string;
  readonly fields: readonly string[];
  readonly testId: string;
  readonly onPath: (path: string) => void;
}) {
  const listId = useId();
  return (
    <Field label={label} hint={hint}>
      {(id) => (
        <>
          <input
            id={id}
            className={styles.text}
            list={listId}
            value={value}
            placeholder="e.g. answer, reward_model.ground_truth"
            data-testid={testId}
            onChange={(e) => onPath(e.currentTarget.value)}
          />
          <datalist id={listId}>
            {fields.map((f) => (
              <option key={f} value={f} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}
