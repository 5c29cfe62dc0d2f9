/**
 * The loaded groups, one row each, and the selected group's rollouts. A plain first version: the
 * virtualised, sortable, filterable group browser replaces it with the studio issue.
 */
import { useMemo } from "react";
import { useStore } from "../../../store/index.ts";
import { useDataset, useSettings } from "../../../store/hooks.ts";
import styles from "./Groups.module.css";
import GroupFilters from "./GroupFilters.tsx";
import { filterGroupRows, prepareGroupRows, withClusters } from "./prepareGroupRows.ts";

const MAX_ROWS = 1000;

export default function GroupList() {
  const dataset = useDataset();
  const groups = useStore((s) => (s.load.status === "ready" ? s.load.groups : null));
  const settings = useSettings();
  const selected = useStore((s) => s.selectedGroupId);
  const selectGroup = useStore((s) => s.selectGroup);
  const filters = useStore((s) => s.filters);
  // Every row is cheap (summaries); clustering runs only for the rows shown.
  const all = useMemo(
    () => (dataset ? prepareGroupRows(dataset.summaries, new Map(), settings) : []),
    [dataset, settings],
  );
  const filtered = useMemo(() => filterGroupRows(all, filters), [all, filters]);
  const rows = useMemo(
    () => (groups ? withClusters(filtered.slice(0, MAX_ROWS), groups, settings) : []),
    [filtered, groups, settings],
  );
  if (dataset === null) return null;
  return (
    <div className={styles.layout}>
      <section className={styles.card} aria-label="Groups">
        <GroupFilters shown={filtered.length} total={all.length} />
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
            {rows.map((r) => (
              <tr
                key={r.id}
                aria-selected={r.id === selected}
                data-testid="group-row"
                data-group-id={r.id}
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
                <td className={styles.num}>{r.clusters ?? "–"}</td>
                <td>{r.flags.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {filtered.length > MAX_ROWS ? (
          <p className={styles.muted}>
            {MAX_ROWS.toLocaleString("en-US")} of {filtered.length.toLocaleString("en-US")} groups
            shown.
          </p>
        ) : null}
      </section>
    </div>
  );
}
