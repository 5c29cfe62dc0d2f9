/**
 * How the CLI reads a rollout file: small files whole (loadBytes), large JSONL files through the
 * same byte index as the studio's worker, streamed from a file-backed Blob and parsed a group at a
 * time, so the file is never decoded whole. Several files, a folder or globs are one run: each file
 * is read so, then merged by io's `runDatasetMerge`, as the studio merges them.
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { RolloutGroup } from "../core/index.ts";
import {
  applyEvalReports,
  datasetFromLoad,
  evalReportFromBytes,
  formatGroupsAcrossFiles,
  runFileInstead,
  runHeaderFromBytes,
  runHeaderNamesBeside,
  withRunHeader,
  type RunHeader,
  datasetWithParsedGroups,
  groupStepsById,
  INDEX_MIN_BYTES,
  compactIndexedState,
  indexBlobIfPossible,
  LoadError,
  loadBytes,
  readIndexedGroup,
  runDatasetMerge,
  type FormatOptions,
  type GroupSummary,
  type IndexCallbacks,
  type IndexedState,
  type LoadedDataset,
  type LoadStats,
  type ParsedGroup,
  type ParseIssue,
  type RunInfo,
  type RunReport,
} from "../io/index.ts";
import { nodeFileSource } from "../io/stream/nodeFileSource.ts";
import { readBytes } from "./readBytes.ts";
import { cliRunOf } from "./runPaths.ts";

/** What the CLI needs from a load, whichever path read it. */
export interface CliLoad {
  readonly file: string;
  readonly format: string;
  readonly formatLabel: string;
  readonly groupKey: string;
  readonly groups: readonly RolloutGroup[];
  readonly issues: readonly ParseIssue[];
  readonly stats: LoadStats;
  /** Every group's summary, with its step (null for a single file without a step column). */
  readonly summaries: readonly GroupSummary[];
  /** What the run is made of, when PATH named a folder, several files or a glob. */
  readonly run?: RunInfo;
  /** The run's header file (verifiers' metadata.json), when one was found. */
  readonly header?: RunHeader;
}

/** Each group's step by id, for the JSON output and the step lines. */
export function cliGroupSteps(loaded: CliLoad): ReadonlyMap<string, number | null> {
  return groupStepsById(loaded.summaries);
}

/** The size from which JSONL is indexed; ROLLOUT_STUDIO_INDEX_THRESHOLD (bytes) overrides it. */
export function indexThreshold(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.ROLLOUT_STUDIO_INDEX_THRESHOLD;
  const value = raw === undefined || raw.trim() === "" ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : INDEX_MIN_BYTES;
}

/** An indexed JSONL file: its dataset of summaries (its first group parsed) and its index. */
export interface CliIndexedFile {
  readonly dataset: LoadedDataset;
  readonly state: IndexedState;
}

/**
 * Index `path` as loadForCli does for a large JSONL file: null when it is below the threshold, read
 * through a field mapping, or of a format that is not indexed (load it whole instead). `onRows`
 * sees the index grow (io's IndexCallbacks).
 */
export async function indexForCli(
  path: string,
  name: string,
  format: string | undefined,
  options: FormatOptions | undefined,
  threshold: number,
  size: number,
  onRows?: IndexCallbacks["onRows"],
): Promise<CliIndexedFile | null> {
  if (size < threshold || options !== undefined) return null;
  // Positioned reads (io's nodeFileSource), not a file-backed Blob: Node's Blob reads 64 KB
  // pieces and copies them into a new buffer per read.
  const file = await nodeFileSource(path, name, size);
  const indexed = await indexBlobIfPossible(file, format, {
    isCancelled: () => false,
    onProgress: () => undefined,
    onFirstGroup: () => undefined,
    ...(onRows === undefined ? {} : { onRows }),
  });
  // Only what reading the groups needs is kept while they are read.
  return indexed === null
    ? null
    : { ...indexed, state: compactIndexedState(indexed.state, indexed.dataset) };
}

/**
 * Every group of an indexed file parsed in full, in the summaries' order, one at a time (a caller
 * that drops each keeps memory bounded). `fresh` is false for a group the index parsed already
 * (the first, for its preview), which its dataset counts; merge only the fresh ones.
 */
export async function* indexedGroupsForCli(
  indexed: CliIndexedFile,
): AsyncGenerator<{ readonly group: ParsedGroup; readonly fresh: boolean }> {
  const fresh = freshGroups(indexed);
  let g = 0;
  for (const summary of indexed.dataset.summaries) {
    const { group, issues } = await readIndexedGroup(indexed.state, summary.id);
    yield { group: { groupId: summary.id, group, issues }, fresh: fresh[g++] === 1 };
  }
}

/**
 * Per summary, 1 when its group is merged into the dataset once parsed: its id's first time in
 * the summaries, and not a group the index parsed already.
 */
export function freshGroups(indexed: CliIndexedFile): Uint8Array {
  const already = new Set(indexed.dataset.groups.map((g) => g.id));
  const out = new Uint8Array(indexed.dataset.summaries.length);
  indexed.dataset.summaries.forEach((summary, g) => {
    if (already.has(summary.id)) return;
    already.add(summary.id);
    out[g] = 1;
  });
  return out;
}

/** The error of an indexed file none of whose rows the full parser accepted. */
export function noRolloutRead(name: string, dataset: LoadedDataset): LoadError {
  return new LoadError(
    name,
    `no rollout could be read (${dataset.stats.records} records, every one rejected)`,
  );
}

export async function loadForCli(
  path: string,
  name: string,
  format: string | undefined,
  options: FormatOptions | undefined,
  threshold: number,
): Promise<LoadedDataset> {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    // readBytes names the problem (no such file, a directory, permissions).
    return datasetFromLoad(
      await loadBytes(name, readBytes(path, "rollout file"), { format, options }),
    );
  }
  const indexed = await indexForCli(path, name, format, options, threshold, size);
  if (indexed !== null) {
    const groups: RolloutGroup[] = [];
    const parsed: ParsedGroup[] = [];
    for await (const { group, fresh } of indexedGroupsForCli(indexed)) {
      if (fresh) parsed.push(group);
      if (group.group !== null) groups.push(group.group);
    }
    // One merge for every group: one call per group copied the summaries each time (quadratic).
    const dataset = datasetWithParsedGroups(indexed.dataset, parsed);
    if (groups.length === 0) throw noRolloutRead(name, dataset);
    return { ...dataset, groups };
  }
  return datasetFromLoad(
    await loadBytes(name, readBytes(path, "rollout file"), { format, options }),
  );
}

/**
 * Load the run PATH arguments name (see ./runPaths.ts): one file exactly as `loadForCli`, else
 * every file of the run (`--format` applies to each) merged into one dataset.
 *
 * @throws UsageError for paths that name no run; LoadError for a file that does not load
 */
export async function loadRunForCli(
  cwd: string,
  paths: readonly string[],
  format: string | undefined,
  options: FormatOptions | undefined,
  threshold: number,
): Promise<CliLoad> {
  const run = cliRunOf(cwd, paths);
  if (run.single) {
    const path = run.absolute.get(run.name)!;
    const dataset = await loadForCli(path, run.name, format, options, threshold);
    return withRunHeader(
      applyEvalReports(dataset, reportsBeside(path, run.name, dataset.format), undefined, false),
      headersBeside(path, run.name, dataset.format),
    );
  }
  const parts = [];
  const reports: RunReport[] = [];
  const headers: RunHeader[] = [];
  const leftOut: ParseIssue[] = [];
  for (const file of run.run.files) {
    const path = run.absolute.get(file.path)!;
    try {
      const dataset = await loadForCli(path, file.path, format, options, threshold);
      parts.push({ file, dataset });
    } catch (e) {
      if (!(e instanceof LoadError)) throw e;
      const instead = runFileInstead(file.path, run.run.kind, readBytes(path, "rollout file"), e);
      if (instead === null) throw e;
      if ("report" in instead) reports.push(instead.report);
      else if ("header" in instead) headers.push(instead.header);
      else leftOut.push(instead.issue);
    }
  }
  if (parts.length === 0)
    throw new LoadError(run.name, "no file of the run holds rollouts (only evaluation reports)");
  const merged = withRunHeader(runDatasetMerge(run.name, parts, reports), headers);
  return leftOut.length === 0 ? merged : { ...merged, issues: [...leftOut, ...merged.issues] };
}

/** The run header beside one file given alone (verifiers' `metadata.json`), if any. */
export function headersBeside(path: string, shown: string, format: string): RunHeader[] {
  for (const name of runHeaderNamesBeside(basename(path), format)) {
    const candidate = join(dirname(path), name);
    if (!existsSync(candidate)) continue;
    let header: RunHeader | null = null;
    try {
      header = runHeaderFromBytes(join(dirname(shown), name), readBytes(candidate, "run header"));
    } catch {
      header = null;
    }
    if (header !== null) return [header];
  }
  return [];
}

/** Report names looked for beside one trajectory file (and, for Harbor's `agent/`, above it). */
const BESIDE = ["report.json", "result.json", "results.json"];

/**
 * The evaluation reports beside a single trajectory file given alone (OpenHands' `report.json`
 * beside `output.jsonl`, Harbor's trial `result.json` above `agent/trajectory.json`, a SWE-bench
 * `report.json` beside a `.traj`). Only for the trajectory formats; unreadable ones are skipped.
 */
export function reportsBeside(path: string, shown: string, format: string): RunReport[] {
  if (!formatGroupsAcrossFiles(format)) return [];
  const dir = dirname(path);
  const dirs = dir.endsWith("/agent") || dir.endsWith("\\agent") ? [dir, dirname(dir)] : [dir];
  const out: RunReport[] = [];
  for (const d of dirs)
    for (const name of BESIDE) {
      const candidate = join(d, name);
      if (candidate === path || !existsSync(candidate)) continue;
      let report = null;
      try {
        report = evalReportFromBytes(readBytes(candidate, "report"));
      } catch {
        report = null;
      }
      if (report !== null)
        out.push({ file: join(dirname(shown), d === dir ? "" : "..", name), report });
    }
  return out;
}
