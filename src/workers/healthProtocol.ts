/**
 * The typed protocol between the main thread and the health worker (issue 19): a run's health
 * over the loaded groups off the main thread. Clustering each step's sample and comparing every
 * rollout with the marked hacks take about half a second for a run of 4,000 rollouts, and grow
 * with the run, so the run view asks the worker and the page stays responsive.
 */
import type { AnalysisSettings, Annotations, RolloutGroup, RunHealth } from "../core/index.ts";

/** A loaded group and its step (null: the group has none). */
export interface StepGroup {
  readonly group: RolloutGroup;
  readonly step: number | null;
}

/** The run's health over these groups under the settings, with the annotations' hack marks. */
export interface HealthRequest {
  readonly kind: "health";
  readonly requestId: number;
  readonly groups: readonly StepGroup[];
  readonly settings: AnalysisSettings;
  /** Groups clustered per step for the diversity series (HealthSettings.clusterSample). */
  readonly clusterSample: number;
  readonly annotations: Annotations | null;
}

export type HealthReply =
  | { readonly kind: "health"; readonly requestId: number; readonly result: RunHealth }
  | { readonly kind: "error"; readonly requestId: number; readonly message: string };
