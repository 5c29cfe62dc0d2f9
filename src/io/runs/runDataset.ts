/**
 * A run's dataset (issue 14): the per-file loads of one run merged into ONE dataset, so the CLI
 * and the studio count, analyse and annotate a training run as one thing. Pure; the CLI
 * (src/cli/loadRun.ts) and the studio's load path (store/runLoad.ts) both call it, so their
 * numbers agree.
 *
 * Group identity includes the step:
 * - a group whose id already starts with `<its rows' step>/` (TRL's and verl's `<step>/<hash>`)
 *   keeps its id: the step is not prefixed twice;
 * - in a run of several files, any other group becomes `<step>/<id>` (and its defaulted or own
 *   rollout ids `<step>/<rollout id>`), so two files' "group-1" stay two groups;
 * - a run of one file keeps every id as the file gave it: it is exactly the file's dataset, so
 *   annotations made on that file keep matching.
 * The step is the rows' step column where the format has one (it wins), else the file's step
 * (from its name, else its place in the run). A file whose rows carry a step other than its name's
 * gets one issue. Two files that still give one id (two files of one step with the same prompt) keep
 * the later file's group apart as `<file path>:<id>`, with one issue per file.
 *
 * Agent trajectories (formats whose files are one rollout each: swe-agent, openhands, atif;
 * catalog `groupsAcrossFiles`) are grouped across the files instead: their files share one step
 * (none, unless their names give one), so the trajectories of one instance or task in several files
 * are ONE group, each rollout's id prefixed with its file's path (`<file>:<id>`) to keep it unique.
 * The run's evaluation reports (evalReports.ts) then give those rollouts their rewards.
 */
import type { Rollout, RolloutGroup } from "../../core/index.ts";
import { groupRowStep, type GroupSummary, type LoadedDataset } from "../dataset.ts";
import type { ParseIssue } from "../issues.ts";
import type { RunFile } from "./runFiles.ts";
import { formatGroupsAcrossFiles } from "../formats/catalog.ts";
import { applyEvalReports, type RunReport } from "./evalReports.ts";

export {
  datasetSteps,
  groupStepsById,
  isRunDataset,
  rolloutStepIn,
  runGroupId,
  type RunDataset,
  type RunDatasetFile,
  type RunGroupOrigin,
  type RunInfo,
  type RunPart,
} from "./runInfo.ts";
import {
  datasetSteps,
  runGroupId,
  type RunDataset,
  type RunDatasetFile,
  type RunGroupOrigin,
  type RunPart,
} from "./runInfo.ts";

/** A file-local group's name in the run: its run id, its rollouts' id prefix and its step. */
export interface RunGroupName {
  readonly id: string;
  /** Prepended to each rollout's id when the group's id changed (`<step>/`, or `<file>:`). */
  readonly prefix: string;
  readonly step: number | null;
}

/** A file's group under its run name: its id, and its rollouts' ids and group id. */
export function runGroupRenamed(group: RolloutGroup, name: RunGroupName): RolloutGroup {
  if (name.id === group.id) return group;
  const { id, prefix } = name;
  return {
    id,
    rollouts: group.rollouts.map((r): Rollout => ({ ...r, id: `${prefix}${r.id}`, groupId: id })),
  };
}

/** The step a file's rows carry, when they carry one: its first group's with a step. */
function rowsStep(dataset: LoadedDataset): number | null {
  for (const s of dataset.summaries) if (s.step !== null) return s.step;
  for (const g of dataset.groups) {
    const step = groupRowStep(g);
    if (step !== null) return step;
  }
  return null;
}

/** One file's groups named in its run (`runFileGroupNames`). */
export interface RunFileNames {
  /** By the file's own group id: the group's run name (the last summary's, for a repeated id). */
  readonly names: ReadonlyMap<string, RunGroupName>;
  /** The file's summaries under their run ids and steps. */
  readonly summaries: readonly GroupSummary[];
  /** A step its rows and its name disagree on, and the ids another file gave already. */
  readonly issues: readonly ParseIssue[];
}

/**
 * The run names of one file's groups, as the merge gives them (see the module header; not for a
 * format that groups across files). `taken` holds the run ids given so far; `claim` is called
 * for each new one, in the summaries' order, before the next is named. The CLI's `health` names a
 * streamed run's groups with it, file by file, so its ids are the merge's.
 */
export function runFileGroupNames(
  file: RunFile,
  dataset: LoadedDataset,
  single: boolean,
  taken: { has(id: string): boolean },
  claim: (id: string, localId: string) => void,
): RunFileNames {
  const issues: ParseIssue[] = [];
  const carried = rowsStep(dataset);
  if (!single && file.stepSource !== "file-order" && carried !== null && carried !== file.step) {
    issues.push({
      file: dataset.file,
      line: 0,
      field: "step",
      message: `the rows carry step ${carried} but the file name says ${file.step}; the rows' step is kept`,
    });
  }
  const names = new Map<string, RunGroupName>();
  const summaries: GroupSummary[] = [];
  let collided = 0;
  for (const s of dataset.summaries) {
    const step = s.step ?? (single ? null : file.step);
    let id = step === null ? s.id : runGroupId(s.id, step, single);
    let prefix = id === s.id ? "" : `${step}/`;
    if (taken.has(id)) {
      collided++;
      id = `${dataset.file}:${s.id}`;
      prefix = `${dataset.file}:`;
    }
    names.set(s.id, { id, prefix, step });
    claim(id, s.id);
    summaries.push({ ...s, id, step });
  }
  if (collided > 0) {
    issues.push({
      file: dataset.file,
      line: 0,
      message: `${collided} group id(s) were already given by another file of the run; they are kept apart as "${dataset.file}:<id>"`,
    });
  }
  return { names, summaries, issues };
}

/** What the run's file list says of one file. */
function runFileEntry(file: RunFile, dataset: LoadedDataset): RunDatasetFile {
  return {
    path: file.path,
    size: file.size,
    step: file.step,
    stepSource: file.stepSource,
    format: dataset.format,
    groups: dataset.summaries.length,
    rollouts: dataset.stats.rollouts,
    indexed: dataset.indexed,
  };
}

/**
 * Merge the loads of one run's files (in run order) into one dataset.
 *
 * @param name the run's name as given (a folder, or the files' names joined)
 * @param parts each file of the run and its load, in step order
 * @param reports the run's evaluation reports (files that hold verdicts, not rollouts)
 * @throws Error when `parts` is empty: a run has at least one file
 */
export function runDatasetMerge(
  name: string,
  parts: readonly RunPart[],
  reports: readonly RunReport[] = [],
): RunDataset {
  const first = parts[0];
  if (first === undefined) throw new Error("a run needs at least one file");
  const single = parts.length === 1;
  const summaries: GroupSummary[] = [];
  const groups: RolloutGroup[] = [];
  const issues: ParseIssue[] = [];
  const origins = new Map<string, RunGroupOrigin>();
  const files: RunDatasetFile[] = [];

  // Where each across-file group sits in `groups` and `summaries`, to add a later file's rollouts.
  const mergedAt = new Map<string, { group: number; summary: number }>();
  parts.forEach(({ file, dataset }, index) => {
    if (!single && formatGroupsAcrossFiles(dataset.format)) {
      mergeAcrossFiles(file, dataset, index);
      return;
    }
    const named = runFileGroupNames(file, dataset, single, origins, (id, localId) =>
      origins.set(id, { file: index, localId }),
    );
    for (const s of named.summaries) summaries.push(s);
    for (const issue of named.issues) issues.push(issue);
    for (const g of dataset.groups) {
      const to = named.names.get(g.id);
      groups.push(to === undefined ? g : runGroupRenamed(g, to));
    }
    // A loop, not push(...): a spread of a file's issues overflows the stack past ~120,000.
    for (const issue of dataset.issues) issues.push(issue);
    files.push(runFileEntry(file, dataset));
  });

  /** One trajectory file: its groups join the run's groups of the same id (and step, if named). */
  function mergeAcrossFiles(file: RunFile, dataset: LoadedDataset, index: number): void {
    const step = file.stepSource === "file-order" ? null : file.step;
    const prefix = `${dataset.file}:`;
    const byId = new Map(dataset.groups.map((g) => [g.id, g]));
    for (const s of dataset.summaries) {
      const id = step === null ? s.id : runGroupId(s.id, step, false);
      const local = byId.get(s.id);
      const rollouts =
        local === undefined
          ? []
          : local.rollouts.map((r): Rollout => ({ ...r, id: `${prefix}${r.id}`, groupId: id }));
      const at = mergedAt.get(id);
      if (at === undefined) {
        mergedAt.set(id, { group: groups.length, summary: summaries.length });
        origins.set(id, { file: index, localId: s.id });
        summaries.push({ ...s, id, step, partial: false });
        groups.push({ id, rollouts: rollouts.map((r, i) => ({ ...r, index: i })) });
      } else {
        const g = groups[at.group]!;
        const all = [...g.rollouts, ...rollouts].map((r, i) => ({ ...r, index: i }));
        groups[at.group] = { id, rollouts: all };
        const old = summaries[at.summary]!;
        summaries[at.summary] = { ...old, rewards: [...old.rewards, ...s.rewards] };
      }
    }
    for (const issue of dataset.issues) issues.push(issue);
    files.push(runFileEntry(file, dataset));
  }

  const labels = [...new Set(parts.map((p) => p.dataset.formatLabel))];
  const sum = (key: keyof LoadedDataset["stats"]): number =>
    parts.reduce((s, p) => s + (p.dataset.stats[key] ?? 0), 0);
  const across = !single && parts.every((p) => formatGroupsAcrossFiles(p.dataset.format));
  const merged: RunDataset = {
    file: single ? first.dataset.file : name,
    container: first.dataset.container,
    format: first.dataset.format,
    formatLabel: labels.join(", "),
    // TRL's and verl's keys start with the step already; any other key is kept apart per step.
    groupKey:
      single || across || first.dataset.groupKey.startsWith("(step,")
        ? first.dataset.groupKey
        : `${first.dataset.groupKey} per step`,
    candidates: first.dataset.candidates,
    stats: {
      lines: sum("lines"),
      records: sum("records"),
      rollouts: sum("rollouts"),
      rejected: sum("rejected"),
      blank: sum("blank"),
      ...(sum("split") > 0 ? { split: sum("split") } : {}),
    },
    issues,
    summaries,
    indexed: parts.some((p) => p.dataset.indexed),
    groups,
    run: {
      name,
      files,
      steps: datasetSteps(summaries),
      origins,
      ...(reports.length > 0 ? { reports: reports.map((r) => r.file) } : {}),
    },
  };
  const scored = applyEvalReports(merged, reports, (id) => origins.get(id)?.localId ?? id);
  return scored === merged ? merged : { ...merged, ...scored, run: merged.run };
}
