/**
 * Runs, not files (issue 14): the files of a training run gathered from a listing, each with the
 * step it holds. Pure: it takes a listing (paths relative to the folder given, with `/`), so the
 * CLI, the `view` server and the studio's folder picker share one rule.
 *
 * Where a file's step comes from, first match wins:
 * - TRL's `completions/completions_00010.parquet` (also `.jsonl`, `.csv`): the number, 10;
 * - verl's `rollout_data_dir/{global_step}.jsonl`: the file name is the step;
 * - a name with `step` or `global_step` and a number (`step_40.jsonl`, `rollouts-step12.jsonl`);
 * - else the file's place in the run, in name order (natural: `2` before `10`), from 0.
 * The loaders' own `step` column (TRL's, verl's) is kept in the group id as well; the file's step
 * is what tells two files' groups apart when their rows carry none.
 *
 * A run is the data files of one folder. A folder with one data file, or files with no step in
 * their names, is still one run; its steps are the file order.
 *
 * Agent trajectories are the exception: SWE-agent writes `<instance>/<instance>.traj` and Harbor
 * `<trial>/agent/trajectory.json`, one folder per rollout. A listing that holds such trajectories is
 * ONE run of them (kind "agent-trajectories", at their common folder), with the JSON files beside
 * them that may be evaluation reports (`report.json`, `result.json`, `results.json` anywhere in
 * the listing, any `.json` in the common folder); its other files are not part of it. The loaders group
 * trajectories across the files (runDataset.ts) and read the reports for rewards.
 */

/** One file of a listing: its path under the folder given (`/`-separated), size and time. */
export interface RunListingEntry {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

export type StepSource = "trl-name" | "verl-name" | "step-name" | "file-order";

export interface RunFile extends RunListingEntry {
  /** The step this file holds. */
  readonly step: number;
  readonly stepSource: StepSource;
}

export type RunKind =
  "trl-completions" | "verl-steps" | "inspect-logs" | "agent-trajectories" | "files";

export interface Run {
  /** The folder, relative to the path given ("" for the folder itself). */
  readonly dir: string;
  readonly kind: RunKind;
  /** Data files in step order (then name). */
  readonly files: readonly RunFile[];
}

/** File names a run is made of: the containers the loaders read. */
const DATA_FILE = /\.(jsonl|ndjson|json|parquet|csv|eval|traj)$/i;

/** An agent trajectory file by its name: SWE-agent's `.traj` (`.traj.json`), Harbor's `trajectory.json`. */
export function isTrajectoryPath(path: string): boolean {
  const name = baseName(path);
  return /\.traj(\.json)?$/i.test(name) || name.toLowerCase() === "trajectory.json";
}

/** A file beside trajectories that may be an evaluation report (read by content: evalReports.ts). */
const REPORT_NAME = /^(report|result|results)\.json$/i;

/** Run configurations beside trajectories (Harbor's `config.json`): never a report, not data. */
const CONFIG_NAME = /^(config|metadata)\.json$/i;

/** Folders never scanned: VCS, caches, our own state, dependencies. */
const SKIPPED_DIRS = new Set([".git", ".rollout-studio", "node_modules", "__pycache__", ".cache"]);

/** True for a path a run can hold: a data file outside skipped and hidden folders. */
export function isRunDataPath(path: string): boolean {
  const parts = path.split("/");
  const name = parts[parts.length - 1] ?? "";
  if (!DATA_FILE.test(name) || name.startsWith(".")) return false;
  return parts.slice(0, -1).every((d) => !SKIPPED_DIRS.has(d) && !d.startsWith("."));
}

const baseName = (path: string): string => path.slice(path.lastIndexOf("/") + 1);
const dirName = (path: string): string => {
  const i = path.lastIndexOf("/");
  return i === -1 ? "" : path.slice(0, i);
};

/** The step a file's name gives, and which rule gave it; null when the name has none. */
export function stepFromFileName(path: string): { step: number; source: StepSource } | null {
  const name = baseName(path);
  const trl = /^completions_(\d+)\.(parquet|jsonl|csv)$/i.exec(name);
  if (trl !== null) return { step: Number(trl[1]), source: "trl-name" };
  const verl = /^(\d+)\.jsonl$/i.exec(name);
  if (verl !== null) return { step: Number(verl[1]), source: "verl-name" };
  const named = /(?:^|[^a-z])(?:global_)?step[_-]?(\d+)(?!\d)/i.exec(name);
  if (named !== null) return { step: Number(named[1]), source: "step-name" };
  return null;
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

function runKind(files: readonly RunFile[]): RunKind {
  if (files.length === 0) return "files";
  if (files.some((f) => isTrajectoryPath(f.path))) return "agent-trajectories";
  if (files.every((f) => f.stepSource === "trl-name")) return "trl-completions";
  if (files.every((f) => f.stepSource === "verl-name")) return "verl-steps";
  if (files.every((f) => /\.eval$/i.test(f.path))) return "inspect-logs";
  return "files";
}

/**
 * The runs of a listing: one per folder that holds data files, in folder order, each file with
 * its step. A folder where some names give a step and some do not uses the file order for all,
 * so one run never mixes two numberings.
 */
export function gatherRuns(entries: readonly RunListingEntry[]): Run[] {
  const data = entries.filter((e) => isRunDataPath(e.path));
  const trajectories = data.filter((e) => isTrajectoryPath(e.path));
  if (trajectories.length > 0) return [trajectoryRun(data, trajectories)];
  const byDir = new Map<string, RunListingEntry[]>();
  for (const e of data) {
    const dir = dirName(e.path);
    const list = byDir.get(dir);
    if (list === undefined) byDir.set(dir, [e]);
    else list.push(e);
  }
  const runs: Run[] = [];
  for (const dir of [...byDir.keys()].sort(collator.compare)) {
    const list = [...byDir.get(dir)!].sort((a, b) => collator.compare(a.path, b.path));
    const named = list.map((e) => stepFromFileName(e.path));
    const allNamed = named.every((n) => n !== null);
    const files = list.map((e, i): RunFile =>
      allNamed
        ? { ...e, step: named[i]!.step, stepSource: named[i]!.source }
        : { ...e, step: i, stepSource: "file-order" },
    );
    files.sort((a, b) => a.step - b.step || collator.compare(a.path, b.path));
    runs.push({ dir, kind: runKind(files), files });
  }
  return runs;
}

/** The common folder of some paths ("" for the listing's root). */
function commonDir(paths: readonly string[]): string {
  let common: string[] | null = null;
  for (const p of paths) {
    const dirs = dirName(p) === "" ? [] : dirName(p).split("/");
    if (common === null) common = dirs;
    else {
      let i = 0;
      while (i < common.length && i < dirs.length && common[i] === dirs[i]) i++;
      common = common.slice(0, i);
    }
  }
  return (common ?? []).join("/");
}

/** The one run of a listing holding agent trajectories: them, and the reports beside them. */
function trajectoryRun(
  data: readonly RunListingEntry[],
  trajectories: readonly RunListingEntry[],
): Run {
  const dir = commonDir(trajectories.map((t) => t.path));
  // Report names anywhere (Harbor's trial `result.json` sits above `agent/`), any JSON beside the
  // trajectories' common folder.
  const reports = data.filter(
    (e) =>
      !isTrajectoryPath(e.path) &&
      /\.json$/i.test(e.path) &&
      (REPORT_NAME.test(baseName(e.path)) ||
        (dirName(e.path) === dir && !CONFIG_NAME.test(baseName(e.path)))),
  );
  const files = [...trajectories, ...reports]
    .sort((a, b) => collator.compare(a.path, b.path))
    // One shared step: trajectories are grouped across files, not told apart by their order.
    .map((e): RunFile => ({ ...e, step: 0, stepSource: "file-order" }));
  return { dir, kind: "agent-trajectories", files };
}

/**
 * A run's files given one by one (the CLI's several paths, the studio's several dropped files):
 * in the order given when no name has a step, else by step. Names are kept as given.
 */
export function runOfFiles(entries: readonly RunListingEntry[]): Run {
  const named = entries.map((e) => stepFromFileName(e.path));
  const allNamed = named.length > 0 && named.every((n) => n !== null);
  const files = entries.map((e, i): RunFile =>
    allNamed
      ? { ...e, step: named[i]!.step, stepSource: named[i]!.source }
      : { ...e, step: i, stepSource: "file-order" },
  );
  if (allNamed) files.sort((a, b) => a.step - b.step || collator.compare(a.path, b.path));
  return { dir: "", kind: runKind(files), files };
}
