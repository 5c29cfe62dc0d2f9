/**
 * The dataset-level panels the toolbar toggles (the overview, the judge, calibration, rubrics,
 * exports): each one is a feature's default export, loaded on first open so the first page stays
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
}

export const DATASET_PANELS: readonly DatasetPanel[] = [
  {
    id: "overview",
    label: "Dataset overview",
    loading: "Loading charts…",
    // The overview draws charts: recharts loads with it, not with the first page.
    Component: lazy(() => import("../features/overview/DatasetOverview.tsx")),
  },
  {
    id: "judge",
    label: "LLM judge",
    loading: "Loading the judge…",
    // The judge panel; the openai client loads only when a run starts (judgeSlice.judgeRequest).
    Component: lazy(() => import("../features/judge/JudgePanel.tsx")),
  },
  {
    id: "rubrics",
    label: "Rubrics",
    loading: "Loading rubrics…",
    Component: lazy(() => import("../features/rubrics/RubricsPanel.tsx")),
  },
  {
    id: "calibration",
    label: "Calibration",
    loading: "Loading calibration…",
    Component: lazy(() => import("../features/calibration/CalibrationPanel.tsx")),
  },
  {
    id: "verifiers",
    label: "Verifiers",
    loading: "Loading the verifiers…",
    // The verifiers (and their JSON-schema validator) load with the panel, or at start when a
    // saved spec exists (store/verifiers/verifierBoot.ts).
    Component: lazy(() => import("../features/verifiers/VerifiersPanel.tsx")),
  },
  {
    id: "exports",
    label: "Exports",
    loading: "Loading exports…",
    Component: lazy(() => import("../features/exports/ExportsPanel.tsx")),
  },
];
