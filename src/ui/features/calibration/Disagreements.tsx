/**
 * Where the source and the person disagree. Clicking one opens its group and shows the rollout;
 * the walker (fixed to the window's corner while a walk is on) steps to the previous or next one
 * from anywhere on the page.
 */
import type { DisagreementView } from "./prepareCalibration.ts";
import styles from "./Calibration.module.css";

function Verdict({ value }: { value: string }) {
  return <span className={value === "pass" ? styles.pass : styles.fail}>{value}</span>;
}

export function DisagreementList({
  items,
  current,
  sealed,
  onOpen,
}: {
  items: readonly DisagreementView[];
  current: number | null;
  sealed: boolean;
  onOpen: (index: number) => void;
}) {
  return (
    <section className={styles.section} aria-label="Disagreements">
      <h4 className={styles.subtitle}>
        Disagreements ({items.length}
        {sealed ? ", test split sealed" : ""})
      </h4>
      {items.length === 0 ? (
        <p className={styles.muted}>None: the source agrees with every label it was compared on.</p>
      ) : (
        <ol className={`${styles.list} ${styles.scroll}`} data-testid="calibration.disagreements">
          {items.map((d, i) => (
            <li key={d.key}>
              <button
                type="button"
                className={styles.item}
                aria-current={current === i ? "true" : undefined}
                data-testid="calibration.disagreement"
                data-group-id={d.groupId}
                data-rollout-id={d.rolloutId}
                data-split={d.split}
                onClick={() => onOpen(i)}
              >
                <span>{d.groupId}</span>
                <span>{d.rolloutId}</span>
                <span>
                  human <Verdict value={d.human} />
                </span>
                <span>
                  judge <Verdict value={d.judge} />
                </span>
                <span className={styles.muted}>{d.split}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function DisagreementWalker({
  item,
  index,
  total,
  note,
  onStep,
  onClose,
}: {
  item: DisagreementView;
  index: number;
  total: number;
  /** Whether the rollout could be shown. */
  note: string;
  onStep: (delta: -1 | 1) => void;
  onClose: () => void;
}) {
  return (
    <div
      className={styles.walker}
      role="region"
      aria-label="Disagreement"
      data-testid="calibration.walk"
    >
      <span data-testid="calibration.walk.position">
        {index + 1} of {total}
      </span>
      <span
        data-testid="calibration.walk.item"
        data-group-id={item.groupId}
        data-rollout-id={item.rolloutId}
      >
        {item.groupId} · {item.rolloutId} · human <Verdict value={item.human} /> · judge{" "}
        <Verdict value={item.judge} /> · {item.split}
      </span>
      <button
        type="button"
        className={styles.button}
        data-testid="calibration.walk.prev"
        disabled={index <= 0}
        onClick={() => onStep(-1)}
      >
        Previous
      </button>
      <button
        type="button"
        className={styles.button}
        data-testid="calibration.walk.next"
        disabled={index >= total - 1}
        onClick={() => onStep(1)}
      >
        Next
      </button>
      <button
        type="button"
        className={styles.button}
        data-testid="calibration.walk.close"
        onClick={onClose}
      >
        Close
      </button>
      {note === "" ? null : (
        <span className={styles.muted} data-testid="calibration.walk.note">
          {note}
        </span>
      )}
    </div>
  );
}
