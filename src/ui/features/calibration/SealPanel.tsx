/**
 * The test split: sealed (its size only, and the one-time unseal behind a confirmation), or
 * unsealed (the log line, warnings about later runs, and the test metrics the parent passes in).
 */
import { useState, type ReactNode } from "react";
import type { SealView } from "./prepareCalibration.ts";
import UnsealDialog from "./UnsealDialog.tsx";
import styles from "./Calibration.module.css";

export default function SealPanel({
  seal,
  sourceLabel,
  promptVersion,
  canUnseal,
  onUnseal,
  children,
}: {
  seal: SealView;
  sourceLabel: string;
  promptVersion: string;
  /** False when the picked source gives no verdicts or the test split is empty. */
  canUnseal: boolean;
  onUnseal: () => void;
  /** The test metrics, shown once unsealed. */
  children: ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <section className={styles.section} aria-label="Test split" data-testid="calibration.test">
      <h4 className={styles.subtitle}>Test split</h4>
      {seal.sealed ? (
        <div className={styles.sealed} data-testid="calibration.sealed">
          <p>
            Sealed: <span data-testid="calibration.test-rows">{seal.testRows}</span> row(s). Its
            labels and metrics stay hidden until you unseal it, once, when the judge is final.
          </p>
          <button
            type="button"
            className={styles.danger}
            data-testid="calibration.unseal"
            disabled={!canUnseal}
            onClick={() => setConfirming(true)}
          >
            Unseal test split
          </button>
          {canUnseal ? null : (
            <p className={styles.muted}>
              Nothing to unseal yet: the test split needs rows this source judged.
            </p>
          )}
          {confirming ? (
            <UnsealDialog
              sourceLabel={sourceLabel}
              promptVersion={promptVersion}
              testRows={seal.testRows}
              onConfirm={onUnseal}
              onClose={() => setConfirming(false)}
            />
          ) : null}
        </div>
      ) : (
        <>
          <p data-testid="calibration.unsealed">{seal.unsealed}</p>
          {seal.otherSource === null ? null : (
            <p className={styles.warning} data-testid="calibration.other-source">
              {seal.otherSource}
            </p>
          )}
          {children}
        </>
      )}
      {seal.warnings.length > 0 ? (
        <ul className={`${styles.warnings} ${styles.warning}`}>
          {seal.warnings.map((w) => (
            <li key={w} data-testid="calibration.warning">
              {w}
            </li>
          ))}
        </ul>
      ) : null}
      {seal.log.length > 0 ? (
        <>
          <h5 className={styles.subtitle}>Log</h5>
          <ol className={styles.log} data-testid="calibration.log">
            {seal.log.map((e, i) => (
              <li key={`${i}:${e.at}`} data-testid="calibration.log.entry" data-event={e.event}>
                {e.at} · {e.event} · {e.message}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}
