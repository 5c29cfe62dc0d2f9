/**
 * The dataset-level panels the toolbar toggles (the team's queues, the overview, a run's health,
 * the judge, calibration, rubrics, exports): each one is a feature's default export, loaded on first open so the first page stays
 * small. A feature adds its panel with one entry here; App renders the toggles and the open panels.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from "react";

export interface DatasetPanel {
  /** Stable: the toggle's test id is `panel.toggle.<id>`, the panel's `panel.<id>`. */
  readonly id: string;
  readonly label: string;
  /** Shown while the panel's code loads. */
  readonly loading: string;
  readonly Component: LazyExoticComponent<ComponentType>;
  /** Offered only when the dataset has training steps (a run, or a file with a step column). */
  readonly stepsOnly?: boolean;
  /** Offered only in team mode (`view RUN --db URL`, issue 18). */
  readonly teamOnly?: boolean;
  /**
   * Shows rewards or judge verdicts over the whole dataset: blind mode replaces it with a note
   * while the annotator has a blind group not submitted (store/team/teamSelectors.ts).
   */
  readonly datasetRewards?: boolean;
}

/**
 * A panel whose component loads on first open: `load` is the feature's dynamic import, so the
 * bundler gives the feature a chunk of its own.
 */
function lazyPanel(
  id: string,
  label: string,
  loading: string,
  load: () => Promise<{ default: ComponentType }>,
): DatasetPanel {
  return { id, label, loading, Component: lazy(load), datasetRewards: true };
}

/**
 * Every panel but the team's shows the dataset's rewards or verdicts (`datasetRewards`): the
 * overview and the run's health chart them, the judge, rubrics, calibration and verifiers score
 * or compare against them, the run comparison compares them, the exports write them.
 */
export const DATASET_PANELS: readonly DatasetPanel[] = [
  // Team mode (issue 18): the person's queues; for a lead, the team's (loaded on first open).
  {
    ...lazyPanel(
      "team",
      "Team",
      "Loading the team…",
      () => import("../features/team/TeamPanel.tsx"),
    ),
    teamOnly: true,
    datasetRewards: false,
  },
  // The overview draws charts: recharts loads with it, not with the first page.
  lazyPanel(
    "overview",
    "Dataset overview",
    "Loading charts…",
    () => import("../features/overview/DatasetOverview.tsx"),
  ),
  // The judge panel; the openai client loads only when a run starts (judgeSlice.judgeRequest).
  // The run across its steps (issue 19): charts with recharts, the health in its own worker.
  {
    ...lazyPanel(
      "health",
      "Run health",
      "Loading the run's health…",
      () => import("../features/health/RunHealthPanel.tsx"),
    ),
    stepsOnly: true,
  },
  lazyPanel(
    "judge",
    "LLM judge",
    "Loading the judge…",
    () => import("../features/judge/JudgePanel.tsx"),
  ),
  lazyPanel(
    "rubrics",
    "Rubrics",
    "Loading rubrics…",
    () => import("../features/rubrics/RubricsPanel.tsx"),
  ),
  lazyPanel(
    "calibration",
    "Calibration",
    "Loading calibration…",
    () => import("../features/calibration/CalibrationPanel.tsx"),
  ),
  // The verifiers (and their JSON-schema validator) load with the panel, or at start when a
  // saved spec exists (store/verifiers/verifierBoot.ts).
  lazyPanel(
    "verifiers",
    "Verifiers",
    "Loading the verifiers…",
    () => import("../features/verifiers/VerifiersPanel.tsx"),
  ),
  // Run against run (issue 19): a second run opened here, compared on the prompts both hold.
  lazyPanel(
    "run-compare",
    "Run vs run",
    "Loading the comparison…",
    () => import("../features/runCompare/RunComparePanel.tsx"),
  ),
  lazyPanel(
    "exports",
    "Exports",
    "Loading exports…",
    () => import("../features/exports/ExportsPanel.tsx"),
  ),
];
