/**
 * A rollout's pass or fail and its human label, as one chip: the reward's verdict alone when there
 * is no label; one chip with "· human agrees" when the label says the same; and a warning chip
 * "reward: pass · human: fail" when they disagree, so a verifier or a threshold that turned a
 * labelled fail into a pass shows at a glance (a deferred label is shown beside the verdict).
 * A rollout without a reward (an agent trajectory no evaluation report scored) is "unscored",
 * never shown as a fail. Self-contained (its own styles) so the column header can place it anywhere.
 */
import { memo } from "react";
import styles from "./PassChip.module.css";

export type PassLabelAgreement = "none" | "agrees" | "disagrees" | "deferred";

/** How the reward's verdict and the human label ("pass", "fail", "defer") relate. */
export function passLabelAgreement(passed: boolean, label: string | null): PassLabelAgreement {
  if (label === "pass" || label === "fail")
    return (label === "pass") === passed ? "agrees" : "disagrees";
  return label === "defer" ? "deferred" : "none";
}

const PassChip = memo(function PassChip({
  passed,
  scored = true,
  label,
  hint,
}: {
  passed: boolean;
  /** False for a rollout with no reward: shown as unscored. */
  scored?: boolean;
  label: string | null;
  /** The pass rule's tooltip (the threshold and the reward). */
  hint: string;
}) {
  if (!scored)
    return (
      <span
        className={styles.unscored}
        data-testid="column.pass"
        data-verdict="unscored"
        data-human={label ?? undefined}
        title={`No reward: the data gives none (for an agent trajectory, no evaluation report scored it), so it is unscored, not 0.${label === null ? "" : ` Your label: ${label}.`}`}
      >
        unscored
        {label === null ? null : <span className={styles.human}> · human: {label}</span>}
      </span>
    );
  const verdict = passed ? "pass" : "fail";
  const agreement = passLabelAgreement(passed, label);
  if (agreement === "disagrees")
    return (
      <span
        className={styles.disagree}
        data-testid="column.pass"
        data-verdict={verdict}
        data-human={label ?? undefined}
        data-agreement={agreement}
        title={`The reward says ${verdict}; your label says ${label ?? ""}. ${hint}`}
      >
        reward: {verdict} · human: {label}
      </span>
    );
  return (
    <span
      className={passed ? styles.pass : styles.fail}
      data-testid="column.pass"
      data-verdict={verdict}
      data-human={label ?? undefined}
      data-agreement={agreement}
      title={
        agreement === "agrees"
          ? `${hint}. Your label agrees: ${verdict}.`
          : agreement === "deferred"
            ? `${hint}. Your label: deferred.`
            : hint
      }
    >
      {verdict}
      {agreement === "agrees" ? <span className={styles.human}> · human agrees</span> : null}
      {agreement === "deferred" ? <span className={styles.human}> · human deferred</span> : null}
    </span>
  );
});

export default PassChip;
