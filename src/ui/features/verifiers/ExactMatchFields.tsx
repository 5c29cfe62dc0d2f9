/**
 * Exact match's fields: where the ground truth is, the answer pattern and its flags, and how the
 * answer and the truth are normalised before they are compared.
 */
import type { ExactMatchVerifier } from "../../../core/index.ts";
import { CheckField, FieldPathField, TextField } from "./LabelledFields.tsx";
import {
  EDITOR_TEXT,
  NORMALIZE_OPTIONS,
  withAnswerPattern,
  withNormalization,
  type KindFieldsProps,
} from "./verifierEditorModel.ts";
import styles from "./Verifiers.module.css";

export default function ExactMatchFields({
  verifier: v,
  fields,
  onChange,
}: KindFieldsProps<ExactMatchVerifier> & { readonly fields: readonly string[] }) {
  const text = EDITOR_TEXT["exact-match"];
  return (
    <>
      <div className={styles.row}>
        <FieldPathField
          {...text.field}
          value={v.field}
          fields={fields}
          testId="verifiers.field"
          onPath={(field) => onChange({ ...v, field })}
        />
        <TextField
          {...text.pattern}
          className={`${styles.text} ${styles.wide}`}
          value={v.pattern ?? ""}
          placeholder="<answer>(.*?)</answer>"
          spellCheck={false}
          testId="verifiers.pattern"
          onText={(pattern) => onChange(withAnswerPattern(v, pattern))}
        />
        <TextField
          {...text.flags}
          className={styles.flags}
          value={v.flags}
          disabled={v.pattern === null}
          testId="verifiers.flags"
          onText={(flags) => onChange({ ...v, flags })}
        />
      </div>
      <div className={styles.row} role="group" aria-label="Normalisation">
        {NORMALIZE_OPTIONS.map(({ key, label, hint }) => (
          <CheckField
            key={key}
            label={label}
            hint={hint}
            checked={v.normalize[key]}
            testId={`verifiers.normalize.${key}`}
            onCheck={(on) => onChange(withNormalization(v, key, on))}
          />
        ))}
      </div>
    </>
  );
}
