/**
 * The judge verifier's fields: whose verdicts (the judge mode), which stored run, the reward a pass
 * needs first, and for the rubric judge the score a pass needs; a note when no run of the mode exists.
 */
import type { JudgeRunInfo, JudgeVerifier } from "../../../core/index.ts";
import { ChoiceField, NumberField } from "./LabelledFields.tsx";
import { verifierJudgeRunChoices } from "./prepareVerifiers.ts";
import {
  EDITOR_TEXT,
  JUDGE_MODE_CHOICES,
  judgeRunMissing,
  withJudgeMode,
  withJudgeRun,
  type KindFieldsProps,
} from "./verifierEditorModel.ts";
import styles from "./Verifiers.module.css";

export default function JudgeFields({
  verifier: v,
  judgeRuns,
  onChange,
}: KindFieldsProps<JudgeVerifier> & { readonly judgeRuns: readonly JudgeRunInfo[] }) {
  const text = EDITOR_TEXT.judge;
  const missing = judgeRunMissing(judgeRuns, v.mode);
  return (
    <>
      <div className={styles.row}>
        <ChoiceField
          {...text.mode}
          value={v.mode}
          choices={JUDGE_MODE_CHOICES}
          testId="verifiers.judge-mode"
          onChoice={(mode) => onChange(withJudgeMode(v, mode))}
        />
        <ChoiceField
          {...text.run}
          value={v.run ?? ""}
          choices={verifierJudgeRunChoices(judgeRuns, v.mode, v.run)}
          testId="verifiers.judge-run"
          onChoice={(run) => onChange(withJudgeRun(v, run))}
        />
        <NumberField
          {...text.threshold}
          value={v.passThreshold}
          testId="verifiers.judge-threshold"
          step={0.1}
          onValue={(passThreshold) => onChange({ ...v, passThreshold })}
        />
        {v.mode === "rubric" ? (
          <NumberField
            {...text.rubricScore}
            value={v.rubricPassScore}
            testId="verifiers.judge-score"
            min={0}
            max={1}
            step={0.05}
            onValue={(rubricPassScore) => onChange({ ...v, rubricPassScore })}
          />
        ) : null}
      </div>
      {missing !== null ? (
        <p className={styles.problem} role="alert" data-testid="verifiers.judge-missing">
          {missing}
        </p>
      ) : null}
    </>
  );
}
