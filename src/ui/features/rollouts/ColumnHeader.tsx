/**
 * The header of one rollout column: pass or fail, flags, the cluster chip, counts, and the numbers
 * the trainer would compute, each with its formula as a tooltip. It renders a prepared column.
 *
 * Built from memoised pieces that take plain values, so that a change re-renders only the piece
 * whose values changed: a ranking keystroke changes the GAR advantages of the passes and nothing
 * else, and then only that cell of each pass's header is rendered and committed (the 64-rollout
 * ranking benchmark, bench/interaction.ts).
 */
import { memo, type ReactNode } from "react";
import type { GarSource, MetricFormulas } from "../../../core/index.ts";
import ClusterChip from "../../components/ClusterChip.tsx";
import { sameComponents, type RolloutColumn } from "./prepareRolloutColumns.ts";
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
const Metric = memo(function Metric({ value, testId }: { value: string; testId: string }) {
  return (
    <>
      <span data-testid={testId}>{value}</span>
      {value === "" ? <span aria-label="none">–</span> : null}
    </>
  );
});

const TitleRow = memo(function TitleRow({
  id,
  passed,
  hack,
  humanLabel,
  hackTitle,
  passedHint,
  pinned,
  canPin,
  onTogglePin,
}: {
  id: string;
  passed: boolean;
  hack: boolean;
  humanLabel: string | null;
  /** The hack flag's tooltip: who marked it. */
  hackTitle: string;
  passedHint: string;
  pinned: boolean;
  canPin: boolean;
  onTogglePin: (id: string) => void;
}) {
  return (
    <div className={styles.titleRow}>
      <h3 className={styles.rolloutId} title={id}>
        {id}
      </h3>
      <span className={passed ? styles.pass : styles.fail} title={passedHint}>
        {passed ? "pass" : "fail"}
      </span>
      {hack ? (
        <span className={styles.hack} title={hackTitle}>
          hack
        </span>
      ) : null}
      {humanLabel === null ? null : (
        <span className={styles.badge} title="Human label">
          {humanLabel}
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
        onClick={() => onTogglePin(id)}
      >
        {pinned ? "Unpin" : "Pin"}
      </button>
    </div>
  );
});

const Chips = memo(function Chips({
  cluster,
  clusterSize,
  clustersPending,
  toolCalls,
  length,
  hints,
}: {
  cluster: number;
  clusterSize: number;
  clustersPending: boolean;
  toolCalls: number;
  length: number;
  hints: MetricFormulas;
}) {
  return (
    <div className={styles.chips}>
      <span title={hints.cluster}>
        <ClusterChip
          cluster={cluster}
          size={clusterSize}
          pending={clustersPending}
          testId="metric-cluster"
        />
      </span>
      <span title={hints.toolCalls} data-testid="column.tool-calls">
        {toolCalls} tool call{toolCalls === 1 ? "" : "s"}
      </span>
      <span title={hints.length} data-testid="column.length">
        {length.toLocaleString("en-US")} chars
      </span>
    </div>
  );
});

/** Where the place and win rate's order comes from, for their tooltips. */
function orderText(source: "reward" | GarSource): string {
  return source === "reward"
    ? "Ordered by reward: no ranking applies to this group."
    : `Ordered by the ${source === "human" ? "human" : source === "heuristic" ? "heuristic grader's" : "judge's"} ranking: its tiers over the passes, then the other rollouts below them by reward.`;
}

const RewardTable = memo(function RewardTable({
  reward,
  rank,
  place,
  groupSize,
  rankSource,
  winRate,
  hints,
}: {
  reward: string;
  rank: string;
  place: string;
  groupSize: number;
  rankSource: "reward" | GarSource;
  winRate: string;
  hints: MetricFormulas;
}) {
  return (
    <table className={styles.stats}>
      <thead>
        <tr>
          <th scope="col" title={hints.reward}>
            Reward <Source of="reward" />
          </th>
          <th
            scope="col"
            title={`${hints.rank}\n${orderText(rankSource)}`}
            data-testid="metric-rank-head"
            data-source={rankSource}
          >
            Rank <Source of={rankSource} />
          </th>
          <th
            scope="col"
            title={`${hints.winRate}\n${orderText(rankSource)}`}
            data-testid="metric-win-rate-head"
            data-source={rankSource}
          >
            Win rate <Source of={rankSource} />
          </th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <td>
            <Metric value={reward} testId="metric-reward" />
          </td>
          <td title={`Place ${place} of ${groupSize}, 1 = best; rank transform ${rank}, 1 = best`}>
            <Metric value={place} testId="metric-place" />{" "}
            <span className={styles.placeOf} data-testid="metric-place-of">
              of {groupSize}
            </span>{" "}
            <span className={styles.placeOf}>
              (<Metric value={rank} testId="metric-rank" />)
            </span>
          </td>
          <td>
            <Metric value={winRate} testId="metric-win-rate" />
          </td>
        </tr>
      </tbody>
    </table>
  );
});

const AdvantageHead = memo(function AdvantageHead({
  hints,
  hasGar,
  garSource,
  hasTrainer,
}: {
  hints: MetricFormulas;
  hasGar: boolean;
  garSource: GarSource | null;
  hasTrainer: boolean;
}) {
  return (
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
          <th scope="col" aria-label="Trainer's advantage" title="The advantage the trainer logged">
            Trainer
          </th>
        ) : null}
      </tr>
    </thead>
  );
});

const AdvantageTable = memo(function AdvantageTable({
  advantage,
  garAdvantage,
  factor,
  trainerAdvantage,
  hints,
  hasGar,
  garSource,
  hasTrainer,
}: {
  advantage: string;
  garAdvantage: string;
  factor: string;
  trainerAdvantage: string | null;
  hints: MetricFormulas;
  hasGar: boolean;
  garSource: GarSource | null;
  hasTrainer: boolean;
}) {
  return (
    <table className={styles.stats}>
      <AdvantageHead hints={hints} hasGar={hasGar} garSource={garSource} hasTrainer={hasTrainer} />
      <tbody>
        <tr>
          <td>
            <Metric value={advantage} testId="metric-advantage" />
          </td>
          <td title={factor === "" ? undefined : `factor f = ${factor}`}>
            <Metric value={garAdvantage} testId="metric-gar-advantage" />
          </td>
          {hasTrainer ? (
            <td>
              <span data-testid="metric-trainer-advantage">{trainerAdvantage ?? ""}</span>
            </td>
          ) : null}
        </tr>
      </tbody>
    </table>
  );
});

const Components = memo(
  function Components({
    components,
    hint,
  }: {
    components: RolloutColumn["components"];
    hint: string;
  }) {
    return components.length > 0 ? (
      <ul className={styles.components} title={hint} aria-label="Reward components">
        {components.map((k) => (
          <li key={k.name}>
            {k.name} <b>{k.value}</b>
          </li>
        ))}
      </ul>
    ) : null;
  },
  // The view model rebuilds the list on every change; it re-renders only when its values do.
  (p, n) => p.hint === n.hint && sameComponents(p.components, n.components),
);

/**
 * One column's header. Not memoised itself: the column around it is (RolloutColumns.tsx), and it
 * re-renders only when the column's values change; the pieces below then skip what did not.
 */
export default function ColumnHeader({
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
      <TitleRow
        id={c.id}
        passed={c.passed}
        hack={c.hack}
        humanLabel={c.humanLabel}
        hackTitle={
          garSource === null || garSource === "human"
            ? "Marked as a hack"
            : `Flagged as a hack by the ${garSource}`
        }
        passedHint={hints.passed}
        pinned={pinned}
        canPin={canPin}
        onTogglePin={onTogglePin}
      />
      <Chips
        cluster={c.cluster}
        clusterSize={c.clusterSize}
        clustersPending={clustersPending}
        toolCalls={c.toolCalls}
        length={c.length}
        hints={hints}
      />
      <RewardTable
        reward={c.plain.reward}
        rank={c.plain.rank}
        place={c.plain.place}
        groupSize={c.groupSize}
        rankSource={c.rankSource}
        winRate={c.plain.winRate}
        hints={hints}
      />
      <AdvantageTable
        advantage={c.plain.advantage}
        garAdvantage={c.plain.garAdvantage}
        factor={c.factor}
        trainerAdvantage={c.trainerAdvantage}
        hints={hints}
        hasGar={hasGar}
        garSource={garSource}
        hasTrainer={hasTrainer}
      />
      <Components components={c.components} hint={hints.reward} />
      {renderTools?.(c.id)}
    </header>
  );
}
