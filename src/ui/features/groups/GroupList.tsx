/**
 * The loaded groups, one row each, and the selected group's rollouts. A plain first version: the
 * virtualised, sortable, filterable group browser replaces it with the studio issue.
 */
import { useMemo } from "react";
import { useStore } from "../../../store/index.ts";
import { useDatasetAnalysis, useLoadResult } from "../../../store/hooks.ts";
import styles from "./Groups.module.css";
import { prepareGroupRows, prepareRolloutRows } from "./prepareGroupRows.ts";

const MAX_ROWS = 1000;

export default function GroupList() {
  const result = useLoadResult();
  const analysis = useDatasetAnalysis();
  const selected = useStore((s) => s.selectedGroupId);
  const selectGroup = useStore((s) => s.selectGroup);
  const rows = useMemo(
    () => (result && analysis ? prepareGroupRows(result.groups, analysis) : []),
    [result, analysis],
  );
  if (result === null || analysis === null) return null;
  const group = result.groups.find((g) => g.id === selected) ?? null;
  const rollouts = group === null ? [] : prepareRolloutRows(group, analysis);
  return (
    <div className={styles.layout}>
      <section className={styles.card} aria-label="Groups">
        <table className={styles.table} data-testid="groups.table">
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col">Prompt</th>
              <th scope="col" className={styles.num}>
                n
              </th>
              <th scope="col" className={styles.num}>
                Passes
              </th>
              <th scope="col" className={styles.num}>
                Mean
              </th>
              <th scope="col" className={styles.num}>
                Std
              </th>
              <th scope="col" className={styles.num}>
                Clusters
              </th>
              <th scope="col">Flags</th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, MAX_ROWS).map((r) => (
              <tr
                key={r.id}
                aria-selected={r.id === selected}
                data-testid="groups.row"
                className={r.id === selected ? styles.selected : undefined}
              >
                <td>
                  <button
                    type="button"
                    className={styles.link}
                    onClick={() => selectGroup(r.id)}
                    data-testid="groups.row.id"
                  >
                    {r.id}
                  </button>
                </td>
                <td className={styles.prompt} title={r.prompt}>
                  {r.prompt}
                </td>
                <td className={styles.num}>{r.n}</td>
                <td className={styles.num}>{r.passes}</td>
                <td className={styles.num}>{r.mean}</td>
                <td className={styles.num}>{r.std}</td>
                <td className={styles.num}>{r.clusters}</td>
                <td>{r.flags.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length > MAX_ROWS ? (
          <p className={styles.muted}>
            {MAX_ROWS} of {rows.length.toLocaleString("en-US")} groups shown.
          </p>
        ) : null}
      </section>
      {group !== null ? (
        <section
          className={styles.card}
          aria-label={`Group ${group.id}`}
          data-testid="group.detail"
        >
          <h2 className={styles.heading}>Group {group.id}</h2>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Rollout</th>
                <th scope="col" className={styles.num}>
                  Reward
                </th>
                <th scope="col" className={styles.num}>
                  Advantage
                </th>
                <th scope="col" className={styles.num}>
                  Rank
                </th>
                <th scope="col">Cluster</th>
                <th scope="col" className={styles.num}>
                  Tool calls
                </th>
                <th scope="col">Final text</th>
              </tr>
            </thead>
            <tbody>
              {rollouts.map((r) => (
                <tr key={r.id} data-testid="group.rollout">
                  <td>
                    {r.id}{" "}
                    <span className={r.passed ? styles.pass : styles.fail}>
                      {r.passed ? "pass" : "fail"}
                    </span>
                  </td>
                  <td className={styles.num}>{r.reward}</td>
                  <td className={styles.num}>{r.advantage}</td>
                  <td className={styles.num}>{r.rank}</td>
                  <td>{r.cluster}</td>
                  <td className={styles.num}>{r.toolCalls}</td>
                  <td className={styles.prompt}>{r.text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </div>
  );
}
