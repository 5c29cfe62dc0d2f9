/** The metrics panel's recharts charts: they render prepared models and decide nothing. */
import {
  Area,
  Bar,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipValueType,
} from "recharts";
import type { ReactElement } from "react";
import ChartFrame from "../../components/ChartFrame.tsx";
import {
  SERIES_COLORS,
  type AdvantageBars,
  type FactorBars,
  type RewardBars,
} from "./prepareMetricsCharts.ts";
import styles from "./Metrics.module.css";

const CHART_STYLE = { width: "100%", height: 240 } as const;
const MARGIN = { top: 8, right: 12, bottom: 4, left: 0 };
const TICK = { fontSize: 11 };

/**
 * From this many rollouts a chart draws each series as one stepped area (a step per rollout, in
 * rollout order) instead of a bar per rollout: recharts renders a component per bar, and three
 * charts of 472 bars were three main-thread tasks of 300-480 ms, while at that count a bar is
 * under a pixel wide anyway. The tooltip still names the rollout under the pointer.
 */
export const DENSE_FROM = 65;

/** A note under a dense chart: what the steps are. */
function DenseNote({ count }: { count: number }) {
  return (
    <p className={styles.note} data-testid="metrics.dense-note">
      {count} rollouts: one step per rollout, in rollout order (the table has each value).
    </p>
  );
}

/** Rollout labels written under the bars at most: past this, every k-th (the tooltip names each bar). */
const MAX_TICKS = 16;

/**
 * recharts' `interval`: 0 writes every label, k skips k between two. A number, never
 * "preserveStartEnd", which measures every label in the DOM first (512 measurements for a
 * 512-rollout group).
 */
export function tickInterval(bars: number): number {
  return bars <= MAX_TICKS ? 0 : Math.ceil(bars / MAX_TICKS) - 1;
}

function format(value: TooltipValueType | undefined): string {
  if (value === undefined) return "–";
  if (typeof value === "number") return value.toFixed(3);
  return typeof value === "string" ? value : value.join(" – ");
}

/** The tooltip's heading: the rollout's full id (the axis shows the short one). */
function fullId(_label: unknown, payload: ReadonlyArray<{ payload?: unknown }>): string {
  const row = payload[0]?.payload;
  return typeof row === "object" && row !== null && "id" in row ? String(row.id) : "";
}

/**
 * One series of a chart: a stepped area when the chart is dense, else a bar per rollout. Called as
 * a function, so the chart's children are the same recharts elements as when written inline.
 */
function stepsOrBars(dense: boolean, dataKey: string, name: string, color: string): ReactElement {
  return dense ? (
    <Area
      type="stepAfter"
      dataKey={dataKey}
      name={name}
      stroke={color}
      fill={color}
      fillOpacity={0.35}
      isAnimationActive={false}
    />
  ) : (
    <Bar dataKey={dataKey} name={name} fill={color} isAnimationActive={false} />
  );
}

export function AdvantageChart({ model, subject }: { model: AdvantageBars; subject: string }) {
  const dense = model.rows.length >= DENSE_FROM;
  return (
    <ChartFrame
      name="advantages"
      title="Advantage before (GRPO) and after (GAR)"
      how={model.how}
      subject={subject}
      legend={model.legend}
    >
      {model.note !== null ? (
        <p className={styles.note} data-testid="metrics.gar-note">
          {model.note}
        </p>
      ) : null}
      <ComposedChart data={[...model.rows]} responsive style={CHART_STYLE} margin={MARGIN}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" interval={tickInterval(model.rows.length)} tick={TICK} />
        <YAxis tick={TICK} width={52} />
        <ReferenceLine y={0} stroke="#5b6573" />
        <Tooltip formatter={format} labelFormatter={fullId} />
        {stepsOrBars(dense, "grpo", "GRPO (before)", SERIES_COLORS.grpo)}
        {!model.hasGar ? null : dense ? (
          <Line
            type="stepAfter"
            dataKey="gar"
            name="GAR (after)"
            stroke={SERIES_COLORS.gar}
            strokeWidth={1.5}
            dot={false}
            isAnimationActive={false}
          />
        ) : (
          <Bar
            dataKey="gar"
            name="GAR (after)"
            fill={SERIES_COLORS.gar}
            isAnimationActive={false}
          />
        )}
      </ComposedChart>
      {dense ? <DenseNote count={model.rows.length} /> : null}
    </ChartFrame>
  );
}

export function RewardChart({ model, subject }: { model: RewardBars; subject: string }) {
  const stacked = model.components.length > 0;
  const dense = model.rows.length >= DENSE_FROM;
  return (
    <ChartFrame
      name="rewards"
      title={stacked ? "Rewards per rollout, components stacked" : "Rewards per rollout"}
      how={model.how}
      subject={subject}
      legend={model.legend}
    >
      <ComposedChart
        data={[...model.rows]}
        responsive
        style={CHART_STYLE}
        margin={MARGIN}
        stackOffset="sign"
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" interval={tickInterval(model.rows.length)} tick={TICK} />
        <YAxis tick={TICK} width={52} />
        <ReferenceLine y={0} stroke="#5b6573" />
        <Tooltip formatter={format} labelFormatter={fullId} />
        {model.components.map((c) =>
          dense ? (
            <Area
              key={c.key}
              type="stepAfter"
              dataKey={c.key}
              name={c.name}
              stackId="components"
              stroke={c.color}
              fill={c.color}
              fillOpacity={0.6}
              isAnimationActive={false}
            />
          ) : (
            <Bar
              key={c.key}
              dataKey={c.key}
              name={c.name}
              stackId="components"
              fill={c.color}
              isAnimationActive={false}
            />
          ),
        )}
        {dense ? (
          <Line
            type="stepAfter"
            dataKey="total"
            name="R"
            stroke={SERIES_COLORS.reward}
            strokeWidth={1.5}
            dot={false}
            isAnimationActive={false}
          />
        ) : stacked ? (
          <Line
            dataKey="total"
            name="R"
            stroke="none"
            dot={{ r: 4, fill: SERIES_COLORS.reward, stroke: "#ffffff", strokeWidth: 1 }}
            activeDot={{ r: 5 }}
            isAnimationActive={false}
          />
        ) : (
          <Bar dataKey="total" name="R" fill={SERIES_COLORS.reward} isAnimationActive={false} />
        )}
      </ComposedChart>
      {dense ? <DenseNote count={model.rows.length} /> : null}
    </ChartFrame>
  );
}

export function FactorChart({
  model,
  subject,
  minFactor,
}: {
  model: FactorBars;
  subject: string;
  minFactor: number;
}) {
  const dense = model.rows.length >= DENSE_FROM;
  return (
    <ChartFrame
      name="factors"
      title="GAR factor f per rollout"
      how={model.how}
      subject={subject}
      legend={model.any ? [{ label: "f", color: SERIES_COLORS.factor }] : []}
      empty={!model.any}
    >
      {model.any ? (
        <>
          <ComposedChart data={[...model.rows]} responsive style={CHART_STYLE} margin={MARGIN}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" interval={tickInterval(model.rows.length)} tick={TICK} />
            <YAxis tick={TICK} width={52} domain={[0, 1]} />
            <ReferenceLine y={minFactor} stroke="#5b6573" strokeDasharray="4 3" />
            <Tooltip formatter={format} labelFormatter={fullId} />
            {stepsOrBars(dense, "factor", "f", SERIES_COLORS.factor)}
          </ComposedChart>
          {dense ? <DenseNote count={model.rows.length} /> : null}
        </>
      ) : (
        <p className={styles.note} data-testid="metrics.factor-note">
          {model.note}
        </p>
      )}
    </ChartFrame>
  );
}
