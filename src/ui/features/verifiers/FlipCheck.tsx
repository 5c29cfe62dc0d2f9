/**
 * Who a spec makes pass differently, shown before it is applied (pending: Apply anyway or go back)
 * and kept in view after.
 */
import type { FlipView } from "./prepareVerifiers.ts";
import styles from "./Verifiers.module.css";

export default function FlipCheck({
  view,
  pending,
  onConfirm,
  onCancel,
}: {
  view: FlipView;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <section
      className={view.none ? styles.flipsNone : styles.flips}
      data-testid="verifiers.flips"
      data-state={pending ? "pending" : "applied"}
      data-count={view.rows.length}
      aria-label="Who passes differently"
      role={pending ? "alertdialog" : "status"}
    >
      <p className={styles.flipsHeadline} data-testid="verifiers.flips.summary">
        {view.headline}
        {!pending && !view.none ? " Applied." : ""}
      </p>
      <p className={styles.muted} data-testid="verifiers.flips.rule">
        {view.rule}
      </p>
      {view.againstLabels > 0 ? (
        <p className={styles.flipsWarn} data-testid="verifiers.flips.labels">
          {view.againstLabels} of them go against your pass/fail label.
        </p>
      ) : null}
      {pending ? (
        <div className={styles.row}>
          <button
            type="button"
            className={`${styles.button} ${styles.primary}`}
            data-testid="verifiers.flips.confirm"
            onClick={onConfirm}
          >
            Apply anyway ({view.rows.length} change{view.rows.length === 1 ? "" : "s"} pass/fail)
          </button>
          <button
            type="button"
            className={styles.button}
            data-testid="verifiers.flips.cancel"
            onClick={onCancel}
          >
            Back to editing
          </button>
        </div>
      ) : null}
      {view.groups.length > 0 ? (
        <div
          className={styles.flipsScroll}
          role="region"
          aria-label="Passes per group"
          // A scrolling region must be reachable from the keyboard.
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={0}
        >
          <table className={styles.table}>
            <caption>Passes per group, before → after</caption>
            <thead>
              <tr>
                <th scope="col">group</th>
                <th scope="col">passes</th>
                <th scope="col">your ranking</th>
              </tr>
            </thead>
            <tbody>
              {view.groups.map((g) => (
                <tr key={g.id} data-testid="verifiers.flips.group" data-group-id={g.id}>
                  <th scope="row">{g.id}</th>
                  <td data-testid="verifiers.flips.passes">{g.passes}</td>
                  <td className={styles.note}>{g.ranking}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {view.rows.length > 0 ? (
        <details open={view.rows.length <= 12}>
          <summary>Each rollout, and why</summary>
          <ul className={styles.flipList}>
            {view.rows.map((r) => (
              <li
                key={r.id}
                data-testid="verifiers.flips.row"
                data-rollout-id={r.id}
                data-direction={r.direction}
                data-against-label={r.againstLabel ? "true" : undefined}
              >
                <strong>{r.id}</strong> {r.change}: {r.why}
                {r.label !== null ? (
                  <span className={r.againstLabel ? styles.flipsWarn : styles.muted}>
                    {" "}
                    (your label: {r.label})
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
