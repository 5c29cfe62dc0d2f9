/**
 * One file of a run indexed where it can run on its own (a worker thread of an index pool, or the
 * load worker itself), and its index packed into typed arrays that move between threads without a
 * copy: the rows' offsets, lengths and lines, and each group's rows. The load worker unpacks it
 * next to the file's source and parses groups on demand from it, as from an index it built itself.
 */
import type { LoadedDataset } from "../dataset.ts";
import type { PromptHashes } from "../byteIndex/formatIndex.ts";
import { formatById } from "../formats/registry.ts";
import type { ByteSource } from "./byteSource.ts";
import {
  indexBlobIfPossible,
  type IndexedGroupRows,
  type IndexedGroups,
  type IndexedState,
  type RowLocator,
  type RunFormatHint,
} from "./indexedFile.ts";

/** An indexed file's index as typed arrays and a few strings (structured-clone friendly). */
export interface PackedIndex {
  /** The format the file was indexed as (its full parser reads the groups). */
  readonly format: string;
  /** Per row of the file's index (row = position among its non-blank lines). */
  readonly offsets: Float64Array;
  readonly lengths: Float64Array;
  readonly lines: Uint32Array;
  /** The groups in order; group g's rows are `rows[starts[g]]` to `rows[starts[g + 1] - 1]`. */
  readonly groupIds: readonly string[];
  readonly starts: Uint32Array;
  readonly rows: Uint32Array;
  /** Each entry of `rows`' own id (null: defaulted); null when no row has one. */
  readonly ids: readonly (string | null)[] | null;
}

/** What indexing a run's file gives: its dataset and packed index, or "read it whole". */
export type RunFileIndex =
  | { readonly kind: "indexed"; readonly dataset: LoadedDataset; readonly index: PackedIndex }
  | { readonly kind: "whole" };

/** A source under another name: a run's file is named by its path in the run (issues say it). */
export function namedSource(source: ByteSource, name: string): ByteSource {
  if (source.name === name) return source;
  return {
    name,
    size: source.size,
    stream: () => source.stream(),
    slice: (start, end) => source.slice(start, end),
  };
}

/** Pack a finished (not followed) index; `dataset` is the one indexing gave with it. */
export function packIndex(state: IndexedState, dataset: LoadedDataset): PackedIndex {
  const records = dataset.stats.records;
  const { indexer } = state;
  const offsets = new Float64Array(records);
  const lengths = new Float64Array(records);
  const lines = new Uint32Array(records);
  for (let r = 0; r < records; r++) {
    offsets[r] = indexer.offsetAt(r);
    lengths[r] = indexer.lengthAt(r);
    lines[r] = indexer.lineAt(r);
  }
  const groupIds = dataset.summaries.map((s) => s.id);
  const starts = new Uint32Array(groupIds.length + 1);
  const groups: IndexedGroupRows[] = [];
  let total = 0;
  let owned = false;
  groupIds.forEach((id, g) => {
    const group = state.groups.get(id)!;
    groups.push(group);
    starts[g] = total;
    total += group.rows.length;
    if (!owned && group.ids !== null)
      for (let k = 0; k < group.ids.length; k++) if (group.ids[k] !== null) owned = true;
  });
  starts[groupIds.length] = total;
  const rows = new Uint32Array(total);
  const ids: (string | null)[] | null = owned ? [] : null;
  groups.forEach((group, g) => {
    rows.set(Array.from(group.rows), starts[g]);
    if (ids !== null) for (let k = 0; k < group.rows.length; k++) ids.push(group.ids?.[k] ?? null);
  });
  return { format: state.spec.id, offsets, lengths, lines, groupIds, starts, rows, ids };
}

/** The buffers of a packed index, to transfer instead of copying. */
export function packedIndexTransfer(index: PackedIndex): ArrayBuffer[] {
  return [index.offsets, index.lengths, index.lines, index.starts, index.rows]
    .map((a) => a.buffer)
    .filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
}

class PackedRows implements RowLocator {
  readonly index: PackedIndex;
  constructor(index: PackedIndex) {
    this.index = index;
  }
  offsetAt(row: number): number {
    return this.index.offsets[row]!;
  }
  lengthAt(row: number): number {
    return this.index.lengths[row]!;
  }
  lineAt(row: number): number {
    return this.index.lines[row]!;
  }
}

/** A packed index's groups by id; the id Map is built on the first look-up. */
class PackedGroups implements IndexedGroups {
  private at: Map<string, number> | null = null;
  private readonly index: PackedIndex;
  constructor(index: PackedIndex) {
    this.index = index;
  }
  get(groupId: string): IndexedGroupRows | undefined {
    const { groupIds, starts, rows, ids } = this.index;
    this.at ??= new Map(groupIds.map((id, g) => [id, g]));
    const g = this.at.get(groupId);
    if (g === undefined) return undefined;
    const start = starts[g]!;
    const end = starts[g + 1]!;
    return { rows: rows.subarray(start, end), ids: ids === null ? null : ids.slice(start, end) };
  }
}

/** The state to parse a packed file's groups from, reading `file` (the file it was built from). */
export function unpackIndex(index: PackedIndex, file: ByteSource): IndexedState {
  const spec = formatById(index.format);
  if (spec === undefined) throw new Error(`an index of unknown format "${index.format}"`);
  return { file, spec, indexer: new PackedRows(index), groups: new PackedGroups(index) };
}

/**
 * A finished index with only what parsing its groups needs: the rows' offsets, lengths and lines
 * and each group's rows, packed (`packIndex`). Indexing keeps every indexed key's values per row
 * and three arrays per group; for 100,000 groups of small rows that was 2.9 times the file's size.
 * A followed file's state (still extended) is returned as it is.
 */
export function compactIndexedState(state: IndexedState, dataset: LoadedDataset): IndexedState {
  if (state.progress !== undefined) return state;
  const index = packIndex(state, dataset);
  return {
    file: state.file,
    spec: state.spec,
    indexer: new PackedRows(index),
    groups: new PackedGroups(index),
  };
}

/** The packed index a compacted state reads from (`compactIndexedState`), else null. */
export function packedIndexOf(state: IndexedState): PackedIndex | null {
  return state.indexer instanceof PackedRows ? state.indexer.index : null;
}

export interface RunFileIndexCallbacks {
  readonly isCancelled: () => boolean;
  /** Bytes of this file indexed so far. */
  readonly onProgress: (bytes: number) => void;
}

/**
 * Index one file of a run (already named by its path in the run) and pack its index: the one
 * indexing function of a run, in an index pool's worker and in the load worker alike. The file is
 * streamed (readBlob.ts `blobChunks`: a BYOB reader into two reused buffers, given up for slice
 * reads if a read stalls). In Chromium this reads a File at 2.5 times the speed of 8 MB
 * `slice().arrayBuffer()` reads (bench/README.md, eighth pass).
 *
 * @throws LoadError / AmbiguousFormatError from detection, LoadCancelled when cancelled
 */
export async function indexRunFile(
  file: ByteSource,
  format: string | undefined,
  hint: RunFormatHint | null,
  hashes: PromptHashes,
  callbacks: RunFileIndexCallbacks,
): Promise<RunFileIndex> {
  const indexed = await indexBlobIfPossible(
    file,
    format,
    {
      isCancelled: callbacks.isCancelled,
      onProgress: (bytes) => callbacks.onProgress(bytes),
      onFirstGroup: () => undefined,
    },
    false,
    { hint, hashes },
  );
  if (indexed === null) return { kind: "whole" };
  return {
    kind: "indexed",
    dataset: indexed.dataset,
    index: packIndex(indexed.state, indexed.dataset),
  };
}
