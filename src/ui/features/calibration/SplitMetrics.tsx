/** One split's confusion matrix and its metrics, each with its bootstrap interval and formula. */
import type { SplitTable } from "./prepareCalibration.ts";
import styles from "./Calibration.module.css";

export default function SplitMetrics({
  table,
  confusionTitle,
}: {
  table: SplitTable;
  confusionTitle: string;
}) {
  const t = table;
  return (
    <section
      className={styles.card}
      aria-label={`${t.split} split`}
      data-testid={`calibration.metrics.${t.split}`}
      data-n={t.n}
    >
      <h4 className={styles.subtitle}>
        {t.split} ({t.n} row{t.n === 1 ? "" : "s"})
      </h4>
      {t.smallN === "" ? null : (
        <p className={styles.note} role="note" data-testid={`calibration.small-n.${t.split}`}>
          {t.smallN}
        </p>
      )}
      <table
        className={`${styles.table} ${styles.confusion}`}
        title={confusionTitle}
        data-testid={`calibration.confusion.${t.split}`}
        data-tp={t.tp}
        data-tn={t.tn}
        data-fp={t.fp}
        data-fn={t.fn}
      >
        <thead>
          <tr>
            <th scope="col">judge \ human</th>
            <th scope="col">pass</th>
            <th scope="col">fail</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">pass</th>
            <td>{t.tp}</td>
            <td>{t.fp}</td>
          </tr>
          <tr>
            <th scope="row">fail</th>
            <td>{t.fn}</td>
            <td>{t.tn}</td>
          </tr>
        </tbody>
      </table>
      <table className={styles.table}>
        <tbody>
          {t.cells.map((c) => (
            <tr key={c.name}>
              <th scope="row" title={c.title}>
                {c.label}
              </th>
              <td
                title={c.title}
                data-testid={`calibration.metric.${t.split}.${c.name}`}
                data-value={c.value}
                data-lower={c.lower}
                data-upper={c.upper}
                data-method={c.method}
              >
                {c.text}
                {c.dropped === "" ? null : (
                  <span className={styles.dropped} data-testid="calibration.dropped">
                    {c.dropped}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
