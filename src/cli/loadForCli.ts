/**
 * How the CLI reads a rollout file: small files whole (loadBytes), large JSONL files through the
 * same byte index as the studio's worker, streamed from a file-backed Blob and parsed a group at a
 * time, so the file is never decoded whole. Several files, a folder or globs are one run: each file
 * is read so, then merged by io's `runDatasetMerge`, as the studio merges them.
 */
import { openAsBlob, statSync } from "node:fs";
import type { RolloutGroup } from "../core/index.ts";
import {
  datasetFromLoad,
  datasetWithParsedGroups,
  groupStepsById,
  INDEX_MIN_BYTES,
  indexBlobIfPossible,
  LoadError,
  loadBytes,
  readIndexedGroup,
  runDatasetMerge,
  type FormatOptions,
  type GroupSummary,
  type LoadedDataset,
  type LoadStats,
  type ParsedGroup,
  type ParseIssue,
  type RunInfo,
} from "../io/index.ts";
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
  if (size >= threshold && options === undefined) {
    const file = new File([await openAsBlob(path)], name);
    const indexed = await indexBlobIfPossible(file, format, {
      isCancelled: () => false,
      onProgress: () => undefined,
      onFirstGroup: () => undefined,
    });
    if (indexed !== null) {
      const groups: RolloutGroup[] = [];
      const parsed: ParsedGroup[] = [];
      // The groups the index already parsed (the first group, for its preview) are not merged again.
      const already = new Set(indexed.dataset.groups.map((g) => g.id));
      for (const summary of indexed.dataset.summaries) {
        const { group, issues } = await readIndexedGroup(indexed.state, summary.id);
        if (!already.has(summary.id)) {
          already.add(summary.id);
          parsed.push({ groupId: summary.id, group, issues });
        }
        if (group !== null) groups.push(group);
      }
      // One merge for every group: one call per group copied the summaries each time (quadratic).
      const dataset = datasetWithParsedGroups(indexed.dataset, parsed);
      if (groups.length === 0)
        throw new LoadError(
          name,
          `no rollout could be read (${dataset.stats.records} records, every one rejected)`,
        );
      return { ...dataset, groups };
    }
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
  if (run.single)
    return loadForCli(run.absolute.get(run.name)!, run.name, format, options, threshold);
  const parts = [];
  for (const file of run.run.files) {
    const dataset = await loadForCli(
      run.absolute.get(file.path)!,
      file.path,
      format,
      options,
      threshold,
    );
    parts.push({ file, dataset });
  }
  return runDatasetMerge(run.name, parts);
}
