/**
 * The header of one rollout column: pass or fail, flags, the cluster chip, counts, and the numbers
 * the trainer would compute, each with its formula as a tooltip. It renders a prepared column.
 */
import { memo, type ReactNode } from "react";
import type { GarSource, MetricFormulas } from "../../../core/index.ts";
import ClusterChip from "../../components/ClusterChip.tsx";
import type { RolloutColumn } from "./prepareRolloutColumns.ts";
import styles from "./Rollouts.module.css";

/**
 * Where a column of numbers comes from: the reward, the human ranking (annotation issue), or a
 * judge run's ranking (LLM judge or the offline heuristic) where no person ranked.
 */
function Source({ of }: { of: "reward" | GarSource }) {
  return (
    <span className={styles.source} data-testid={`metric-source.${of}`} title={`Source: ${of}`}>
      {of}
    </span>
  );
}

/** A metric's plain value under its stable test id, and an en dash beside it when absent. */
function Metric({ value, testId }: { value: string; testId: string }) {
  return (
    <>
      <span data-testid={testId}>{value}</span>
      {value === "" ? <span aria-label="none">–</span> : null}
    </>
  );
}

function ColumnHeader({
  column: c,
  hints,
  clustersPending,
  hasTrainer,
  hasGar,
  garSource,
  pinned,
  canPin,
  onTogglePin,
  renderTools,
}: {
  column: RolloutColumn;
  hints: MetricFormulas;
  clustersPending: boolean;
  hasTrainer: boolean;
  hasGar: boolean;
  /** Who ranked the passes GAR used (shown beside the GAR numbers). */
  garSource: GarSource | null;
  pinned: boolean;
  canPin: boolean;
  onTogglePin: (id: string) => void;
  /** Another feature's controls for this rollout (composed by ui/app); keep it stable. */
  renderTools?: (rolloutId: string) => ReactNode;
}) {
  return (
    <header className={styles.columnHead}>
      <div className={styles.titleRow}>
        <h3 className={styles.rolloutId} title={c.id}>
          {c.id}
        </h3>
        <span className={c.passed ? styles.pass : styles.fail} title={hints.passed}>
          {c.passed ? "pass" : "fail"}
        </span>
        {c.hack ? (
          <span
            className={styles.hack}
            title={
              garSource === null || garSource === "human"
                ? "Marked as a hack"
                : `Flagged as a hack by the ${garSource}`
            }
          >
            hack
          </span>
        ) : null}
        {c.humanLabel === null ? null : (
          <span className={styles.badge} title="Human label">
            {c.humanLabel}
          </span>
        )}
        <button
          type="button"
          className={styles.pin}
          aria-pressed={pinned}
          disabled={!pinned && !canPin}
          data-testid="column-pin"
          title={
            pinned
              ? "Unpin this column"
              : canPin
                ? "Pin this column to the left"
                : "Two columns are pinned: unpin one first"
          }
          onClick={() => onTogglePin(c.id)}
        >
          {pinned ? "Unpin" : "Pin"}
        </button>
      </div>
      <div className={styles.chips}>
        <span title={hints.cluster}>
          <ClusterChip
            cluster={c.cluster}
            size={c.clusterSize}
            pending={clustersPending}
            testId="metric-cluster"
          />
        </span>
        <span title={hints.toolCalls} data-testid="column.tool-calls">
          {c.toolCalls} tool call{c.toolCalls === 1 ? "" : "s"}
        </span>
        <span title={hints.length} data-testid="column.length">
          {c.length.toLocaleString("en-US")} chars
        </span>
      </div>
      <table className={styles.stats}>
        <thead>
          <tr>
            <th scope="col" title={hints.reward}>
              Reward <Source of="reward" />
            </th>
            <th scope="col" title={hints.rank}>
              Rank <Source of="reward" />
            </th>
            <th scope="col" title={hints.winRate}>
              Win rate <Source of="reward" />
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <Metric value={c.plain.reward} testId="metric-reward" />
            </td>
            <td>
              <Metric value={c.plain.rank} testId="metric-rank" />
            </td>
            <td>
              <Metric value={c.plain.winRate} testId="metric-win-rate" />
            </td>
          </tr>
        </tbody>
      </table>
      <table className={styles.stats}>
        <thead>
          <tr>
            <th scope="col" title={hints.advantage}>
              Advantage <Source of="reward" />
            </th>
            <th
              scope="col"
              aria-label="GAR advantage"
              title={hasGar ? hints.gar : `${hints.gar}. Needs a ranking of the passes.`}
            >
              GAR adv. {hasGar ? <Source of={garSource ?? "human"} /> : null}
            </th>
            {hasTrainer ? (
              <th
                scope="col"
                aria-label="Trainer's advantage"
                title="The advantage the trainer logged"
              >
                Trainer
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <Metric value={c.plain.advantage} testId="metric-advantage" />
            </td>
            <td title={c.factor === "" ? undefined : `factor f = ${c.factor}`}>
              <Metric value={c.plain.garAdvantage} testId="metric-gar-advantage" />
            </td>
            {hasTrainer ? (
              <td>
                <span data-testid="metric-trainer-advantage">{c.trainerAdvantage ?? ""}</span>
              </td>
            ) : null}
          </tr>
        </tbody>
      </table>
      {c.components.length > 0 ? (
        <ul className={styles.components} title={hints.reward} aria-label="Reward components">
          {c.components.map((k) => (
            <li key={k.name}>
              {k.name} <b>{k.value}</b>
            </li>
          ))}
        </ul>
      ) : null}
      {renderTools?.(c.id)}
    </header>
  );
}

function sameColumn(a: RolloutColumn, b: RolloutColumn): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as (keyof RolloutColumn)[];
  return keys.every((k) => {
    const x = a[k];
    const y = b[k];
    if (x === y) return true;
    if (k === "plain") {
      const p = x as RolloutColumn["plain"];
      const q = y as RolloutColumn["plain"];
      return (Object.keys(p) as (keyof RolloutColumn["plain"])[]).every((n) => p[n] === q[n]);
    }
    if (k === "components") {
      const p = x as RolloutColumn["components"];
      const q = y as RolloutColumn["components"];
      return (
        p.length === q.length && p.every((c, i) => c.name === q[i]!.name && c.value === q[i]!.value)
      );
    }
    return false;
  });
}

/**
 * Memoised on the column's values: the view model is rebuilt on every change of the group's
 * analysis, and a ranking keystroke changes the numbers of a few columns only (the 64-rollout
 * ranking benchmark, bench/interaction.ts).
 */
export default memo(ColumnHeader, (prev, next) => {
  const keys = Object.keys(next) as (keyof typeof next)[];
  return (
    keys.length === Object.keys(prev).length &&
    keys.every((k) => (k === "column" ? sameColumn(prev.column, next.column) : prev[k] === next[k]))
  );
});
