/** The two sides of the comparison: the human source (with its counts) and the source to calibrate. */
import { useId } from "react";
import type { CalibrationCounts, CalibrationHuman } from "../../../core/index.ts";
import type { SourceChoice } from "./prepareCalibration.ts";
import styles from "./Calibration.module.css";

export default function SourcePicker({
  human,
  humans,
  humanValue,
  onHuman,
  counts,
  unparsed,
  choices,
  value,
  onChange,
}: {
  human: CalibrationHuman;
  /** Team mode, for a lead: the gold and each person's labels (empty otherwise). */
  humans: readonly { readonly value: string; readonly label: string }[];
  humanValue: string;
  onHuman: (value: string) => void;
  counts: CalibrationCounts;
  /** Groups of an indexed file not parsed yet. */
  unparsed: number;
  choices: readonly SourceChoice[];
  value: string;
  onChange: (value: string) => void;
}) {
  const humanId = useId();
  const judgeId = useId();
  const chosen = choices.find((c) => c.value === value);
  return (
    <div className={styles.section}>
      <div className={styles.row}>
        <label className={styles.field} htmlFor={humanId}>
          Human source
          {/* The page's own labels; in team mode a lead also has the gold and each person's. */}
          <select
            id={humanId}
            data-testid="calibration.human"
            value={humanValue}
            onChange={(e) => onHuman(e.currentTarget.value)}
          >
            <option value="annotations">{humans.length === 0 ? human.label : "your labels"}</option>
            {humans.map((h) => (
              <option key={h.value} value={h.value}>
                {h.label}
              </option>
            ))}
          </select>
        </label>
        <span className={styles.muted} data-testid="calibration.human.counts">
          {human.counts.pass} pass, {human.counts.fail} fail ({human.counts.defer} defer excluded)
        </span>
      </div>
      <div className={styles.row}>
        <label className={styles.field} htmlFor={judgeId}>
          Judge source
          <select
            id={judgeId}
            data-testid="calibration.judge"
            value={value}
            onChange={(e) => onChange(e.currentTarget.value)}
          >
            {chosen === undefined ? (
              <option value="" disabled>
                Choose a judge source…
              </option>
            ) : null}
            {choices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.source.label}
                {c.hasVerdicts ? "" : " (no pass/fail verdicts)"}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className={styles.muted} data-testid="calibration.counts">
        {counts.rows} labelled rollout(s) with a verdict from this source; {counts.unjudged}{" "}
        labelled but not judged by it
        {counts.notLoaded > 0 ? `; ${counts.notLoaded} label(s) on rollouts not loaded` : ""}
        {unparsed > 0 ? ` (${unparsed} group(s) of this indexed file not parsed yet)` : ""}.
      </p>
      {chosen !== undefined && !chosen.hasVerdicts ? (
        <p className={styles.warning}>
          A clustering run gives no pass/fail verdicts: pick a grader, pairwise or rubric run.
        </p>
      ) : null}
    </div>
  );
}
