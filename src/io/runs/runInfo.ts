/**
 * What a run's dataset (runDataset.ts) says about itself, for views: its types, its steps, the
 * run id rule and the header's lines. Kept apart from the merge, which pulls in every format's
 * parser through the evaluation reports: the studio's dataset screen imports this module, and the
 * parsers (with zod and their schemas) stay in the load worker.
 */
import type { Rollout } from "../../core/index.ts";
import {
  rolloutRowStep,
  type GroupSummary,
  type LoadedDataset,
  type RunHeader,
} from "../dataset.ts";
import type { RunFile, StepSource } from "./runFiles.ts";

/** One file of a run as loaded: where it sits in the run, and its dataset. */
export interface RunPart {
  readonly file: RunFile;
  readonly dataset: LoadedDataset;
}

/** What a run's dataset says about one of its files. */
export interface RunDatasetFile {
  readonly path: string;
  readonly size: number;
  /** The file's step (its name's, else its place in the run). */
  readonly step: number;
  readonly stepSource: StepSource;
  readonly format: string;
  readonly groups: number;
  readonly rollouts: number;
  readonly indexed: boolean;
}

/** Where a run group came from: the file (its index in `files`) and the id the file gave it. */
export interface RunGroupOrigin {
  readonly file: number;
  readonly localId: string;
}

export interface RunInfo {
  /** The run's name as the user gave it: the folder, or the files. */
  readonly name: string;
  readonly files: readonly RunDatasetFile[];
  /** The evaluation reports of the run (files holding verdicts, no rollouts), by path. */
  readonly reports?: readonly string[];
  /** Distinct steps over the run's groups. */
  readonly steps: number;
  /** Each group's file and file-local id, for the groups whose id the merge changed or not. */
  readonly origins: ReadonlyMap<string, RunGroupOrigin>;
}

/** A run's dataset: a LoadedDataset (every view reads it as one) with what the run is made of. */
export interface RunDataset extends LoadedDataset {
  readonly run: RunInfo;
}

/** The distinct non-null steps of a dataset's groups. */
export function datasetSteps(summaries: readonly Pick<GroupSummary, "step">[]): number {
  const steps = new Set<number>();
  for (const s of summaries) if (s.step !== null) steps.add(s.step);
  return steps.size;
}

/** A group's steps by id, for views that hold a parsed RolloutGroup and want its step. */
export function groupStepsById(
  summaries: readonly Pick<GroupSummary, "id" | "step">[],
): ReadonlyMap<string, number | null> {
  return new Map(summaries.map((s) => [s.id, s.step]));
}

/** The run id of a file-local group id (see the module header for the rule). */
export function runGroupId(localId: string, step: number, single: boolean): string {
  if (single || localId.startsWith(`${step}/`)) return localId;
  return `${step}/${localId}`;
}

/** A run rollout's step, for views holding a Rollout: its row's step, else its group's. */
export function rolloutStepIn(
  rollout: Rollout,
  steps: ReadonlyMap<string, number | null>,
): number | null {
  return rolloutRowStep(rollout) ?? steps.get(rollout.groupId) ?? null;
}

/** True for a run's dataset (several files merged), false for one file's. */
export function isRunDataset(dataset: LoadedDataset): dataset is RunDataset {
  return "run" in dataset;
}

/** A header field's value on one line: text as it is, anything else as JSON, cut at 160 characters. */
function headerValue(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** "name: value" for each of the run header's fields, for a tooltip or the CLI's summary. */
export function runHeaderDetails(header: RunHeader): string[] {
  return Object.entries(header.fields).map(([k, v]) => `${k}: ${headerValue(v)}`);
}
