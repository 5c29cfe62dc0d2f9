/**
 * The task's human labels made under an older rubric version (or before the first one): each with
 * the version it was made under, and a way to record that it was re-checked under the current one.
 */
import type { HumanLabel, RubricStaleLabel } from "../../../core/index.ts";
import styles from "./Rubrics.module.css";

export function StaleLabels({
  stale,
  labels,
  current,
  onConfirm,
}: {
  stale: readonly RubricStaleLabel[];
  labels: Readonly<Record<string, HumanLabel>>;
  /** The current rubric version, or null when the task has no rubric. */
  current: number | null;
  onConfirm: (rolloutIds: readonly string[]) => void;
}) {
  if (current === null) return null;
  return (
    <section className={styles.section} data-testid="rubric.stale" data-count={stale.length}>
      <h4 className={styles.title}>Labels made under an older rubric</h4>
      {stale.length === 0 ? (
        <p className={styles.muted}>Every label of this task was made under v{current}.</p>
      ) : (
        <>
          <p className={styles.muted}>
            {stale.length} {stale.length === 1 ? "label was" : "labels were"} made before v{current}
            . Check them against the current criteria, relabel in the Rollouts tab or mark them
            re-checked.
          </p>
          <ul className={styles.list}>
            {stale.map((s) => (
              <li
                key={s.rolloutId}
                className={styles.line}
                data-testid="rubric.stale.item"
                data-rollout-id={s.rolloutId}
                data-version={s.version ?? ""}
              >
                <span>
                  <code>{s.rolloutId}</code> labelled <b>{labels[s.rolloutId] ?? "?"}</b>{" "}
                  {s.version === null ? "before any rubric" : `under v${s.version}`}
                  <span className={styles.staleTag}>stale</span>
                </span>
                <button
                  type="button"
                  className={styles.small}
                  data-testid="rubric.stale.confirm"
                  onClick={() => onConfirm([s.rolloutId])}
                >
                  Re-checked under v{current}
                </button>
              </li>
            ))}
          </ul>
          {stale.length > 1 ? (
            <div>
              <button
                type="button"
                className={styles.button}
                data-testid="rubric.stale.confirm-all"
                onClick={() => onConfirm(stale.map((s) => s.rolloutId))}
              >
                Mark all {stale.length} re-checked
              </button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
