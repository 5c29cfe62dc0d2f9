/**
 * The run view's five charts over the steps in the brush's range, each with its detector's fired
 * steps shaded and its alerts' steps dashed (core's rule per chart: zero-std on the shares,
 * component dominance on the rewards, length drift on the length, diversity collapse on the
 * diversity, hack spread on the hacks).
 */
import type { AnalysisSettings, DetectorResult, HealthRule } from "../../../core/index.ts";
import { chartNotes } from "./chartNotes.ts";
import { firedSteps } from "./detectorModel.ts";
import {
  DiversityChart,
  HackChart,
  LengthChart,
  RewardChart,
  SharesChart,
  type StepChartProps,
} from "./HealthCharts.tsx";
import { firedSpans, type HealthChartRow, type HealthView } from "./healthModel.ts";
import styles from "./Health.module.css";

export default function HealthChartGrid({
  rows,
  view,
  detectors,
  settings,
  clusterSample,
  subject,
  onStep,
}: {
  rows: readonly HealthChartRow[];
  view: HealthView;
  detectors: readonly DetectorResult[];
  settings: AnalysisSettings;
  clusterSample: number;
  subject: string;
  onStep: (step: number) => void;
}) {
  const steps = rows.map((r) => r.step);
  const first = steps[0] ?? 0;
  const last = steps[steps.length - 1] ?? 0;
  const props = (rule: HealthRule): StepChartProps => ({
    rows,
    spans: firedSpans(firedSteps(detectors, rule), steps),
    alerts: (detectors.find((d) => d.rule === rule)?.alerts ?? []).filter(
      (a) => a.step >= first && a.step <= last,
    ),
    subject,
    onStep,
  });
  const notes = chartNotes(view, settings, clusterSample);
  return (
    <div className={styles.grid} data-testid="health-charts">
      <SharesChart p={props("zero-std")} how={notes.shares} />
      <RewardChart
        p={props("component-dominance")}
        how={notes.reward}
        components={view.run.components}
      />
      <LengthChart p={props("length-drift")} how={notes.length} />
      <DiversityChart p={props("diversity-collapse")} how={notes.diversity} />
      <HackChart
        p={props("hack-spread")}
        how={notes.hacks}
        corrected={rows.some((r) => r.hackCorrected !== null)}
      />
    </div>
  );
}
