/**
 * A small line of one series across the prompt's steps, in inline SVG: the steps on x (to scale),
 * the value on y between the series' min and max (written beside it), the open group's step as a
 * larger dot, each point's step and value in its tooltip, and the whole series in the label a
 * screen reader reads.
 */
import type { LineageSeries } from "./lineageModel.ts";
import styles from "./Lineage.module.css";

const WIDTH = 200;
const HEIGHT = 40;
const PAD = 4;

export function Sparkline({
  series,
  currentStep,
}: {
  series: LineageSeries;
  /** The open group's step: its point is drawn larger. */
  currentStep: number | null;
}) {
  const { points } = series;
  const steps = points.map((p) => p.step);
  const values = points.map((p) => p.value);
  const x0 = Math.min(...steps);
  const x1 = Math.max(...steps);
  const y0 = Math.min(...values);
  const y1 = Math.max(...values);
  const x = (step: number): number =>
    x1 === x0 ? WIDTH / 2 : PAD + ((step - x0) / (x1 - x0)) * (WIDTH - 2 * PAD);
  const y = (value: number): number =>
    y1 === y0 ? HEIGHT / 2 : HEIGHT - PAD - ((value - y0) / (y1 - y0)) * (HEIGHT - 2 * PAD);
  const current = points.find((p) => p.step === currentStep);
  const label = `${series.label} by step: ${points
    .map((p) => `step ${p.step} ${series.format(p.value)}`)
    .join(", ")}`;
  return (
    <figure
      className={styles.spark}
      data-testid="lineage-sparkline"
      data-series={series.id}
      data-points={points.length}
    >
      <figcaption className={styles.sparkCaption}>
        <span>{series.label}</span>
        {current === undefined ? null : (
          <b title={`At step ${current.step}, the open group`}>{series.format(current.value)}</b>
        )}
      </figcaption>
      {points.length === 0 ? (
        <p className={styles.sparkEmpty}>no values yet</p>
      ) : (
        <>
          <svg
            className={styles.sparkSvg}
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            width={WIDTH}
            height={HEIGHT}
            role="img"
            aria-label={label}
          >
            <polyline
              className={styles.sparkLine}
              points={points.map((p) => `${x(p.step)},${y(p.value)}`).join(" ")}
            />
            {points.map((p) => (
              <circle
                key={p.step}
                className={p.step === currentStep ? styles.sparkCurrent : styles.sparkDot}
                cx={x(p.step)}
                cy={y(p.value)}
                r={p.step === currentStep ? 3.5 : 1.8}
              >
                <title>{`step ${p.step}: ${series.format(p.value)}`}</title>
              </circle>
            ))}
          </svg>
          <div className={styles.sparkAxis}>
            <span>step {x0}</span>
            <span>
              {series.format(y0)} to {series.format(y1)}
            </span>
            <span>step {x1}</span>
          </div>
        </>
      )}
    </figure>
  );
}
