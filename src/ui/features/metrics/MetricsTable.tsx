/** Every per-rollout statistic of one group; each header says how it is computed and sorts. */
import ClusterChip from "../../components/ClusterChip.tsx";
import type { MetricSort, MetricsTableModel, MetricColumnId } from "./prepareMetricsTable.ts";
import styles from "./Metrics.module.css";

export default function MetricsTable({
  model,
  sort,
  onSort,
  clustersPending,
  rowLimit = Infinity,
  onShowAll,
}: {
  model: MetricsTableModel;
  sort: MetricSort;
  onSort: (column: MetricColumnId) => void;
  clustersPending: boolean;
  /** Rows shown (in the sort's order); the rest behind a "Show all" button. */
  rowLimit?: number;
  onShowAll?: () => void;
}) {
  const hidden = model.rows.length - Math.min(rowLimit, model.rows.length);
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} data-testid="metrics.table">
        <thead>
          <tr>
            <th scope="col">Rollout</th>
            {model.columns.map((c) => {
              const active = sort.column === c.id;
              return (
                <th
                  key={c.id}
                  scope="col"
                  title={c.how}
                  aria-sort={active ? (sort.descending ? "descending" : "ascending") : "none"}
                >
                  <button
                    type="button"
                    className={styles.sortButton}
                    data-testid={`metrics.sort.${c.id}`}
                    onClick={() => onSort(c.id)}
                  >
                    {c.label}
                    <span aria-hidden="true">{active ? (sort.descending ? " ▾" : " ▴") : ""}</span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {(rowLimit < model.rows.length ? model.rows.slice(0, rowLimit) : model.rows).map(
            (row) => (
              <tr key={row.id} data-testid="metrics.row" data-rollout-id={row.id}>
                <th scope="row">{row.id}</th>
                {model.columns.map((c) => (
                  <td key={c.id} data-testid={`metrics.cell.${c.id}`}>
                    {c.id === "cluster" ? (
                      <ClusterChip
                        cluster={row.cluster}
                        size={row.clusterSize}
                        pending={clustersPending}
                      />
                    ) : (
                      row.cells[c.id].text
                    )}
                  </td>
                ))}
              </tr>
            ),
          )}
        </tbody>
      </table>
      {hidden > 0 ? (
        <p className={styles.note} data-testid="metrics.rows-hidden">
          The first {model.rows.length - hidden} of {model.rows.length} rollouts in this order (sort
          by a column to bring others up).{" "}
          {onShowAll === undefined ? null : (
            <button type="button" data-testid="metrics.show-all" onClick={onShowAll}>
              Show all {model.rows.length}
            </button>
          )}
        </p>
      ) : null}
    </div>
  );
}
