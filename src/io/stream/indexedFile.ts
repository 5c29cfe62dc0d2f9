/**
 * The large-file path (performance.md section 11): index a JSONL file on bytes with a BYOB reader
 * and one reused 1 MB buffer (in the browser's worker, and in the CLI through a file-backed Blob),
 * keep only offsets, group keys and rewards, post the first group as
 * soon as it is known, and parse a group's rows only when someone opens it. Never File.text(), never
 * a whole-file decode.
 *
 * This module indexes (handleRows over the indexer's rows) and builds the dataset; beside it are
 * what the index keeps (indexedState.ts), the format's choice (indexFormat.ts), duplicate ids
 * (indexDuplicates.ts) and a group's parse on demand (readIndexedGroup.ts).
 */
import {
  datasetWithParsedGroup,
  flatPreview,
  groupIdStep,
  partialBelow,
  type LoadedDataset,
} from "../dataset.ts";
import { chooseFormat, type FormatCandidate } from "../formats/load.ts";
import type { FormatSpec } from "../formats/spec.ts";
import { formatIndexFor, type FormatIndexSpec } from "../byteIndex/formatIndex.ts";
import { formatById } from "../formats/registry.ts";
import {
  JsonlIndexer,
  jsonlBadReasonMessage,
  type JsonlFieldValue,
} from "../byteIndex/jsonlIndexer.ts";
import type { ByteSource } from "./byteSource.ts";
import { copyGroups, defaultedIds, duplicateIssue, settleDuplicates } from "./indexDuplicates.ts";
import {
  CHUNK,
  type GroupRows,
  type IndexCallbacks,
  type IndexedState,
  type IndexProgress,
} from "./indexedState.ts";
import { confirmsHint, sampleHead, type RunIndexShared } from "./indexFormat.ts";
import { readIndexedGroup } from "./readIndexedGroup.ts";
import { blobChunks, LoadCancelled } from "./readBlob.ts";

export type {
  IndexCallbacks,
  IndexedGroupRows,
  IndexedGroups,
  IndexedState,
  RowLocator,
} from "./indexedState.ts";
export { runFormatHint, type RunFormatHint, type RunIndexShared } from "./indexFormat.ts";
export { readIndexedGroup };

/** Below this, reading and parsing the whole file is simplest and fast enough; above it, index. */
export const INDEX_MIN_BYTES = 32 << 20;

/** Index the rows the indexer has completed since the last call. */
function handleRows(state: IndexedState, progress: IndexProgress): void {
  const { indexer, index, claims, duplicates, issues, groups } = progress;
  const name = state.file.name;
  const values: JsonlFieldValue[] = [];
  for (; progress.handled < indexer.rowCount; progress.handled++) {
    const handled = progress.handled;
    const line = indexer.lineAt(handled);
    const status = indexer.statusAt(handled);
    if (status === "tooLarge") {
      issues.push({
        file: name,
        line,
        message: `the row is too large to decode (${indexer.lengthAt(handled).toLocaleString("en-US")} bytes)`,
      });
      continue;
    }
    if (status === "bad") {
      issues.push({
        file: name,
        line,
        message: `not valid JSON: ${jsonlBadReasonMessage(indexer.reasonAt(handled))}`,
      });
      continue;
    }
    const read = index.read(indexer.valuesInto(handled, values));
    if (!read.ok) {
      issues.push({ file: name, line, field: read.field, message: read.message });
      continue;
    }
    const { groupId, reward, prompt } = read.key;
    let group = groups.get(groupId);
    const own = read.key.id;
    if (own !== null || progress.ids !== null) {
      progress.ids ??= defaultedIds(groups);
      const ids = progress.ids;
      const id = own ?? `${groupId}/${group?.rows.length ?? 0}`;
      const first = ids.claim(id, handled);
      if (first !== handled) {
        issues.push(duplicateIssue(name, line, id, indexer.lineAt(first)));
        const claimants = claims.get(id) ?? [first];
        claimants.push(handled);
        claims.set(id, claimants);
        duplicates.set(handled, { ...read.key, id });
        continue;
      }
    }
    if (group === undefined) {
      group = { rows: [], rewards: [], ids: [], prompt };
      groups.set(groupId, group);
    }
    group.rows.push(handled);
    group.rewards.push(reward);
    group.ids.push(own);
  }
}

/**
 * Each group's arrays copied to their exact length, in place. They grew by `push`, and V8 leaves a
 * pushed array room for about 17 elements: with 2-8 rows a group, that slack was most of the index's
 * heap (`many-groups`: about 600 bytes of a group's 800). A followed file's later rows push onto
 * the copies.
 */
function compactGroups(groups: Map<string, GroupRows>): void {
  for (const [id, g] of groups)
    groups.set(id, {
      rows: g.rows.slice(),
      rewards: g.rewards.slice(),
      ids: g.ids.slice(),
      prompt: g.prompt,
    });
}

/**
 * The dataset of what is indexed so far: duplicates settled, counts and summaries, the first
 * group parsed. `preview` is the first group as parsed early, reused when it did not grow.
 */
async function indexedDataset(
  state: IndexedState,
  progress: IndexProgress,
  callbacks: IndexCallbacks,
  preview: {
    id: string;
    rows: number;
    parsed: Awaited<ReturnType<typeof readIndexedGroup>>;
  } | null,
): Promise<LoadedDataset> {
  const { spec, file } = state;
  const { indexer } = progress;
  compactGroups(progress.groups);
  let groups: Map<string, GroupRows> = progress.groups;
  const issues = [...progress.issues];
  if (progress.claims.size > 0) {
    // Settled on a copy: a followed file's later reads start again from the unsettled rows.
    groups = copyGroups(progress.groups);
    state.groups = groups;
    const regrouped = await settleDuplicates(state, progress.claims, progress.duplicates, issues);
    if (regrouped !== null) groups = regrouped;
  }
  state.groups = groups;
  callbacks.onProgress(progress.bytes, indexer.rowCount, groups.size);
  const mode = partialBelow([...groups.values()].map((g) => g.rows.length));
  const rollouts = [...groups.values()].reduce((n, g) => n + g.rows.length, 0);
  issues.sort((x, y) => x.line - y.line);
  let dataset: LoadedDataset = {
    file: file.name,
    container: "jsonl",
    format: spec.id,
    formatLabel: spec.label,
    groupKey: spec.groupKey,
    candidates: progress.candidates,
    stats: {
      lines: indexer.lineCount,
      records: indexer.rowCount,
      rollouts,
      rejected: indexer.rowCount - rollouts,
      blank: indexer.blankCount,
    },
    issues,
    indexed: true,
    groups: [],
    summaries: [...groups.entries()].map(([id, g]) => ({
      id,
      // A followed file's groups grow in place: the summaries keep what they showed.
      rewards: state.progress === undefined ? g.rewards : [...g.rewards],
      prompt: flatPreview(g.prompt),
      partial: g.rows.length < mode,
      step: groupIdStep(spec.groupKey, id),
    })),
  };
  // The first group is parsed now, so what it shows and what it counts agree from the start.
  const firstId = groups.keys().next().value;
  if (firstId !== undefined) {
    const first =
      preview !== null &&
      preview.id === firstId &&
      preview.rows === groups.get(firstId)!.rows.length
        ? preview.parsed
        : await readIndexedGroup(state, firstId);
    dataset = datasetWithParsedGroup(dataset, first.group, firstId, first.issues);
  }
  return dataset;
}

/**
 * Index a JSONL file and return its summaries. Rows the index rejects (bad JSON where the scanner
 * walks, a missing group key, a non-numeric reward, a duplicate id, a row too large to decode) are
 * issues; rows it accepts are parsed fully when their group is opened, and any problem found then is
 * reported with the group.
 *
 * With `follow`, the file is one being written, read up to the end of a complete line
 * (completeLines.ts): the index stays open, and `extendIndexedFile` indexes what is appended.
 */
export async function indexJsonlFile(
  file: ByteSource,
  spec: FormatSpec,
  index: FormatIndexSpec,
  candidates: readonly FormatCandidate[],
  callbacks: IndexCallbacks,
  follow = false,
): Promise<{ dataset: LoadedDataset; state: IndexedState }> {
  const indexer = new JsonlIndexer({ keys: index.keys });
  const progress: IndexProgress = {
    indexer,
    index,
    candidates,
    ids: null,
    claims: new Map(),
    duplicates: new Map(),
    issues: [],
    groups: new Map(),
    handled: 0,
    bytes: 0,
  };
  const state: IndexedState = { file, spec, indexer, groups: progress.groups };
  let firstPosted = false;
  /** The first group as parsed for the early preview, reused at the end if it did not grow. */
  let preview: {
    id: string;
    rows: number;
    parsed: Awaited<ReturnType<typeof readIndexedGroup>>;
  } | null = null;
  let lastReport = 0;
  for await (const value of blobChunks(file, callbacks.isCancelled)) {
    indexer.push(value);
    progress.bytes += value.byteLength;
    handleRows(state, progress);
    callbacks.onRows?.(progress.groups, indexer, spec.id);
    // The first group is shown once a second group has started (so the first is probably whole).
    if (!firstPosted && progress.groups.size >= 2) {
      firstPosted = true;
      const [firstId] = progress.groups.keys();
      const parsed = await readIndexedGroup(state, firstId!);
      preview = { id: firstId!, rows: progress.groups.get(firstId!)!.rows.length, parsed };
      if (parsed.group !== null) callbacks.onFirstGroup(parsed.group);
    }
    if (progress.bytes - lastReport >= 8 * CHUNK) {
      lastReport = progress.bytes;
      callbacks.onProgress(progress.bytes, indexer.rowCount, progress.groups.size);
    }
  }
  // A followed file ends at a line's end: nothing is pending, and the index stays open.
  const open = follow && progress.bytes === file.size && file.size > 0;
  if (!open) indexer.finish();
  handleRows(state, progress);
  if (open) state.progress = progress;
  const dataset = await indexedDataset(state, progress, callbacks, preview);
  return { state, dataset };
}

/**
 * Index the bytes appended to a followed file since the last read (`indexJsonlFile` with
 * `follow`): `grown` is the same file, longer, read up to a line's end. The state is updated in
 * place; the dataset returned is the whole file's. Null when the state cannot be extended (it was
 * not followed, or the file is not longer): read the file again instead.
 */
export async function extendIndexedFile(
  state: IndexedState,
  grown: ByteSource,
  callbacks: IndexCallbacks,
): Promise<LoadedDataset | null> {
  const progress = state.progress;
  if (progress === undefined || grown.size < progress.bytes) return null;
  state.file = grown;
  // Duplicates are settled again over the unsettled groups (indexedDataset settles a copy).
  state.groups = progress.groups;
  for (let at = progress.bytes; at < grown.size; at += 8 * CHUNK) {
    if (callbacks.isCancelled()) throw new LoadCancelled();
    const end = Math.min(grown.size, at + 8 * CHUNK);
    const chunk = new Uint8Array(await grown.slice(at, end).arrayBuffer());
    progress.indexer.push(chunk);
    progress.bytes += chunk.byteLength;
    handleRows(state, progress);
  }
  return indexedDataset(state, progress, callbacks, null);
}

/**
 * Index a large file when it is JSONL in a format whose group key can be read from the index
 * (see formatIndex.ts); null when it must be loaded whole instead. A file of a run takes the run's
 * format when its first record confirms it (`run.hint`), and shares the run's prompt hashes.
 *
 * @throws LoadError / AmbiguousFormatError from detection, as a whole-file load would
 */
export async function indexBlobIfPossible(
  file: ByteSource,
  format: string | undefined,
  callbacks: IndexCallbacks,
  follow = false,
  run: RunIndexShared = {},
): Promise<{ dataset: LoadedDataset; state: IndexedState } | null> {
  const hint = run.hint ?? null;
  let chosen: { spec: FormatSpec; candidates: readonly FormatCandidate[] } | null = null;
  if (hint !== null && (hint.file === file.name || (await confirmsHint(file, format, hint)))) {
    const spec = formatById(hint.format);
    if (spec !== undefined) chosen = { spec, candidates: hint.candidates };
  }
  if (chosen === null) {
    const sample = await sampleHead(file, format);
    if (sample === null) return null;
    chosen = chooseFormat(file.name, "jsonl", sample, undefined, format);
  }
  const { spec, candidates } = chosen;
  const index = formatIndexFor(spec.id, run.hashes);
  if (index === undefined) return null;
  return indexJsonlFile(file, spec, index, candidates, callbacks, follow);
}
