/**
 * The run view's step range: a recharts Brush over the run's steps (drawn over the pass rate, so
 * the handles sit on something recognisable) that narrows every chart to the steps between its
 * handles, and a button that applies the range to the group browser as a step-range filter.
 */
import { useMemo } from "react";
import { Brush, Line, LineChart, YAxis } from "recharts";
import type { HealthChartRow } from "./healthModel.ts";
import { HEALTH_COLORS } from "./HealthCharts.tsx";
import styles from "./Health.module.css";

/** Indices into the rows, both ends included. */
export interface StepIndexRange {
  readonly start: number;
  readonly end: number;
}

export default function StepRange({
  rows,
  range,
  onRange,
  onFilter,
}: {
  rows: readonly HealthChartRow[];
  range: StepIndexRange;
  onRange: (range: StepIndexRange) => void;
  onFilter: (from: number, to: number) => void;
}) {
  // One array while the rows are the same: recharts resets the brush when its data changes.
  const data = useMemo(() => [...rows], [rows]);
  const from = rows[range.start]?.step;
  const to = rows[range.end]?.step;
  return (
    <div className={styles.range} data-testid="health-range">
      {/* The chart holds only the brush; the brush's own small chart shows the whole run. The
          brush keeps its own handles (given back as props, recharts stops a drag at its first
          step); a run of another length starts a new one. */}
      <LineChart
        key={rows.length}
        data={data}
        responsive
        style={{ width: "100%", height: 34 }}
        margin={{ top: 0, right: 4, bottom: 0, left: 4 }}
      >
        <Brush
          dataKey="step"
          height={32}
          stroke="#5b6573"
          travellerWidth={8}
          onChange={(next) => {
            if (next.startIndex !== range.start || next.endIndex !== range.end)
              onRange({ start: next.startIndex, end: next.endIndex });
          }}
        >
          <LineChart data={data}>
            <YAxis hide domain={[0, 1]} />
            <Line
              dataKey="passRate"
              stroke={HEALTH_COLORS.pass}
              strokeWidth={1}
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </Brush>
      </LineChart>
      <div className={styles.rangeBar}>
        <span
          data-testid="health-range-label"
          title="Drag the brush's handles to narrow the charts to a range of steps (the line in the brush is the pass rate)"
        >
          Steps {from}–{to}
          {range.start === 0 && range.end === rows.length - 1 ? " · the whole run" : ""}
        </span>
        {from !== undefined && to !== undefined ? (
          <button
            type="button"
            className={styles.button}
            data-testid="health-range-filter"
            onClick={() => onFilter(from, to)}
          >
            Filter groups to steps {from}–{to}
          </button>
        ) : null}
      </div>
    </div>
  );
}
