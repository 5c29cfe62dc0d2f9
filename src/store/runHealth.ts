/**
 * The loaded run's health (issue 19), computed in the health worker and kept while the inputs
 * stay the same: the groups as views show them (the verifiers' overlay included) with each
 * group's step, the analysis settings, the annotations (hack marks, rankings, judge runs) and the
 * diversity sample's size. Like the clusters' cache, it is derived, never persisted; the last
 * result stays on screen while newer inputs compute.
 *
 * An indexed file holds only the groups parsed so far: the health is over those, and says so
 * (`parsedGroups` of `totalGroups`); the reward series of every group come from the summaries
 * (core's rewardStepHealth, in the run view).
 */
import { useEffect, useMemo, useSyncExternalStore } from "react";
import type { AnalysisSettings, Annotations, RolloutGroup, RunHealth } from "../core/index.ts";
import type { LoadedDataset } from "../io/dataset.ts";
import { requestRunHealth, type HealthJob } from "../workers/healthClient.ts";
import type { StepGroup } from "../workers/healthProtocol.ts";
import { useSettings, useViewLoad } from "./hooks.ts";
import { useStore } from "./index.ts";

export type { StepGroup } from "../workers/healthProtocol.ts";

/** What a run's health is computed from. */
export interface RunHealthInput {
  readonly groups: readonly StepGroup[];
  readonly settings: AnalysisSettings;
  readonly clusterSample: number;
  readonly annotations: Annotations;
}

export interface RunHealthResult {
  readonly input: RunHealthInput;
  readonly health: RunHealth;
  /** Milliseconds from the request to the result. */
  readonly ms: number;
}

export interface RunHealthState {
  /** The latest result; while `computing`, the one of the inputs before. */
  readonly result: RunHealthResult | null;
  readonly computing: boolean;
  readonly error: string | null;
}

const IDLE: RunHealthState = { result: null, computing: false, error: null };

const sameInput = (a: RunHealthInput, b: RunHealthInput): boolean =>
  a.groups === b.groups &&
  a.settings === b.settings &&
  a.clusterSample === b.clusterSample &&
  a.annotations === b.annotations;

/** One job at a time: a newer input cancels the one in flight. */
export class RunHealthJobs {
  private state: RunHealthState = IDLE;
  private readonly listeners = new Set<() => void>();
  private job: { readonly input: RunHealthInput; readonly handle: HealthJob } | null = null;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): RunHealthState => this.state;

  private set(state: RunHealthState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  /** Compute the health of `input` unless it is the one shown or on its way. */
  request(input: RunHealthInput): void {
    if (this.job !== null && sameInput(this.job.input, input)) return;
    if (
      this.job === null &&
      this.state.result !== null &&
      sameInput(this.state.result.input, input)
    )
      return;
    this.cancel();
    const started = performance.now();
    const handle = requestRunHealth({
      groups: input.groups,
      settings: input.settings,
      clusterSample: input.clusterSample,
      annotations: input.annotations,
    });
    const job = { input, handle };
    this.job = job;
    this.set({ ...this.state, computing: true, error: null });
    handle.result.then(
      (health) => {
        if (this.job !== job) return;
        this.job = null;
        this.set({
          result: { input, health, ms: performance.now() - started },
          computing: false,
          error: null,
        });
      },
      (e: unknown) => {
        if (this.job !== job) return;
        this.job = null;
        const message = e instanceof Error ? e.message : String(e);
        this.set({ ...this.state, computing: false, error: message });
      },
    );
  }

  /** Stop the job in flight (the view closed, or newer inputs came); the last result stays. */
  cancel(): void {
    const job = this.job;
    if (job === null) return;
    this.job = null;
    // Its result rejects (HEALTH_CANCELLED) into the handler `request` attached, which sees that
    // the job is no longer the current one.
    job.handle.cancel();
    this.set({ ...this.state, computing: false });
  }
}

const jobs = new RunHealthJobs();

/**
 * The groups a run's health reads, each with its step: every group of a whole load, the parsed
 * ones of an indexed file.
 */
export function runHealthGroups(
  dataset: Pick<LoadedDataset, "summaries" | "indexed" | "groups">,
  parsed: ReadonlyMap<string, RolloutGroup>,
): StepGroup[] {
  const steps = new Map(dataset.summaries.map((s) => [s.id, s.step]));
  const groups = dataset.indexed ? [...parsed.values()] : dataset.groups;
  return groups.map((group) => ({ group, step: steps.get(group.id) ?? null }));
}

/**
 * The loaded dataset's health per step, computed in the worker while the view that asks is
 * mounted. Null while nothing is loaded.
 */
export function useRunHealth(): RunHealthState | null {
  const load = useViewLoad();
  const settings = useSettings();
  const annotations = useStore((s) => s.annotations);
  const clusterSample = useStore((s) => s.healthSettings.clusterSample);
  const dataset = load.status === "ready" ? load.dataset : null;
  const parsed = load.status === "ready" ? load.groups : null;
  const groups = useMemo(
    () => (dataset === null || parsed === null ? null : runHealthGroups(dataset, parsed)),
    [dataset, parsed],
  );
  const input = useMemo(
    (): RunHealthInput | null =>
      groups === null ? null : { groups, settings, clusterSample, annotations },
    [groups, settings, clusterSample, annotations],
  );
  // The worker is an external system: ask it for these inputs, and stop it when the view goes.
  useEffect(() => {
    if (input === null) return;
    jobs.request(input);
    return () => jobs.cancel();
  }, [input]);
  const state = useSyncExternalStore(jobs.subscribe, jobs.snapshot);
  return input === null ? null : state;
}
