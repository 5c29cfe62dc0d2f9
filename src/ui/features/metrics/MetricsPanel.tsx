/**
 * The Metrics tab of a group: every per-rollout statistic in one sortable table, then the charts
 * (advantages before and after GAR, rewards, factors), the win-rate heatmap and the clusters.
 * Everything is derived in render from the store's hooks, so a setting or an annotation change
 * redraws it at once. Lazily loaded with recharts by ui/app/GroupWorkspace.
 */
import { useMemo, useState } from "react";
import { metricFormulas } from "../../../core/index.ts";
import { useGroupAnalysis, useSettings } from "../../../store/hooks.ts";
import ChartFrame from "../../components/ChartFrame.tsx";
import HeatmapCanvas, {
  HEATMAP_EXPORT_SCALE,
  heatmapExportCanvas,
} from "../../components/HeatmapCanvas.tsx";
import { heatmapSvg } from "../../components/heatmap.ts";
import { TEXTS_CUT_TITLE, textsCutNote } from "../../components/textsCut.ts";
import { useStaged } from "../../components/useStaged.ts";
import ClustersView from "./ClustersView.tsx";
import { AdvantageChart, FactorChart, RewardChart } from "./MetricsCharts.tsx";
import MetricsTable from "./MetricsTable.tsx";
import {
  prepareAdvantageBars,
  prepareClusters,
  prepareFactorBars,
  prepareRewardBars,
  prepareWinRate,
  type WinRateSource,
} from "./prepareMetricsCharts.ts";
import { metricsNextSort, prepareMetricsTable, type MetricSort } from "./prepareMetricsTable.ts";
import styles from "./Metrics.module.css";

/**
 * Table rows shown until "Show all" is pressed: sorted, the table's top rows are the ones a user
 * reads, and each batch of 128 rows added re-laid the whole table out (~100 ms at 472 rows).
 */
export const METRICS_ROWS_SHOWN = 128;
/** The parts after the table: advantage, reward and factor charts, win-rate heatmap, clusters. */
const CHART_STAGES = 5;

export default function MetricsPanel({ groupId }: { groupId: string }) {
  const view = useGroupAnalysis(groupId);
  const settings = useSettings();
  const formulas = useMemo(() => metricFormulas(settings), [settings]);
  const [sort, setSort] = useState<MetricSort>({ column: "index", descending: false });
  const [winSource, setWinSource] = useState<WinRateSource>("reward");

  const prepared = useMemo(() => {
    if (view === null) return null;
    const { group, analysis, annotation, clusters } = view;
    return {
      advantages: prepareAdvantageBars(analysis, formulas),
      rewards: prepareRewardBars(group, analysis, settings, formulas),
      factors: prepareFactorBars(analysis, formulas),
      winRate: prepareWinRate(group, analysis, annotation, settings, winSource),
      clusters:
        clusters.status === "done"
          ? prepareClusters(group, clusters.result, settings, formulas)
          : null,
    };
  }, [view, settings, formulas, winSource]);
  const table = useMemo(
    () => (view === null ? null : prepareMetricsTable(view.analysis, formulas, settings, sort)),
    [view, formulas, settings, sort],
  );

  const [allRows, setAllRows] = useState<string | null>(null);
  // The table first, then each chart: one task each (useStaged.ts).
  const chartsShown = useStaged(1 + CHART_STAGES, groupId) - 1;

  if (view === null || prepared === null || table === null)
    return <p className={styles.muted}>Reading group {groupId}…</p>;
  const clusterError = view.clusters.status === "error" ? view.clusters.message : null;
  const winTitle = `Win-rate matrix (${prepared.winRate.rankingAvailable && winSource === "ranking" ? "human ranking" : "rewards"})`;
  const cutNote = textsCutNote(
    view.analysis.textsCut,
    settings.textChars,
    "for the clusters (each read by its first characters only)",
  );
  return (
    <div
      className={styles.panel}
      data-testid="metrics.panel"
      data-complete={chartsShown >= CHART_STAGES ? "true" : "false"}
    >
      {cutNote === null ? null : (
        <p className={styles.note} data-testid="metrics.texts-cut" title={TEXTS_CUT_TITLE}>
          {cutNote}
        </p>
      )}
      <MetricsTable
        model={table}
        sort={sort}
        onSort={(column) => setSort((s) => metricsNextSort(s, column))}
        clustersPending={view.clusters.status !== "done"}
        rowLimit={allRows === groupId ? Infinity : METRICS_ROWS_SHOWN}
        onShowAll={() => setAllRows(groupId)}
      />
      <div className={styles.charts}>
        {chartsShown >= 1 ? <AdvantageChart model={prepared.advantages} subject={groupId} /> : null}
        {chartsShown >= 2 ? <RewardChart model={prepared.rewards} subject={groupId} /> : null}
        {chartsShown >= 3 ? (
          <FactorChart model={prepared.factors} subject={groupId} minFactor={settings.minFactor} />
        ) : null}
        {chartsShown >= 4 ? (
          <ChartFrame
            name="win-rate"
            title={winTitle}
            how={prepared.winRate.how}
            subject={groupId}
            toSvg={() => heatmapSvg(prepared.winRate.model, winTitle)}
            toCanvas={() => ({
              canvas: heatmapExportCanvas(prepared.winRate.model),
              scale: HEATMAP_EXPORT_SCALE,
            })}
          >
            {prepared.winRate.rankingAvailable ? (
              <label className={styles.sourcePick}>
                From{" "}
                <select
                  value={winSource}
                  data-testid="metrics.win-source"
                  onChange={(e) =>
                    setWinSource(e.currentTarget.value === "ranking" ? "ranking" : "reward")
                  }
                >
                  <option value="reward">rewards</option>
                  <option value="ranking">human ranking</option>
                </select>
              </label>
            ) : null}
            <HeatmapCanvas
              model={prepared.winRate.model}
              summary={prepared.winRate.summary}
              testId="win-rate"
            />
            {prepared.winRate.cycles.length > 0 ? (
              <p className={styles.note} data-testid="metrics.cycles">
                Intransitive:{" "}
                {prepared.winRate.cycles
                  .slice(0, 5)
                  .map(([a, b, c]) => `${a} > ${b} > ${c} > ${a}`)
                  .join("; ")}
                {prepared.winRate.cycles.length > 5
                  ? ` (5 of ${prepared.winRate.cycles.length} shown)`
                  : ""}
              </p>
            ) : null}
          </ChartFrame>
        ) : null}
      </div>
      {chartsShown < 5 ? null : clusterError !== null ? (
        <p className={styles.note} role="alert">
          Clusters could not be computed: {clusterError}
        </p>
      ) : (
        <ClustersView model={prepared.clusters} subject={groupId} />
      )}
    </div>
  );
}
