/** Kendall tau and Spearman rho between the human and the source's rankings, per group (sortable) and overall. */
import type { CalibrationRankOverall } from "../../../core/index.ts";
import { fixed3, plainNumber } from "../../components/numbers.ts";
import type { RankRowView, RankSort, RankSortKey } from "./prepareCalibration.ts";
import styles from "./Calibration.module.css";

const COLUMNS: readonly { key: RankSortKey; label: string }[] = [
  { key: "group", label: "Group" },
  { key: "n", label: "Ranked by both" },
  { key: "tau", label: "Kendall τ" },
  { key: "rho", label: "Spearman ρ" },
];

export default function RankAgreement({
  rows,
  overall,
  sort,
  onSort,
  titles,
}: {
  rows: readonly RankRowView[];
  overall: CalibrationRankOverall;
  sort: RankSort;
  onSort: (key: RankSortKey) => void;
  titles: { readonly tau: string; readonly rho: string; readonly overall: string };
}) {
  const titleOf = (key: RankSortKey): string | undefined =>
    key === "tau" ? titles.tau : key === "rho" ? titles.rho : undefined;
  return (
    <section className={styles.section} aria-label="Rank agreement">
      <h4 className={styles.subtitle}>Rank agreement</h4>
      <p
        className={styles.row}
        title={`${titles.overall}\n${titles.tau}\n${titles.rho}`}
        data-testid="calibration.rank.overall"
        data-tau={plainNumber(overall.tau)}
        data-rho={plainNumber(overall.rho)}
        data-groups={overall.groups}
      >
        <span>
          Overall Kendall τ <b>{fixed3(overall.tau)}</b>
        </span>
        <span>
          Spearman ρ <b>{fixed3(overall.rho)}</b>
        </span>
        <span className={styles.muted}>
          over {overall.groups} group(s), {overall.pairs} pair(s)
          {overall.undefinedGroups > 0
            ? `; ${overall.undefinedGroups} group(s) undefined (fewer than two rollouts ranked by both, or one side ties them all)`
            : ""}
        </span>
      </p>
      {rows.length === 0 ? (
        <p className={styles.muted}>
          No group has both a human ranking and a ranking from this source.
        </p>
      ) : (
        <div className={styles.scroll}>
          <table className={styles.table} data-testid="calibration.ranks">
            <thead>
              <tr>
                {COLUMNS.map((c) => {
                  const active = sort.key === c.key;
                  return (
                    <th
                      key={c.key}
                      scope="col"
                      title={titleOf(c.key)}
                      aria-sort={active ? (sort.descending ? "descending" : "ascending") : "none"}
                    >
                      <button
                        type="button"
                        className={styles.sortButton}
                        data-testid={`calibration.rank.sort.${c.key}`}
                        onClick={() => onSort(c.key)}
                      >
                        {c.label}
                        <span aria-hidden="true">
                          {active ? (sort.descending ? " ▾" : " ▴") : ""}
                        </span>
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.groupId} data-testid="calibration.rank.row" data-group-id={r.groupId}>
                  <th scope="row">{r.groupId}</th>
                  <td>
                    {r.n} ({r.pairs} pair{r.pairs === 1 ? "" : "s"})
                  </td>
                  <td data-value={r.tauValue}>{r.tau}</td>
                  <td data-value={r.rhoValue}>{r.rho}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
