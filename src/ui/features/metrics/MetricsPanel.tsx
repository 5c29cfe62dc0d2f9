/** Every per-rollout statistic of one group in one table; each header says how it is computed. */
import { metricFormulas } from "../../../core/index.ts";
import { useGroupAnalysis, useSettings } from "../../../store/hooks.ts";
import { fixed3 } from "../../components/numbers.ts";
import styles from "./Metrics.module.css";

export default function MetricsPanel({ groupId }: { groupId: string }) {
  const view = useGroupAnalysis(groupId);
  const f = metricFormulas(useSettings());
  if (view === null) return <p className={styles.muted}>Reading group {groupId}…</p>;
  const pending = view.clusters.status !== "done";
  return (
    <table className={styles.table} data-testid="metrics.table">
      <thead>
        <tr>
          <th scope="col">Rollout</th>
          <th scope="col" title={f.reward}>
            Reward
          </th>
          <th scope="col" title={f.passed}>
            Pass
          </th>
          <th scope="col" title={f.advantage}>
            Advantage
          </th>
          <th scope="col" title={f.gar}>
            GAR adv.
          </th>
          <th scope="col" title={f.factor}>
            Factor
          </th>
          <th scope="col" title={f.rank}>
            Rank
          </th>
          <th scope="col" title={f.winRate}>
            Win-rate
          </th>
          <th scope="col" title={f.cluster}>
            Cluster
          </th>
          <th scope="col" title={f.selfConsistency}>
            Self-cons.
          </th>
          <th scope="col" title={f.complementarity}>
            Compl.
          </th>
          <th scope="col" title={f.length}>
            Length
          </th>
          <th scope="col" title={f.toolCalls}>
            Tools
          </th>
        </tr>
      </thead>
      <tbody>
        {view.analysis.rollouts.map((r) => (
          <tr key={r.id}>
            <th scope="row">{r.id}</th>
            <td>{fixed3(r.reward)}</td>
            <td>{r.passed ? "pass" : "fail"}</td>
            <td>{fixed3(r.advantage)}</td>
            <td>{fixed3(r.garAdvantage)}</td>
            <td>{fixed3(r.factor)}</td>
            <td>{fixed3(r.rank)}</td>
            <td>{fixed3(r.winRate)}</td>
            <td>{pending ? "…" : `${r.cluster} (×${r.clusterSize})`}</td>
            <td>{fixed3(r.selfConsistency)}</td>
            <td>{fixed3(r.complementarity)}</td>
            <td>{r.textLength}</td>
            <td>{r.toolCalls}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
