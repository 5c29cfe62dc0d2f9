/** The Rogan-Gladen corrected pass rate: the judge's observed rate corrected with dev's TPR and TNR. */
import type { CorrectedView } from "./prepareCalibration.ts";
import styles from "./Calibration.module.css";

export default function CorrectedRate({
  view,
  titles,
}: {
  view: CorrectedView;
  titles: {
    readonly observed: string;
    readonly corrected: string;
    readonly interval: string;
    readonly wilson: string;
  };
}) {
  return (
    <section className={styles.section} aria-label="Corrected pass rate">
      <h4 className={styles.subtitle}>Corrected pass rate</h4>
      <div className={styles.row}>
        <span title={titles.observed}>
          Observed <b data-testid="calibration.observed">{view.observed}</b>
        </span>
        <span
          title={`${titles.corrected}\n${view.method === "wilson" ? titles.wilson : titles.interval}`}
          data-testid="calibration.corrected"
          data-value={view.correctedValue}
          data-lower={view.lowerValue}
          data-upper={view.upperValue}
          data-method={view.method}
        >
          Rogan-Gladen <b>{view.corrected}</b> {view.interval}
        </span>
      </div>
      {view.smallN === "" ? null : (
        <p className={styles.note} role="note" data-testid="calibration.small-n.corrected">
          dev {view.smallN}
        </p>
      )}
      {view.note === "" ? null : <p className={styles.note}>{view.note}</p>}
      {view.dropped === "" ? null : (
        <p className={styles.note} data-testid="calibration.corrected.dropped">
          {view.dropped}
        </p>
      )}
    </section>
  );
}
