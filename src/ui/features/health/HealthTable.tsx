/**
 * The run view's table: one row per step with the numbers the charts draw. Each row carries the
 * raw numbers in data attributes (`health-row`: data-step, data-groups, data-rollouts,
 * data-pass-rate, data-mean-reward, data-zero-std-share, data-mixed-share, data-mean-chars,
 * data-mean-tool-calls, data-clusters-per-group; String(number), "" when undefined), the keys of
 * `rollout-studio health --json`, so a spec can read them. The step's button filters the group
 * browser to it.
 */
import { HEALTH_COLUMNS, type HealthRow } from "./healthModel.ts";
import styles from "./Health.module.css";

export default function HealthTable({
  rows,
  onStep,
}: {
  rows: readonly HealthRow[];
  onStep: (step: number) => void;
}) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} data-testid="health-table">
        <thead>
          <tr>
            <th scope="col">step</th>
            {HEALTH_COLUMNS.map((c) => (
              <th key={c.label} scope="col" title={c.title}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.step ?? "none"} data-testid="health-row" {...r.data}>
              <th scope="row">
                {r.step === null ? (
                  <span title="Groups without a step">none</span>
                ) : (
                  <button
                    type="button"
                    className={styles.stepButton}
                    title={`Show the groups of step ${r.step}`}
                    data-testid="health-row-step"
                    onClick={() => onStep(r.step!)}
                  >
                    {r.step}
                  </button>
                )}
              </th>
              {r.cells.map((cell, i) => (
                <td key={HEALTH_COLUMNS[i]!.label} title={r.titles[i]}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
