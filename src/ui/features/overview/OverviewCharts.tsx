/** The overview's recharts charts: each renders a prepared model and decides nothing. */
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipValueType,
} from "recharts";
import type { ReactElement, ReactNode } from "react";
import ChartFrame from "../../components/ChartFrame.tsx";
import {
  OVERVIEW_COLORS,
  type FactorSpreadOverview,
  type GroupKindsOverview,
  type GroupSizesOverview,
  type HistogramRow,
  type LengthRewardOverview,
  type PassKOverview,
  type RewardOverview,
} from "./prepareOverview.ts";
import styles from "./Overview.module.css";

/** An axis label as text (recharts hands labels over as React nodes). */
function plain(label: ReactNode): string {
  return typeof label === "number" || typeof label === "string" ? String(label) : "";
}

const CHART_STYLE = { width: "100%", height: 240 } as const;
const MARGIN = { top: 8, right: 16, bottom: 18, left: 4 };
const TICK = { fontSize: 11 };

function format(value: TooltipValueType | undefined): string {
  if (value === undefined) return "–";
  if (typeof value === "number")
    return Number.isInteger(value) ? value.toLocaleString("en") : value.toFixed(3);
  return typeof value === "string" ? value : value.join(" – ");
}

/**
 * A histogram's chart: a bar per bin of `rows` (its count of `counted`), the bins named under an
 * axis titled `axis`. Called as a function, so the frame holds the same recharts elements as when
 * written inline.
 */
function histogramBars(rows: readonly HistogramRow[], axis: string, counted: string): ReactElement {
  return (
    <BarChart data={[...rows]} responsive style={CHART_STYLE} margin={MARGIN}>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis
        dataKey="label"
        tick={TICK}
        label={{ value: axis, position: "insideBottom", offset: -10, fontSize: 11 }}
      />
      <YAxis tick={TICK} width={52} allowDecimals={false} />
      <Tooltip formatter={format} />
      <Bar dataKey="count" name={counted} isAnimationActive={false} />
    </BarChart>
  );
}

export function RewardHistogram({ model, subject }: { model: RewardOverview; subject: string }) {
  return (
    <ChartFrame
      name="reward-histogram"
      title="Reward histogram"
      how={model.how}
      subject={subject}
      legend={[
        { label: "pass", color: OVERVIEW_COLORS.pass },
        { label: "fail", color: OVERVIEW_COLORS.fail },
        { label: "straddles the threshold", color: OVERVIEW_COLORS.straddle },
      ]}
      empty={model.rows.length === 0}
    >
      {model.rows.length === 0 ? (
        <p className={styles.note}>No rollout has a reward.</p>
      ) : (
        histogramBars(model.rows, "reward R", "rollouts")
      )}
    </ChartFrame>
  );
}

export function PassKChart({ model, subject }: { model: PassKOverview; subject: string }) {
  return (
    <ChartFrame
      name="pass-k"
      title="pass^k by k"
      how={model.how}
      subject={subject}
      legend={[{ label: "pass^k", color: OVERVIEW_COLORS.pass }]}
      empty={model.rows.length === 0}
    >
      <LineChart data={[...model.rows]} responsive style={CHART_STYLE} margin={MARGIN}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis
          dataKey="k"
          tick={TICK}
          label={{ value: "k", position: "insideBottom", offset: -10, fontSize: 11 }}
        />
        <YAxis tick={TICK} width={52} domain={[0, 1]} />
        <Tooltip formatter={format} labelFormatter={(k: ReactNode) => `k = ${plain(k)}`} />
        <Line
          dataKey="passK"
          name="pass^k"
          stroke={OVERVIEW_COLORS.pass}
          strokeWidth={2}
          dot={{ r: 3 }}
          isAnimationActive={false}
        />
      </LineChart>
    </ChartFrame>
  );
}

export function GroupKindsChart({
  model,
  subject,
}: {
  model: GroupKindsOverview;
  subject: string;
}) {
  return (
    <ChartFrame
      name="group-kinds"
      title="Zero-std and mixed groups"
      how={model.how}
      subject={subject}
      legend={model.rows.map((r) => ({ label: r.kind, color: r.fill }))}
    >
      <BarChart data={[...model.rows]} responsive style={CHART_STYLE} margin={MARGIN}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="kind" tick={TICK} />
        <YAxis tick={TICK} width={52} allowDecimals={false} />
        <Tooltip formatter={format} />
        <Bar dataKey="count" name="groups" isAnimationActive={false} />
      </BarChart>
    </ChartFrame>
  );
}

export function GroupSizesChart({
  model,
  subject,
}: {
  model: GroupSizesOverview;
  subject: string;
}) {
  return (
    <ChartFrame
      name="group-sizes"
      title="Group sizes"
      how={model.how}
      subject={subject}
      legend={[{ label: "groups", color: OVERVIEW_COLORS.neutral }]}
    >
      <BarChart data={[...model.rows]} responsive style={CHART_STYLE} margin={MARGIN}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis
          dataKey="size"
          tick={TICK}
          label={{
            value: "rollouts in the group",
            position: "insideBottom",
            offset: -10,
            fontSize: 11,
          }}
        />
        <YAxis tick={TICK} width={52} allowDecimals={false} />
        <Tooltip formatter={format} labelFormatter={(s: ReactNode) => `${plain(s)} rollouts`} />
        <Bar
          dataKey="count"
          name="groups"
          fill={OVERVIEW_COLORS.neutral}
          isAnimationActive={false}
        />
      </BarChart>
    </ChartFrame>
  );
}

export function LengthRewardChart({
  model,
  subject,
}: {
  model: LengthRewardOverview;
  subject: string;
}) {
  return (
    <ChartFrame
      name="length-reward"
      title="Length against reward (length bias)"
      how={model.how}
      subject={subject}
      legend={[
        { label: "rollout", color: OVERVIEW_COLORS.pass },
        { label: "least-squares line", color: OVERVIEW_COLORS.fit },
      ]}
      empty={model.points.length === 0}
    >
      {model.caveats.map((c) => (
        <p key={c} className={styles.note} data-testid="overview.length-caveat">
          {c}
        </p>
      ))}
      {model.points.length === 0 ? (
        <p className={styles.note}>No parsed rollout has a reward.</p>
      ) : (
        <ScatterChart responsive style={CHART_STYLE} margin={MARGIN}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            type="number"
            dataKey="length"
            name="length"
            tick={TICK}
            label={{ value: "characters", position: "insideBottom", offset: -10, fontSize: 11 }}
          />
          <YAxis type="number" dataKey="reward" name="R" tick={TICK} width={52} />
          <Tooltip formatter={format} />
          <Scatter
            data={[...model.points]}
            name="rollout"
            fill={OVERVIEW_COLORS.pass}
            fillOpacity={0.45}
            isAnimationActive={false}
          />
          {model.line !== null ? (
            <ReferenceLine
              segment={[model.line[0], model.line[1]]}
              stroke={OVERVIEW_COLORS.fit}
              strokeWidth={2}
              ifOverflow="hidden"
            />
          ) : null}
        </ScatterChart>
      )}
    </ChartFrame>
  );
}

export function FactorSpreadChart({
  model,
  subject,
}: {
  model: FactorSpreadOverview;
  subject: string;
}) {
  return (
    <ChartFrame
      name="factor-spread"
      title="Spread of grader factors"
      how={model.how}
      subject={subject}
      legend={model.note === null ? [{ label: "passes", color: OVERVIEW_COLORS.factor }] : []}
      empty={model.note !== null}
    >
      {model.note !== null ? (
        <p className={styles.note} data-testid="overview.factor-note">
          {model.note}
        </p>
      ) : (
        <>
          {histogramBars(model.rows, "factor f", "passes")}
          {model.report !== null ? (
            <pre
              className={model.report.ok ? styles.report : styles.reportBad}
              data-testid="overview.spread-report"
            >
              {model.report.text}
            </pre>
          ) : null}
        </>
      )}
    </ChartFrame>
  );
}
