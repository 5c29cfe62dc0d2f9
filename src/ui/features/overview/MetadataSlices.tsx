/**
 * The overview's "slice by" a metadata field: a table of pass rate and mean reward per value, with
 * the rollouts and groups of each slice, and the pass rates as a bar chart. Renders prepared models
 * (prepareMetadataSlices.ts); the field choice is this view's own state.
 */
import { useId, useMemo, useState } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipValueType,
} from "recharts";
import type { AnalysisSettings, RolloutGroup } from "../../../core/index.ts";
import ChartFrame from "../../components/ChartFrame.tsx";
import { OVERVIEW_COLORS } from "./prepareOverview.ts";
import {
  prepareMetadataSlices,
  prepareSliceFields,
  type SliceRow,
} from "./prepareMetadataSlices.ts";
import styles from "./Overview.module.css";

const TICK = { fontSize: 11 };

/** A y-axis label: long values are cut (the table has them whole). */
function tickLabel(label: string): string {
  return label.length > 26 ? `${label.slice(0, 25)}…` : label;
}

/** The tooltip: the pass rate with its counts, from the slice's row. */
function rateWithCounts(
  value: TooltipValueType | undefined,
  _name: unknown,
  item: { readonly payload?: unknown },
): string {
  const text = typeof value === "number" ? `${(100 * value).toFixed(1)}%` : "–";
  const row = item.payload as SliceRow | undefined;
  return row === undefined
    ? text
    : `${text} (${row.passes} of ${row.scored} rollouts; ${row.groups} group${row.groups === 1 ? "" : "s"})`;
}

export default function MetadataSlices({
  groups,
  allGroups,
  settings,
  subject,
}: {
  groups: readonly RolloutGroup[];
  allGroups: number;
  settings: Pick<AnalysisSettings, "passThreshold" | "rewardWeights">;
  subject: string;
}) {
  const selectId = useId();
  const fields = useMemo(() => prepareSliceFields(groups), [groups]);
  const [picked, setPicked] = useState<string | null>(null);
  const path = picked ?? fields.initial;
  const { passThreshold, rewardWeights } = settings;
  const model = useMemo(
    () =>
      path === ""
        ? null
        : prepareMetadataSlices(groups, path, { passThreshold, rewardWeights }, allGroups),
    [groups, path, passThreshold, rewardWeights, allGroups],
  );
  if (fields.fields.length === 0)
    return (
      <section className={styles.slices} aria-label="Slice by metadata">
        <h3 className={styles.slicesTitle}>Slice by metadata</h3>
        <p className={styles.note}>The rollouts have no scalar metadata field to slice by.</p>
      </section>
    );
  const chartRows = model?.rows.filter((r) => Number.isFinite(r.passRate)) ?? [];
  return (
    <section
      className={styles.slices}
      aria-label="Slice by metadata"
      data-testid="overview.slicing"
    >
      <div className={styles.slicesBar}>
        <h3 className={styles.slicesTitle}>Slice by metadata</h3>
        <label htmlFor={selectId}>field</label>
        <select
          id={selectId}
          value={path}
          data-testid="overview.slice-field"
          onChange={(e) => setPicked(e.currentTarget.value)}
        >
          {fields.fields.map((f) => (
            <option key={f.path} value={f.path}>
              {f.path}
            </option>
          ))}
        </select>
        {model === null ? null : (
          <span className={styles.note}>
            {model.rows.length} slice{model.rows.length === 1 ? "" : "s"} of{" "}
            {model.totalRollouts.toLocaleString("en")} rollouts in{" "}
            {model.totalGroups.toLocaleString("en")} groups
          </span>
        )}
      </div>
      {model === null ? null : (
        <div className={styles.slicesBody}>
          <div className={styles.slicesTableWrap}>
            <table className={styles.slicesTable} data-testid="overview.slices" title={model.how}>
              <caption className={styles.note}>{model.how}</caption>
              <thead>
                <tr>
                  <th scope="col">{model.path}</th>
                  <th scope="col">Rollouts</th>
                  <th scope="col">Groups</th>
                  <th scope="col">Passes</th>
                  <th scope="col">Pass rate</th>
                  <th scope="col">Mean reward</th>
                </tr>
              </thead>
              <tbody>
                {model.rows.map((r) => (
                  <tr
                    key={r.key === "" ? "\u0000none" : r.key}
                    data-testid="overview.slice"
                    data-value={r.key}
                  >
                    <th scope="row">{r.label}</th>
                    <td>{r.rollouts}</td>
                    <td>{r.groups}</td>
                    <td>{r.passes}</td>
                    <td>{r.passRateText}</td>
                    <td>{r.meanRewardText}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ChartFrame
            name="metadata-slices"
            title={`Pass rate by ${model.path}`}
            how={model.how}
            subject={subject}
            legend={[{ label: "pass rate", color: OVERVIEW_COLORS.pass }]}
            empty={chartRows.length === 0}
          >
            {chartRows.length === 0 ? (
              <p className={styles.note}>No slice has a scored rollout.</p>
            ) : (
              <BarChart
                data={[...chartRows]}
                layout="vertical"
                responsive
                style={{ width: "100%", height: Math.max(120, 22 * chartRows.length + 40) }}
                margin={{ top: 4, right: 16, bottom: 4, left: 4 }}
              >
                <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                <XAxis
                  type="number"
                  domain={[0, 1]}
                  tick={TICK}
                  tickFormatter={(v: number) => `${Math.round(v * 100)}%`}
                />
                <YAxis
                  type="category"
                  dataKey="label"
                  tick={TICK}
                  width={180}
                  interval={0}
                  tickFormatter={tickLabel}
                />
                <Tooltip formatter={rateWithCounts} />
                <Bar
                  dataKey="passRate"
                  name="pass rate"
                  fill={OVERVIEW_COLORS.pass}
                  isAnimationActive={false}
                />
              </BarChart>
            )}
          </ChartFrame>
        </div>
      )}
    </section>
  );
}
