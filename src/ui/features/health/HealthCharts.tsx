/**
 * The run view's charts (issue 19): every per-step series against the step, in five charts
 * (shares, rewards, length, diversity and spread, hacks), each in a ChartFrame (saved as PNG or
 * SVG), with the steps where its detector fired shaded and the alerts' steps dashed. A click on a
 * step of any chart hands the step to `onStep` (the group browser filters to it). They render
 * prepared rows and decide nothing.
 */
import {
  Area,
  Bar,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceArea,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipValueType,
} from "recharts";
import type { ReactElement, ReactNode } from "react";
import type { HealthAlert } from "../../../core/index.ts";
import ChartFrame from "../../components/ChartFrame.tsx";
import type { LegendEntry } from "../../components/chartExport.ts";
import type { FiredSpan, HealthChartRow } from "./healthModel.ts";

export const HEALTH_COLORS = {
  pass: "#0072b2",
  zeroStd: "#999999",
  mixed: "#009e73",
  reward: "#0072b2",
  chars: "#0072b2",
  turns: "#e69f00",
  tools: "#cc79a7",
  clusters: "#0072b2",
  spreadYes: "#009e73",
  spreadNo: "#d55e00",
  spreadNa: "#c8c8c8",
  human: "#d55e00",
  heuristic: "#e69f00",
  judge: "#cc79a7",
  hackLike: "#0072b2",
  corrected: "#009e73",
  fired: "#d55e00",
} as const;

/** The reward components' colours, in the run's order (cycled). */
const COMPONENT_COLORS = ["#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#999999"];

export function componentColor(index: number): string {
  return COMPONENT_COLORS[index % COMPONENT_COLORS.length]!;
}

const CHART_STYLE = { width: "100%", height: 220 } as const;
const MARGIN = { top: 8, right: 8, bottom: 18, left: 0 };
const TICK = { fontSize: 11 };

/** What every chart of the run view is drawn with. */
export interface StepChartProps {
  readonly rows: readonly HealthChartRow[];
  /** Where the chart's detector fired, and its alerts (their steps are dashed). */
  readonly spans: readonly FiredSpan[];
  readonly alerts: readonly HealthAlert[];
  readonly subject: string;
  readonly onStep: (step: number) => void;
}

const percent = (x: number): string => `${Math.round(100 * x)}%`;

function number(value: TooltipValueType | undefined, digits: number): string {
  if (value === undefined) return "–";
  if (typeof value === "number")
    return Number.isInteger(value) ? value.toLocaleString("en-US") : value.toFixed(digits);
  if (typeof value === "string") return value;
  return value.map((v: number | string) => number(v, digits)).join(" – ");
}

function share(value: TooltipValueType | undefined): string {
  if (typeof value === "number") return `${(100 * value).toFixed(1)}%`;
  if (value === undefined) return "–";
  if (typeof value === "string") return value;
  return value.map((v: number | string) => share(v)).join(" – ");
}

/** "step 8" for the tooltip's heading. */
const stepLabel = (label: ReactNode): string =>
  typeof label === "number" || typeof label === "string" ? `step ${label}` : "";

/**
 * A chart over the steps: the step axis, the fired spans and alert lines, a tooltip, and the
 * series given. `right` adds a second y axis (id "right") for series on another scale. Called as
 * a function, so the frame holds the same recharts elements as when written inline.
 */
function stepChart(
  p: StepChartProps,
  left: { readonly format?: (x: number) => string; readonly domain?: [number, number] },
  right: { readonly format?: (x: number) => string } | null,
  tooltip: (value: TooltipValueType | undefined, name: string | number | undefined) => string,
  series: readonly ReactElement[],
): ReactElement {
  return (
    <ComposedChart
      data={[...p.rows]}
      responsive
      style={CHART_STYLE}
      margin={MARGIN}
      onClick={(e) => {
        const step = Number(e.activeLabel);
        if (e.activeLabel !== undefined && Number.isFinite(step)) p.onStep(step);
      }}
    >
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis
        dataKey="step"
        type="number"
        domain={["dataMin", "dataMax"]}
        allowDecimals={false}
        padding={{ left: 8, right: 8 }}
        tick={TICK}
        label={{ value: "step", position: "insideBottom", offset: -10, fontSize: 11 }}
      />
      <YAxis
        yAxisId="left"
        tick={TICK}
        width={44}
        tickFormatter={left.format}
        {...(left.domain === undefined ? {} : { domain: left.domain })}
      />
      {right === null ? null : (
        <YAxis
          yAxisId="right"
          orientation="right"
          tick={TICK}
          width={36}
          tickFormatter={right.format}
        />
      )}
      <Tooltip
        formatter={(value, name) => tooltip(value, name)}
        labelFormatter={stepLabel}
        cursor={{ stroke: "#888", strokeDasharray: "2 2" }}
      />
      {p.spans.map((s) => (
        <ReferenceArea
          key={`span-${s.x1}`}
          yAxisId="left"
          x1={s.x1}
          x2={s.x2}
          fill={HEALTH_COLORS.fired}
          fillOpacity={0.1}
          ifOverflow="hidden"
        />
      ))}
      {p.alerts.map((a) => (
        <ReferenceLine
          key={`alert-${a.step}`}
          yAxisId="left"
          x={a.step}
          stroke={HEALTH_COLORS.fired}
          strokeDasharray="4 3"
          ifOverflow="hidden"
        />
      ))}
      {series}
    </ComposedChart>
  );
}

/** A line of a series (no dots past 40 steps: they would be a smear). */
function line(
  p: StepChartProps,
  dataKey: string | ((row: HealthChartRow) => number | null),
  name: string,
  color: string,
  axis: "left" | "right" = "left",
  dashed = false,
): ReactElement {
  return (
    <Line
      key={name}
      yAxisId={axis}
      dataKey={dataKey}
      name={name}
      stroke={color}
      strokeWidth={2}
      strokeDasharray={dashed ? "5 3" : undefined}
      dot={p.rows.length <= 40 ? { r: 2 } : false}
      isAnimationActive={false}
    />
  );
}

/** The frame's legend: the chart's series, and what the shading means. */
function legendOf(
  entries: readonly LegendEntry[],
  fired: string,
  p: StepChartProps,
): LegendEntry[] {
  return p.spans.length === 0
    ? [...entries]
    : [...entries, { label: `${fired} fired`, color: "rgba(213, 94, 0, 0.25)" }];
}

export function SharesChart({ p, how }: { p: StepChartProps; how: string }) {
  return (
    <ChartFrame
      name="health-shares"
      title="Pass rate, zero-std and mixed groups"
      how={how}
      subject={p.subject}
      legend={legendOf(
        [
          { label: "pass rate", color: HEALTH_COLORS.pass },
          { label: "zero-std share", color: HEALTH_COLORS.zeroStd },
          { label: "mixed share", color: HEALTH_COLORS.mixed },
        ],
        "zero-std",
        p,
      )}
      empty={p.rows.length === 0}
    >
      {stepChart(p, { format: percent, domain: [0, 1] }, null, share, [
        line(p, "passRate", "pass rate", HEALTH_COLORS.pass),
        line(p, "zeroStdShare", "zero-std share", HEALTH_COLORS.zeroStd),
        line(p, "mixedShare", "mixed share", HEALTH_COLORS.mixed),
      ])}
    </ChartFrame>
  );
}

export function RewardChart({
  p,
  how,
  components,
}: {
  p: StepChartProps;
  how: string;
  components: readonly string[];
}) {
  return (
    <ChartFrame
      name="health-reward"
      title="Mean reward and its components"
      how={how}
      subject={p.subject}
      legend={legendOf(
        [
          { label: "mean reward", color: HEALTH_COLORS.reward },
          ...components.map((c, i) => ({ label: c, color: componentColor(i) })),
        ],
        "component dominance",
        p,
      )}
      empty={p.rows.length === 0}
    >
      {stepChart(p, {}, null, (v) => number(v, 3), [
        line(p, "meanReward", "mean reward", HEALTH_COLORS.reward),
        ...components.map((c, i) =>
          line(p, (row) => row.components[c] ?? null, c, componentColor(i), "left", true),
        ),
      ])}
    </ChartFrame>
  );
}

export function LengthChart({ p, how }: { p: StepChartProps; how: string }) {
  return (
    <ChartFrame
      name="health-length"
      title="Completion length, turns and tool calls"
      how={how}
      subject={p.subject}
      legend={legendOf(
        [
          { label: "characters (left)", color: HEALTH_COLORS.chars },
          { label: "turns (right)", color: HEALTH_COLORS.turns },
          { label: "tool calls (right)", color: HEALTH_COLORS.tools },
        ],
        "length drift",
        p,
      )}
      empty={p.rows.length === 0}
    >
      {stepChart(
        p,
        { format: (x) => (x >= 10_000 ? `${Math.round(x / 1000)}k` : String(x)) },
        {},
        (v, name) => number(v, name === "characters" ? 0 : 2),
        [
          line(p, "meanChars", "characters", HEALTH_COLORS.chars),
          line(p, "meanTurns", "turns", HEALTH_COLORS.turns, "right"),
          line(p, "meanToolCalls", "tool calls", HEALTH_COLORS.tools, "right"),
        ],
      )}
    </ChartFrame>
  );
}

export function DiversityChart({ p, how }: { p: StepChartProps; how: string }) {
  const bar = (dataKey: string, name: string, color: string): ReactElement => (
    <Bar
      key={dataKey}
      yAxisId="right"
      dataKey={dataKey}
      name={name}
      stackId="spread"
      fill={color}
      fillOpacity={0.55}
      isAnimationActive={false}
    />
  );
  return (
    <ChartFrame
      name="health-diversity"
      title="Diversity and the spread check"
      how={how}
      subject={p.subject}
      legend={legendOf(
        [
          { label: "clusters per group (left)", color: HEALTH_COLORS.clusters },
          { label: "spread yes", color: HEALTH_COLORS.spreadYes },
          { label: "spread no", color: HEALTH_COLORS.spreadNo },
          { label: "spread n/a (groups, right)", color: HEALTH_COLORS.spreadNa },
        ],
        "diversity collapse",
        p,
      )}
      empty={p.rows.length === 0}
    >
      {stepChart(p, {}, {}, (v, name) => number(v, name === "clusters per group" ? 2 : 0), [
        bar("spreadYes", "spread yes", HEALTH_COLORS.spreadYes),
        bar("spreadNo", "spread no", HEALTH_COLORS.spreadNo),
        bar("spreadNa", "spread n/a", HEALTH_COLORS.spreadNa),
        line(p, "clustersPerGroup", "clusters per group", HEALTH_COLORS.clusters),
      ])}
    </ChartFrame>
  );
}

export function HackChart({
  p,
  how,
  corrected,
}: {
  p: StepChartProps;
  how: string;
  /** Whether any step has a corrected share (its line and band are drawn then). */
  corrected: boolean;
}) {
  const entries: LegendEntry[] = [
    { label: "hack-like", color: HEALTH_COLORS.hackLike },
    ...(corrected ? [{ label: "corrected, with interval", color: HEALTH_COLORS.corrected }] : []),
    { label: "marked: people", color: HEALTH_COLORS.human },
    { label: "heuristic", color: HEALTH_COLORS.heuristic },
    { label: "judge", color: HEALTH_COLORS.judge },
  ];
  return (
    <ChartFrame
      name="health-hacks"
      title="Hack marks and hack-like share"
      how={how}
      subject={p.subject}
      legend={legendOf(entries, "hack spread", p)}
      empty={p.rows.length === 0}
    >
      {stepChart(p, { format: percent }, null, share, [
        ...(corrected
          ? [
              <Area
                key="interval"
                yAxisId="left"
                dataKey="hackInterval"
                name="corrected interval"
                stroke="none"
                fill={HEALTH_COLORS.corrected}
                fillOpacity={0.18}
                isAnimationActive={false}
              />,
              line(p, "hackCorrected", "corrected", HEALTH_COLORS.corrected, "left", true),
            ]
          : []),
        line(p, "hackLike", "hack-like", HEALTH_COLORS.hackLike),
        line(p, "hackHuman", "marked by people", HEALTH_COLORS.human),
        line(p, "hackHeuristic", "heuristic", HEALTH_COLORS.heuristic),
        line(p, "hackJudge", "judge", HEALTH_COLORS.judge),
      ])}
    </ChartFrame>
  );
}
