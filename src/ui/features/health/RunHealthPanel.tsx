/**
 * Run health (issue 19): the loaded run across its steps. Core's per-step health (computed in the
 * health worker over the loaded groups, under the analysis settings and the annotations) as five
 * charts and a table, core's detectors with their thresholds (the health settings, persisted),
 * a step range picked with a brush, and a click on a step (a chart's point, a table row, a fired
 * step) that filters the group browser to it. Lazily loaded with recharts by ui/app.
 */
import { useMemo, useState } from "react";
import { useShallow } from "zustand/react/shallow";
import { healthDetectors } from "../../../core/index.ts";
import { useDataset } from "../../../store/hooks.ts";
import { useStore } from "../../../store/index.ts";
import { useRunHealth } from "../../../store/runHealth.ts";
import DetectorList from "./DetectorList.tsx";
import { parsedOver } from "./chartNotes.ts";
import { detectorRows } from "./detectorModel.ts";
import HealthChartGrid from "./HealthChartGrid.tsx";
import { healthChartRows, healthRows, healthView } from "./healthModel.ts";
import HealthTable from "./HealthTable.tsx";
import StepRange, { type StepIndexRange } from "./StepRange.tsx";
import styles from "./Health.module.css";

const count = (n: number): string => n.toLocaleString("en-US");

export default function RunHealthPanel() {
  const dataset = useDataset();
  const state = useRunHealth();
  const { healthSettings, resets, setHealthSetting, filters, setFilters } = useStore(
    useShallow((s) => ({
      healthSettings: s.healthSettings,
      resets: s.healthSettingsResets,
      setHealthSetting: s.setHealthSetting,
      filters: s.filters,
      setFilters: s.setFilters,
    })),
  );
  const [tab, setTab] = useState<"charts" | "table">("charts");
  const [picked, setPicked] = useState<StepIndexRange | null>(null);

  const result = state?.result ?? null;
  const view = useMemo(
    () =>
      result === null || dataset === null
        ? null
        : healthView(result.health, dataset, result.input.settings),
    [result, dataset],
  );
  const detectors = useMemo(
    () => (view === null ? null : healthDetectors(view.run, healthSettings)),
    [view, healthSettings],
  );
  const chartRows = useMemo(() => (view === null ? [] : healthChartRows(view.run)), [view]);
  const rows = useMemo(() => (view === null ? [] : healthRows(view)), [view]);
  // The brush's range, kept inside the run (a shorter run after a reload starts whole again).
  const last = chartRows.length - 1;
  const range: StepIndexRange =
    picked !== null && picked.end <= last ? picked : { start: 0, end: Math.max(0, last) };
  const { start, end } = range;
  const shown = useMemo(() => chartRows.slice(start, end + 1), [chartRows, start, end]);

  const filterSteps = (from: number, to: number): void =>
    setFilters({ ...filters, steps: { from, to } });
  const onStep = (step: number): void => filterSteps(step, step);

  if (state === null || dataset === null) return null;
  if (view === null || detectors === null || result === null)
    return (
      <section className={styles.health} aria-label="Run health" data-testid="health">
        <p className={styles.status} role="status" data-testid="health-status">
          {state.error !== null
            ? `Could not compute the run's health: ${state.error}`
            : "Computing the run's health…"}
        </p>
      </section>
    );

  const { coverage } = view;
  const rollouts = view.run.steps.reduce((n, s) => n + s.rollouts, 0);
  return (
    <section className={styles.health} aria-label="Run health" data-testid="health">
      <p className={styles.summary} data-testid="health-summary">
        {count(chartRows.length)} steps · {count(coverage.totalGroups)} groups · {count(rollouts)}{" "}
        rollouts
        <span className={styles.muted}>
          {state.computing
            ? " · updating…"
            : ` · computed in ${Math.round(result.ms).toLocaleString("en-US")} ms`}
        </span>
      </p>
      {coverage.indexed ? (
        <p className={styles.coverage} data-testid="health-coverage">
          Large file: groups, rollouts, pass rate, mean reward, zero-std and mixed shares are over
          all {count(coverage.totalGroups)} groups (their logged rewards); every other number is
          over the {count(coverage.parsedGroups)} of {count(coverage.totalGroups)} groups parsed.
        </p>
      ) : null}
      {state.error !== null ? (
        <p className={styles.error} role="alert">
          Could not update the run's health: {state.error}
        </p>
      ) : null}
      <DetectorList
        rows={detectorRows(detectors, parsedOver(view))}
        settings={healthSettings}
        resets={resets}
        onSetting={setHealthSetting}
        onStep={onStep}
      />
      {chartRows.length > 1 ? (
        <StepRange rows={chartRows} range={range} onRange={setPicked} onFilter={filterSteps} />
      ) : null}
      <div role="tablist" aria-label="Run health views" className={styles.tabs}>
        {(["charts", "table"] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            className={styles.tab}
            data-testid={`health-tab-${t}`}
            onClick={() => setTab(t)}
          >
            {t === "charts" ? "Charts" : "Table"}
          </button>
        ))}
      </div>
      {tab === "charts" ? (
        <HealthChartGrid
          rows={shown}
          view={view}
          detectors={detectors}
          settings={result.input.settings}
          clusterSample={result.input.clusterSample}
          subject={dataset.file}
          onStep={onStep}
        />
      ) : (
        <HealthTable rows={rows} onStep={onStep} />
      )}
    </section>
  );
}
