/**
 * The files of a run, local or remote: one file's load as a part of the run (indexed, read whole,
 * or what it holds instead of rollouts), the run's index, and a group read back through it.
 */
import {
  datasetFromLoad,
  LoadError,
  loadBytes,
  compactIndexedState,
  indexBlobIfPossible,
  readFileBytes,
  readIndexedGroup,
  runFileInstead,
  type RunHeader,
  type ByteSource,
  type IndexedState,
  type LoadedDataset,
  type ParseIssue,
  type RunGroupOrigin,
  type RunReport,
  namedSource,
} from "../io/index.ts";
import type { RolloutGroup } from "../core/index.ts";

/**
 * A run's indexes, for the groups of its files that were indexed: each file's state (null for a
 * file read whole), and where each run group came from (io's runDatasetMerge origins).
 */
export interface RunIndex {
  readonly parts: readonly (IndexedState | null)[];
  readonly origins: ReadonlyMap<string, RunGroupOrigin>;
}

/** What the worker keeps to parse groups on demand: one file's index, or a run's. */
export type WorkerIndex = IndexedState | RunIndex;

export const isRunIndex = (index: WorkerIndex): index is RunIndex => "origins" in index;

export const QUIET = { onProgress: () => undefined, onFirstGroup: () => undefined };

/**
 * One file of a run: indexed when asked and its format can be (its groups then parse on demand),
 * else read and parsed whole. A run of `INDEX_MIN_BYTES` or more is indexed file by file, whatever
 * each file's size: a run of a hundred 20 MB steps is as large as one 2 GB file.
 */
export async function loadRunPart(
  path: string,
  source: ByteSource,
  format: string | undefined,
  index: boolean,
  follow: boolean,
  isCancelled: () => boolean,
  runKind = "files",
): Promise<{ dataset: LoadedDataset; state: IndexedState | null } | RunPartInstead> {
  const file = namedSource(source, path);
  if (index) {
    const indexed = await indexBlobIfPossible(file, format, { ...QUIET, isCancelled }, follow);
    if (indexed !== null)
      return { ...indexed, state: compactIndexedState(indexed.state, indexed.dataset) };
  }
  const bytes = await readFileBytes(file, () => undefined, isCancelled);
  try {
    const result = await loadBytes(path, bytes, format === undefined ? {} : { format });
    return { dataset: datasetFromLoad(result), state: null };
  } catch (e) {
    if (e instanceof LoadError) {
      const instead = runFileInstead(path, runKind, bytes, e);
      if (instead !== null) return instead;
    }
    throw e;
  }
}

/**
 * A run file that holds no rollouts: an evaluation report, the run's header (verifiers'
 * metadata.json), or a file left out with an issue.
 */
export type RunPartInstead =
  { readonly report: RunReport } | { readonly header: RunHeader } | { readonly issue: ParseIssue };

export const isPart = (
  p: { dataset: LoadedDataset; state: IndexedState | null } | RunPartInstead,
): p is { dataset: LoadedDataset; state: IndexedState | null } => "dataset" in p;

/** The run's index, when any file of it was indexed; else null. */
export function runIndexOf(
  states: readonly (IndexedState | null)[],
  dataset: { readonly run: { readonly origins: ReadonlyMap<string, RunGroupOrigin> } },
): RunIndex | null {
  return states.some((s) => s !== null) ? { parts: states, origins: dataset.run.origins } : null;
}

/** Parse one group of an indexed file or run, under its id in the dataset. */
export async function readWorkerGroup(
  index: WorkerIndex,
  groupId: string,
): Promise<{ group: RolloutGroup | null; issues: ParseIssue[] }> {
  if (!isRunIndex(index)) return readIndexedGroup(index, groupId);
  const origin = index.origins.get(groupId);
  const state = origin === undefined ? null : (index.parts[origin.file] ?? null);
  if (origin === undefined || state === null) return { group: null, issues: [] };
  const { group, issues } = await readIndexedGroup(state, origin.localId);
  if (group === null || group.id === groupId) return { group, issues };
  // The run's id is the file's with a prefix (`<step>/`, or `<file>:` for a collision).
  const prefix = groupId.slice(0, groupId.length - origin.localId.length);
  return {
    group: {
      id: groupId,
      rollouts: group.rollouts.map((r) => ({ ...r, id: `${prefix}${r.id}`, groupId })),
    },
    issues,
  };
}

/** One run file's load: its dataset (and index, when indexed), or what it holds instead. */
export type PartLoad = { dataset: LoadedDataset; state: IndexedState | null } | RunPartInstead;
