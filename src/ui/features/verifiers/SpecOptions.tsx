/**
 * The draft's global options: which text of a transcript the verifiers read, what becomes of the
 * logged reward, and (while the draft is the applied spec) the rule in force and why.
 */
import { useId } from "react";
import { COMPLETION_RULES, LOGGED_REWARD_RULES, type VerifierSpec } from "../../../core/index.ts";
import styles from "./Verifiers.module.css";
import { LOGGED_REWARD_LABELS } from "./verifiersPanelModel.ts";

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
  const textId = useId();
  const loggedId = useId();
  return (
    <div className={styles.row}>
      <div className={styles.field}>
        <label htmlFor={textId} title="which text of a chat transcript the verifiers read">
          Text read
        </label>
        <select
          id={textId}
          value={draft.text}
          data-testid="verifiers.text"
          onChange={(e) =>
            onChange({
              ...draft,
              text: COMPLETION_RULES.find((r) => r === e.currentTarget.value) ?? draft.text,
            })
          }
        >
          {COMPLETION_RULES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.field}>
        <label htmlFor={loggedId}>Logged reward</label>
        <select
          id={loggedId}
          value={draft.loggedReward}
          data-testid="verifiers.logged"
          onChange={(e) =>
            onChange({
              ...draft,
              loggedReward:
                LOGGED_REWARD_RULES.find((r) => r === e.currentTarget.value) ?? draft.loggedReward,
            })
          }
        >
          {LOGGED_REWARD_RULES.map((r) => (
            <option key={r} value={r}>
              {LOGGED_REWARD_LABELS[r]}
            </option>
          ))}
        </select>
      </div>
      {rule !== null ? (
        <p className={styles.muted} data-testid="verifiers.rule">
          {rule}
        </p>
      ) : null}
    </div>
  );
}
