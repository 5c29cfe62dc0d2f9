/**
 * One verifier of the draft spec: its name, on/off, weight, and the kind's own settings (the
 * format gate's pattern and preset, exact match's ground-truth field, extraction and normalisation,
 * the JSON schema inline or from a field, what a length penalty wraps and how, the judge run a
 * judge verifier reads). Every change goes to `onChange`; nothing is applied until the panel's Apply.
 * Each kind's fields are their own component (FormatFields ... JudgeFields); the labels, choices
 * and what each change makes are in ./verifierEditorModel.ts.
 */
import type { JudgeRunInfo, Verifier, VerifierProblem } from "../../../core/index.ts";
import ExactMatchFields from "./ExactMatchFields.tsx";
import FormatFields from "./FormatFields.tsx";
import JsonSchemaFields from "./JsonSchemaFields.tsx";
import JudgeFields from "./JudgeFields.tsx";
import LengthPenaltyFields from "./LengthPenaltyFields.tsx";
import { CheckField, NumberField, TextField } from "./LabelledFields.tsx";
import { EDITOR_TEXT, verifierLegend, verifierProblemLine } from "./verifierEditorModel.ts";
import styles from "./Verifiers.module.css";

export interface VerifierEditorProps {
  readonly verifier: Verifier;
  readonly index: number;
  /** Metadata paths of the loaded rollouts, offered for fields. */
  readonly fields: readonly string[];
  /** What a length penalty may wrap. */
  readonly wrapChoices: readonly string[];
  /** The annotations' judge runs, which a judge verifier picks from. */
  readonly judgeRuns: readonly JudgeRunInfo[];
  readonly problems: readonly VerifierProblem[];
  readonly onChange: (next: Verifier) => void;
  readonly onRemove: () => void;
}

/** The settings of the verifier's own kind. */
function KindFields({
  verifier: v,
  fields,
  wrapChoices,
  judgeRuns,
  onChange,
}: Omit<VerifierEditorProps, "index" | "problems" | "onRemove">) {
  switch (v.kind) {
    case "format":
      return <FormatFields verifier={v} onChange={onChange} />;
    case "exact-match":
      return <ExactMatchFields verifier={v} fields={fields} onChange={onChange} />;
    case "json-schema":
      return <JsonSchemaFields verifier={v} fields={fields} onChange={onChange} />;
    case "length-penalty":
      return <LengthPenaltyFields verifier={v} wrapChoices={wrapChoices} onChange={onChange} />;
    case "judge":
      return <JudgeFields verifier={v} judgeRuns={judgeRuns} onChange={onChange} />;
  }
}

export default function VerifierEditor({
  verifier: v,
  index,
  fields,
  wrapChoices,
  judgeRuns,
  problems,
  onChange,
  onRemove,
}: VerifierEditorProps) {
  const text = EDITOR_TEXT.common;
  return (
    <fieldset
      className={styles.item}
      data-testid="verifiers.item"
      data-name={v.name}
      data-kind={v.kind}
    >
      <legend>{verifierLegend(index, v.kind)}</legend>
      <div className={styles.row}>
        <TextField
          {...text.name}
          className={styles.text}
          value={v.name}
          testId="verifiers.name"
          onText={(name) => onChange({ ...v, name })}
        />
        <CheckField
          label="on"
          checked={v.enabled}
          testId="verifiers.enabled"
          onCheck={(enabled) => onChange({ ...v, enabled })}
        />
        <NumberField
          {...text.weight}
          value={v.weight}
          testId="verifiers.weight"
          step={0.1}
          onValue={(weight) => onChange({ ...v, weight })}
        />
        <button
          type="button"
          className={styles.button}
          data-testid="verifiers.remove"
          onClick={onRemove}
        >
          Remove
        </button>
      </div>

      <KindFields
        verifier={v}
        fields={fields}
        wrapChoices={wrapChoices}
        judgeRuns={judgeRuns}
        onChange={onChange}
      />

      {problems.length > 0 ? (
        <ul className={styles.problems} data-testid="verifiers.item-problems">
          {problems.map((p, i) => (
            <li key={i}>{verifierProblemLine(p)}</li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
