/** The format gate's fields: the pattern searched in the text, its flags, and the library's preset. */
import type { FormatGateVerifier } from "../../../core/index.ts";
import { TextField } from "./LabelledFields.tsx";
import {
  EDITOR_TEXT,
  FORMAT_PRESET_TITLE,
  withFormatPreset,
  type KindFieldsProps,
} from "./verifierEditorModel.ts";
import styles from "./Verifiers.module.css";

export default function FormatFields({
  verifier: v,
  onChange,
}: KindFieldsProps<FormatGateVerifier>) {
  const text = EDITOR_TEXT.format;
  return (
    <div className={styles.row}>
      <TextField
        {...text.pattern}
        className={`${styles.text} ${styles.wide}`}
        value={v.pattern}
        spellCheck={false}
        testId="verifiers.pattern"
        onText={(pattern) => onChange({ ...v, pattern })}
      />
      <TextField
        {...text.flags}
        className={styles.flags}
        value={v.flags}
        testId="verifiers.flags"
        onText={(flags) => onChange({ ...v, flags })}
      />
      <button
        type="button"
        className={styles.button}
        data-testid="verifiers.preset"
        title={FORMAT_PRESET_TITLE}
        onClick={() => onChange(withFormatPreset(v))}
      >
        &lt;reasoning&gt;…&lt;answer&gt; preset
      </button>
    </div>
  );
}
