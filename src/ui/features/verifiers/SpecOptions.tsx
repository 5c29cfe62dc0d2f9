/**
 * The draft's global options: which text of a transcript the verifiers read, what becomes of the
 * logged reward, and (while the draft is the applied spec) the rule in force and why.
 */
import { COMPLETION_RULES, LOGGED_REWARD_RULES, type VerifierSpec } from "../../../core/index.ts";
import { ChoiceField } from "./LabelledFields.tsx";
import styles from "./Verifiers.module.css";
import { choicesOf } from "./verifierEditorModel.ts";
import { LOGGED_REWARD_LABELS } from "./verifiersPanelModel.ts";

const TEXT_CHOICES = choicesOf(COMPLETION_RULES);
const LOGGED_CHOICES = choicesOf(LOGGED_REWARD_RULES, (r) => LOGGED_REWARD_LABELS[r]);

export default function SpecOptions({
  draft,
  rule,
  onChange,
}: {
  draft: VerifierSpec;
  /** Why the logged-reward rule in force is what it is; null while the draft is not applied. */
  rule: string | null;
  onChange: (next: VerifierSpec) => void;
}) {
  return (
    <div className={styles.row}>
      <ChoiceField
        label="Text read"
        hint="which text of a chat transcript the verifiers read"
        value={draft.text}
        choices={TEXT_CHOICES}
        testId="verifiers.text"
        onChoice={(text) => onChange({ ...draft, text })}
      />
      <ChoiceField
        label="Logged reward"
        value={draft.loggedReward}
        choices={LOGGED_CHOICES}
        testId="verifiers.logged"
        onChoice={(loggedReward) => onChange({ ...draft, loggedReward })}
      />
      {rule !== null ? (
        <p className={styles.muted} data-testid="verifiers.rule">
          {rule}
        </p>
      ) : null}
    </div>
  );
}
