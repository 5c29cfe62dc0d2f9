/**
 * The header of one rollout column, compact (issue 13): a title line (id, pass or fail, flags,
 * pin), one dense row of the numbers the trainer would compute (reward, rank, win rate, advantage,
 * GAR), each with its formula as a tooltip, a line with the cluster, counts and reward components, and a
 * details line the group bar's "Details" toggle shows. It renders a prepared column. Every
 * column's header takes the same height (the columns share their header row, Rollouts.module.css).
 *
 * Built from memoised pieces that take plain values, so that a change re-renders only the piece
 * whose values changed: a ranking keystroke changes the GAR advantages of the passes and nothing
 * else, and then only that cell of each pass's header is rendered and committed (the 64-rollout
 * ranking benchmark, bench/interaction.ts).
 */
import { memo, type ReactNode } from "react";
import type { GarSource, MetricFormulas } from "../../../core/index.ts";
import ClusterChip from "../../components/ClusterChip.tsx";
import PassChip from "./PassChip.tsx";
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
  scored,
  hack,
  humanLabel,
  hackTitle,
  passedHint,
  pinned,
  canPin,
  onTogglePin,
  extra,
  verdictHidden,
}: {
  id: string;
  /** Blind mode: pass or fail (the reward's verdict) is not shown. */
  verdictHidden: boolean;
  passed: boolean;
  scored: boolean;
  hack: boolean;
  humanLabel: string | null;
  /** The hack flag's tooltip: who marked it. */
  hackTitle: string;
  passedHint: string;
  pinned: boolean;
  canPin: boolean;
  onTogglePin: (id: string) => void;
  /** More on the line, before Pin (the metadata toggle); it shrinks first. */
  extra?: ReactNode;
}) {
  // One line: the id gives way (ellipsis, full id in the tooltip) to the chips after it, so a
  // chip added here never wraps the header and every column's transcript starts at one height.
  return (
    <div className={styles.titleRow}>
      <h3 className={styles.rolloutId} title={id}>
        {id}
      </h3>
      {verdictHidden ? null : (
        <PassChip passed={passed} scored={scored} label={humanLabel} hint={passedHint} />
      )}
      {hack ? (
        <span className={styles.hack} title={hackTitle}>
          hack
        </span>
      ) : null}
      {extra}
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

/**
 * One cell of the dense metrics row: a small label over the value, the formula in the tooltip. A
 * source other than the reward (a human or judge ranking) shows beside the label; the reward's is
 * in the tooltip, and in the details row.
 */
function Cell({
  label,
  title,
  source,
  name,
  testId,
  children,
}: {
  label: string;
  title: string;
  source?: "reward" | GarSource;
  /** A test id for the cell (its data-source says the source). */
  testId?: string;
  /** The label's accessible name when the visible one is abbreviated. */
  name?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={styles.cell}
      // The label, cut in a narrow column, is said again in the tooltip, with the formula.
      title={`${name ?? label}: ${title}${source === undefined ? "" : `\nSource: ${source}`}`}
      data-testid={testId}
      data-source={testId === undefined ? undefined : source}
    >
      <dt className={styles.cellLabel} aria-label={name}>
        {label}
        {source === undefined || source === "reward" ? null : (
          <>
            {" "}
            <Source of={source} />
          </>
        )}
      </dt>
      <dd className={styles.cellValue}>{children}</dd>
    </div>
  );
}

/** Where the place and win rate's order comes from, for their tooltips. */
function orderText(source: "reward" | GarSource): string {
  return source === "reward"
    ? "Ordered by reward: no ranking applies to this group."
    : `Ordered by the ${source === "human" ? "human" : source === "heuristic" ? "heuristic grader's" : "judge's"} ranking: its tiers over the passes, then the other rollouts below them by reward.`;
}

const Metrics = memo(function Metrics({
  reward,
  rank,
  place,
  groupSize,
  rankSource,
  winRate,
  advantage,
  garAdvantage,
  factor,
  trainerAdvantage,
  hints,
  hasGar,
  garSource,
  hasTrainer,
}: {
  reward: string;
  rank: string;
  place: string;
  groupSize: number;
  rankSource: "reward" | GarSource;
  winRate: string;
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
    <dl className={styles.metrics} aria-label="Metrics">
      <Cell label="Reward" title={hints.reward} source="reward">
        <Metric value={reward} testId="metric-reward" />
      </Cell>
      <Cell
        label="Rank"
        title={`${hints.rank}\n${orderText(rankSource)}\nPlace ${place} of ${groupSize}, rank transform ${rank}: both 1 = best`}
        source={rankSource}
        testId="metric-rank-head"
      >
        <Metric value={place} testId="metric-place" />{" "}
        <span className={styles.placeOf} data-testid="metric-place-of">
          of {groupSize}
        </span>
        <span className={`${styles.placeOf} ${styles.rankTransform}`}>
          {" "}
          (<Metric value={rank} testId="metric-rank" />)
        </span>
      </Cell>
      <Cell
        label="Win"
        name="Win rate"
        title={`${hints.winRate}\n${orderText(rankSource)}`}
        source={rankSource}
        testId="metric-win-rate-head"
      >
        <Metric value={winRate} testId="metric-win-rate" />
      </Cell>
      <Cell label="Adv." name="Advantage" title={hints.advantage} source="reward">
        <Metric value={advantage} testId="metric-advantage" />
      </Cell>
      <Cell
        label="GAR"
        name="GAR advantage"
        title={`${hasGar ? hints.gar : `${hints.gar}. Needs a ranking of the passes.`}${
          factor === "" ? "" : `\nfactor f = ${factor}`
        }`}
        source={hasGar ? (garSource ?? "human") : undefined}
      >
        <Metric value={garAdvantage} testId="metric-gar-advantage" />
      </Cell>
      {hasTrainer ? (
        <Cell label="Trainer" name="Trainer's advantage" title="The advantage the trainer logged">
          <span data-testid="metric-trainer-advantage">{trainerAdvantage ?? ""}</span>
        </Cell>
      ) : null}
    </dl>
  );
});

/** "2 tool errors" in the danger colour; nothing without any. `e` jumps to them. */
function ToolErrorCount({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <span
      className={styles.toolErrors}
      title="Tool results that are errors (an error field or status, an HTTP status >= 400, a non-zero exit, or marked by the source); e / Shift+E jump to the next / previous"
      data-testid="column.tool-errors"
    >
      {count} tool error{count === 1 ? "" : "s"}
    </span>
  );
}

/**
 * One line: the cluster chip, the counts (tool calls, length; room for more), then the reward
 * components, cut with an ellipsis (the tooltip has them all).
 */
const Counts = memo(
  function Counts({
    cluster,
    clusterSize,
    clustersPending,
    toolCalls,
    toolErrors,
    length,
    components,
    hints,
  }: {
    cluster: number;
    clusterSize: number;
    clustersPending: boolean;
    toolCalls: number;
    toolErrors: number;
    length: number;
    components: RolloutColumn["components"];
    hints: MetricFormulas;
  }) {
    const componentsText = components.map((k) => `${k.name} ${k.value}`).join(", ");
    const toolText = `${toolCalls} tool call${toolCalls === 1 ? "" : "s"}`;
    const lengthText = `${length.toLocaleString("en-US")} chars`;
    return (
      <div className={styles.counts}>
        <span title={hints.cluster}>
          <ClusterChip
            cluster={cluster}
            size={clusterSize}
            pending={clustersPending}
            testId="metric-cluster"
          />
        </span>
        <span title={`${toolText}: ${hints.toolCalls}`} data-testid="column.tool-calls">
          {toolText}
        </span>
        <ToolErrorCount count={toolErrors} />
        <span title={`${lengthText}: ${hints.length}`} data-testid="column.length">
          {lengthText}
        </span>
        {components.length > 0 ? (
          <ul
            className={styles.components}
            title={`Reward components: ${componentsText}\n${hints.reward}`}
            aria-label="Reward components"
          >
            {components.map((k) => (
              <li key={k.name}>
                {k.name} <b>{k.value}</b>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    );
  },
  // The view model rebuilds the list on every change; it re-renders only when its values do.
  (p, n) =>
    p.cluster === n.cluster &&
    p.clusterSize === n.clusterSize &&
    p.clustersPending === n.clustersPending &&
    p.toolCalls === n.toolCalls &&
    p.toolErrors === n.toolErrors &&
    p.length === n.length &&
    p.hints === n.hints &&
    sameComponents(p.components, n.components),
);

const NO_COMPONENTS: RolloutColumn["components"] = [];

/** The details row (the group bar's "Details"): each number's source and the GAR factor. */
const Details = memo(function Details({ factor }: { factor: string }) {
  return (
    <p
      className={styles.details}
      data-testid="column.details"
      title={`Reward, rank, win rate and advantage from the reward${factor === "" ? "" : `; GAR factor f = ${factor}`}`}
    >
      reward, rank, win rate and advantage from <Source of="reward" />
      {factor === "" ? null : (
        <>
          {" "}
          · GAR factor f = <span data-testid="metric-factor">{factor}</span>
        </>
      )}
    </p>
  );
});

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
  titleExtra,
  rewardsHidden = false,
}: {
  column: RolloutColumn;
  /**
   * Blind mode (team mode, issue 18): the reward and everything computed from it (pass or fail,
   * rank, win rate, advantages, GAR, components) are left out, and a line says so.
   */
  rewardsHidden?: boolean;
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
  /** More on the title line, before Pin (the metadata toggle). */
  titleExtra?: ReactNode;
}) {
  return (
    <header className={styles.columnHead}>
      <TitleRow
        id={c.id}
        passed={c.passed}
        scored={c.scored}
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
        extra={titleExtra}
        verdictHidden={rewardsHidden}
      />
      {rewardsHidden ? (
        <p
          className={styles.blindMetrics}
          data-testid="column.rewards-hidden"
          title="Blind mode: the reward, pass or fail, rank, win rate, advantages and GAR show once you submit this group"
        >
          Reward and advantages: hidden (blind)
        </p>
      ) : (
        <Metrics
          reward={c.plain.reward}
          rank={c.plain.rank}
          place={c.plain.place}
          groupSize={c.groupSize}
          rankSource={c.rankSource}
          winRate={c.plain.winRate}
          advantage={c.plain.advantage}
          garAdvantage={c.plain.garAdvantage}
          factor={c.factor}
          trainerAdvantage={c.trainerAdvantage}
          hints={hints}
          hasGar={hasGar}
          garSource={garSource}
          hasTrainer={hasTrainer}
        />
      )}
      <Counts
        cluster={c.cluster}
        clusterSize={c.clusterSize}
        clustersPending={clustersPending}
        toolCalls={c.toolCalls}
        toolErrors={c.toolErrors}
        length={c.length}
        components={rewardsHidden ? NO_COMPONENTS : c.components}
        hints={hints}
      />
      {rewardsHidden ? null : <Details factor={c.factor} />}
      {renderTools?.(c.id)}
    </header>
  );
}
