/** The length penalty's fields: the component it wraps, the length allowed, and the penalty past it. */
import type { LengthPenaltyVerifier } from "../../../core/index.ts";
import { ChoiceField, NumberField } from "./LabelledFields.tsx";
import {
  EDITOR_TEXT,
  LENGTH_UNIT_CHOICES,
  wrapsChoices,
  type KindFieldsProps,
} from "./verifierEditorModel.ts";
import styles from "./Verifiers.module.css";

export default function LengthPenaltyFields({
  verifier: v,
  wrapChoices,
  onChange,
}: KindFieldsProps<LengthPenaltyVerifier> & { readonly wrapChoices: readonly string[] }) {
  const text = EDITOR_TEXT["length-penalty"];
  return (
    <div className={styles.row}>
      <ChoiceField
        {...text.wraps}
        value={v.wraps}
        choices={wrapsChoices(v.wraps, wrapChoices)}
        testId="verifiers.wraps"
        onChoice={(wraps) => onChange({ ...v, wraps })}
      />
      <NumberField
        {...text.target}
        value={v.target}
        testId="verifiers.target"
        min={0}
        onValue={(target) => onChange({ ...v, target })}
      />
      <NumberField
        {...text.perUnit}
        value={v.penaltyPerUnit}
        testId="verifiers.per-unit"
        min={0}
        step={0.001}
        onValue={(penaltyPerUnit) => onChange({ ...v, penaltyPerUnit })}
      />
      <ChoiceField
        {...text.unit}
        value={v.unit}
        choices={LENGTH_UNIT_CHOICES}
        testId="verifiers.unit"
        onChoice={(unit) => onChange({ ...v, unit })}
      />
    </div>
  );
}
