/**
 * The large-file path (performance.md section 11): index a JSONL file on bytes with a BYOB reader
 * and one reused 1 MB buffer (in the browser's worker, and in the CLI through a file-backed Blob),
 * keep only offsets, group keys and rewards, post the first group as
 * soon as it is known, and parse a group's rows only when someone opens it. Never File.text(), never
 * a whole-file decode.
 */
import { FirstClaims } from "../byteIndex/firstClaims.ts";
import type { RolloutGroup } from "../../core/index.ts";
import { bomLength, decodeRecord, splitJsonlBytes, utf16Bom } from "../containers/bytes.ts";
import { parseJsonLenient } from "../containers/pythonJson.ts";
import {
  datasetWithParsedGroup,
  flatPreview,
  groupIdStep,
  partialBelow,
  type LoadedDataset,
} from "../dataset.ts";
import { chooseFormat, type FormatCandidate } from "../formats/load.ts";
import {
  SAMPLE_LINES,
  SAMPLE_WINDOW_BYTES,
  sniffMagic,
  sniffText,
  type TextSniff,
} from "../formats/sniff.ts";
import { recordGuardIssue } from "../formats/recordGuard.ts";
import { groupDrafts, type RolloutDraft } from "../formats/records.ts";
import type { FormatSpec } from "../formats/spec.ts";
import {
  formatIndexFor,
  type FormatIndexSpec,
  type IndexedRowKey,
  type PromptHashes,
} from "../byteIndex/formatIndex.ts";
import { formatById } from "../formats/registry.ts";
import {
  JsonlIndexer,
  jsonlBadReasonMessage,
  type JsonlFieldValue,
} from "../byteIndex/jsonlIndexer.ts";
import { LoadError, type ParseIssue } from "../issues.ts";
import type { ByteSource } from "./byteSource.ts";
import { blobChunks, LoadCancelled } from "./readBlob.ts";

const CHUNK = 1 << 20;

/** Below this, reading and parsing the whole file is simplest and fast enough; above it, index. */
export const INDEX_MIN_BYTES = 32 << 20;

/** Where an indexed file's rows are: what parsing a group on demand needs of the index. */
export interface RowLocator {
  offsetAt(row: number): number;
  lengthAt(row: number): number;
  lineAt(row: number): number;
}

/** One indexed group's rows, in file order, and each row's own id (null: defaulted). */
export interface IndexedGroupRows {
  readonly rows: ArrayLike<number>;
  /** Null when no row of the group has an id of its own. */
  readonly ids: ArrayLike<string | null> | null;
}

/** An indexed file's groups by id (a Map while indexing; packed typed arrays after a transfer). */
export interface IndexedGroups {
  get(groupId: string): IndexedGroupRows | undefined;
}

interface GroupRows {
  readonly rows: number[];
  readonly rewards: number[];
  /** Each row's own id; null where it is defaulted (`<group>/<index in group>`). */
  readonly ids: (string | null)[];
  prompt: string;
}

function duplicateIssue(file: string, line: number, id: string, firstLine: number): ParseIssue {
  return {
    file,
    line,
    field: "id",
    message: `duplicate rollout id "${id}" (first at line ${firstLine}); this row is skipped`,
  };
}

/**
 * Give each id claimed by several rows to the first claimant the full parser accepts, as a
 * whole-file load does (formats/records.ts). While indexing, the first claimant wins, but the index
 * checks only a few keys: when the full parser rejects it (a field of the wrong type, say), a later
 * claimant owns the id and must not be lost as its duplicate (found by fuzzing the two paths
 * against each other). Only ids claimed more than once are parsed here, one row at a time.
 *
 * @returns the groups in order of their first row when a settled row opened a new group, else null
 */
async function settleDuplicates(
  state: IndexedState,
  claims: ReadonlyMap<string, readonly number[]>,
  duplicates: ReadonlyMap<number, IndexedRowKey & { readonly id: string }>,
  issues: ParseIssue[],
): Promise<Map<string, GroupRows> | null> {
  const groups = state.groups as Map<string, GroupRows>;
  const { indexer } = state;
  let opened = false;
  for (const [id, claimants] of claims) {
    let owner = -1;
    for (const row of claimants) {
      const [bytes] = await rowBytes(state.file, indexer, [row]);
      if (parseRow(state, bytes!, indexer.lineAt(row)).ok) {
        owner = row;
        break;
      }
    }
    if (owner === -1 || owner === claimants[0]) continue;
    const key = duplicates.get(owner)!;
    const ownerLine = indexer.lineAt(owner);
    // The owner is a rollout now: its duplicate issue goes, and later claimants point at it.
    const at = issues.findIndex((i) => i.line === ownerLine && i.field === "id");
    if (at !== -1) issues.splice(at, 1);
    for (const row of claimants)
      if (row > owner) {
        const line = indexer.lineAt(row);
        const k = issues.findIndex((i) => i.line === line && i.field === "id");
        if (k !== -1) issues[k] = duplicateIssue(state.file.name, line, id, ownerLine);
      }
    let group = groups.get(key.groupId);
    if (group === undefined) {
      group = { rows: [], rewards: [], ids: [], prompt: key.prompt };
      groups.set(key.groupId, group);
      opened = true;
    }
    let k = group.rows.length;
    while (k > 0 && group.rows[k - 1]! > owner) k--;
    group.rows.splice(k, 0, owner);
    group.rewards.splice(k, 0, key.reward);
    group.ids.splice(k, 0, id);
  }
  if (!opened) return null;
  return new Map([...groups].sort((a, b) => a[1].rows[0]! - b[1].rows[0]!));
}

/** Decode, parse and read one row with the format's full parser, as a whole-file load does. */
function parseRow(
  state: IndexedState,
  bytes: Uint8Array,
  line: number,
): { ok: true; draft: RolloutDraft } | { ok: false; issues: ParseIssue[] } {
  const ref = { file: state.file.name, line };
  const decoded = decodeRecord(bytes);
  if (!decoded.ok) return { ok: false, issues: [{ ...ref, message: decoded.message }] };
  // Leniently, as a whole-file load parses: Python's bare NaN inside a nested value is text.
  const parsed = parseJsonLenient(decoded.text);
  if (!parsed.ok)
    return { ok: false, issues: [{ ...ref, message: `not valid JSON (${parsed.message})` }] };
  const guarded = recordGuardIssue(ref, parsed.value);
  if (guarded !== null) return { ok: false, issues: [guarded] };
  const outcome = state.spec.record(ref, parsed.value, {});
  return outcome.ok
    ? { ok: true, draft: outcome.value }
    : { ok: false, issues: [...outcome.issues] };
}

export interface IndexCallbacks {
  readonly onProgress: (bytes: number, rows: number, groups: number) => void;
  readonly onFirstGroup: (group: RolloutGroup) => void;
  readonly isCancelled: () => boolean;
  /**
   * After each chunk's rows are indexed: the groups so far in order of their first row (entries
   * are only added; a group's rows only grow) and where each row is, read as `format`. Nothing is
   * final: duplicate ids are settled at the end, which may move a row into a group. The CLI starts
   * analysing the groups that look complete from here (src/cli/analyzeThreads/speculate.ts).
   */
  readonly onRows?: (
    groups: ReadonlyMap<string, IndexedGroupRows>,
    rows: RowLocator,
    format: string,
  ) => void;
}

/**
 * What indexing a file keeps between reads of it (a followed file, issue 14): the row handling's
 * state, so bytes appended later are indexed from where the last read stopped.
 */
interface IndexProgress {
  readonly indexer: JsonlIndexer;
  readonly index: FormatIndexSpec;
  readonly candidates: readonly FormatCandidate[];
  /**
   * Each id's first claimant (a row), and for ids claimed again, every claimant in file order.
   * Null while no row has an id of its own: defaulted ids cannot collide, so none is kept.
   */
  ids: FirstClaims | null;
  readonly claims: Map<string, number[]>;
  /** Rows skipped as duplicates: what they would add to their group if they own their id after all. */
  readonly duplicates: Map<number, IndexedRowKey & { readonly id: string }>;
  readonly issues: ParseIssue[];
  /** Groups in order of their first row, before duplicates are settled. */
  readonly groups: Map<string, GroupRows>;
  handled: number;
  bytes: number;
}

/** What the worker keeps to parse groups later. */
export interface IndexedState {
  file: ByteSource;
  readonly spec: FormatSpec;
  readonly indexer: RowLocator;
  groups: IndexedGroups;
  /** Set when more bytes can be indexed (a followed file read up to a line's end). */
  progress?: IndexProgress;
}

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
 * The ids claimed so far when every row's id was defaulted (`<group>/<index in group>`, distinct by
 * construction): built when the first row with an id of its own arrives, which may collide with one.
 */
function defaultedIds(groups: ReadonlyMap<string, GroupRows>): FirstClaims {
  const ids = new FirstClaims();
  for (const [groupId, g] of groups)
    g.rows.forEach((row, k) => ids.claim(g.ids[k] ?? `${groupId}/${k}`, row));
  return ids;
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

/** A deep enough copy of the groups that settling duplicates can edit without touching `from`. */
function copyGroups(from: ReadonlyMap<string, GroupRows>): Map<string, GroupRows> {
  const out = new Map<string, GroupRows>();
  for (const [id, g] of from)
    out.set(id, { rows: [...g.rows], rewards: [...g.rewards], ids: [...g.ids], prompt: g.prompt });
  return out;
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

/** Read the bytes of some rows: one slice when they sit close together, else one slice per row. */
async function rowBytes(
  file: ByteSource,
  indexer: RowLocator,
  rows: ArrayLike<number>,
): Promise<Uint8Array[]> {
  let start = Infinity;
  let end = 0;
  let total = 0;
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    start = Math.min(start, indexer.offsetAt(r));
    end = Math.max(end, indexer.offsetAt(r) + indexer.lengthAt(r));
    total += indexer.lengthAt(r);
  }
  if (rows.length > 0 && end - start <= 4 * total + CHUNK) {
    const span = new Uint8Array(await file.slice(start, end).arrayBuffer());
    return Array.from(rows, (r) =>
      span.subarray(indexer.offsetAt(r) - start, indexer.offsetAt(r) - start + indexer.lengthAt(r)),
    );
  }
  return Promise.all(
    Array.from(
      rows,
      async (r) =>
        new Uint8Array(
          await file
            .slice(indexer.offsetAt(r), indexer.offsetAt(r) + indexer.lengthAt(r))
            .arrayBuffer(),
        ),
    ),
  );
}

/** Parse one indexed group's rows with the format's full parser. */
export async function readIndexedGroup(
  state: IndexedState,
  groupId: string,
): Promise<{ group: RolloutGroup | null; issues: ParseIssue[] }> {
  const rows = state.groups.get(groupId);
  if (rows === undefined) return { group: null, issues: [] };
  const issues: ParseIssue[] = [];
  const drafts: RolloutDraft[] = [];
  const chunks = await rowBytes(state.file, state.indexer, rows.rows);
  chunks.forEach((bytes, k) => {
    const read = parseRow(state, bytes, state.indexer.lineAt(rows.rows[k]!));
    // A row without an id of its own gets its default from groupDrafts, as in a whole-file load:
    // its place among the group's rows the full parser accepts (not among those the index did).
    if (read.ok)
      drafts.push({
        ...read.draft,
        id: read.draft.id === null ? null : (rows.ids?.[k] ?? read.draft.id),
      });
    else issues.push(...read.issues);
  });
  const grouped = groupDrafts(drafts);
  issues.push(...grouped.issues);
  return { group: grouped.groups[0] ?? null, issues };
}

/**
 * The head's first read: enough for the sample's 50 records when rows are short. Longer rows grow
 * it to what the lines read so far say the sample needs, up to the 4 MB window, reading only the
 * new bytes (a file of 40 KB rows read 256 KB, then the whole 4 MB again, and parsed both).
 */
const FIRST_HEAD_BYTES = 256 << 10;

/** Whether `bytes` hold a byte other than a BOM's, space, tab, CR or LF. */
function hasText(bytes: Uint8Array): boolean {
  for (let i = bomLength(bytes); i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x0a && b !== 0x20 && b !== 0x09 && b !== 0x0d) return true;
  }
  return false;
}

/**
 * Where a file's text starts (the line of its first non-space byte; see textLineStart), read 1 MB
 * at a time so a file that starts with megabytes of whitespace is judged by its text, as a
 * whole-file load judges it; -1 when the file is all whitespace.
 */
async function textStart(file: ByteSource, first: Uint8Array): Promise<number> {
  let lineStart = 0;
  for (let at = 0; at < file.size; at += CHUNK) {
    // The first bytes are in hand: a file whose text starts in them needs no read of 1 MB.
    const chunk =
      at === 0 && first.length > 0 && hasText(first)
        ? first
        : new Uint8Array(await file.slice(at, Math.min(file.size, at + CHUNK)).arrayBuffer());
    const from = at === 0 ? bomLength(chunk) : 0;
    if (at === 0) lineStart = from;
    for (let i = from; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === 0x0a) lineStart = at + i + 1;
      else if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return lineStart;
    }
  }
  return -1;
}

/**
 * Detection for a large file without reading it all, by the rules of a whole-file load
 * (sniffText in load.ts) on its head: the first 50 non-blank lines within 4 MB of where its text
 * starts. The head grows from FIRST_HEAD_BYTES until it holds them (the head's bytes are read
 * again by the index after). Null when the file is not JSONL or its head
 * cannot tell (a UTF-16 file, a first value longer than the head): it is then loaded whole.
 *
 * @throws LoadError for an empty or binary file, as a whole-file load would
 */
async function sampleHead(file: ByteSource, forced: string | undefined): Promise<unknown[] | null> {
  const first = new Uint8Array(await file.slice(0, Math.min(file.size, 4096)).arrayBuffer());
  if (sniffMagic(file.name, first) !== null || utf16Bom(first) !== null) return null;
  const start = await textStart(file, first);
  if (start === -1) throw new LoadError(file.name, "the file is empty");
  let sniffed: TextSniff | null = null;
  let head = new Uint8Array(0);
  for (let size = FIRST_HEAD_BYTES; ;) {
    const end = Math.min(file.size, start + size);
    // Only the bytes past the head read so far.
    const more = new Uint8Array(await file.slice(start + head.length, end).arrayBuffer());
    const grown = new Uint8Array(head.length + more.length);
    grown.set(head);
    grown.set(more, head.length);
    head = grown;
    const last = end === file.size || size >= SAMPLE_WINDOW_BYTES;
    // The sample's lines counted, not parsed: the last one may be cut.
    const lines = splitJsonlBytes(head, false).records.length - 1;
    if (last || lines >= SAMPLE_LINES) {
      sniffed = sniffText(file.name, head, end === file.size, forced);
      // Enough when the head holds the sample's lines whole (or is the whole file).
      if (last || sniffed?.sample !== undefined) break;
    }
    // Grow to what the sample needs at this head's bytes per line (a quarter more), at least twice.
    const perLine = head.length / Math.max(1, lines);
    size = Math.min(
      SAMPLE_WINDOW_BYTES,
      Math.max(size * 2, Math.ceil(perLine * (SAMPLE_LINES + 1) * 1.25)),
    );
  }
  return sniffed?.container === "jsonl" ? [...(sniffed.sample ?? [])] : null;
}

/**
 * A run's format as detected on its first file (`runFormatHint`): the run's other files are
 * checked against it on their first record instead of a 50-record sample each.
 */
export interface RunFormatHint {
  /** The file it was detected on (its name as a source). */
  readonly file: string;
  readonly format: string;
  readonly candidates: readonly FormatCandidate[];
}

/** What indexing the files of one run shares: the run's format, and the prompt hashes. */
export interface RunIndexShared {
  readonly hint?: RunFormatHint | null;
  readonly hashes?: PromptHashes;
}

/** Bytes read to find a file's first record when the run's format is only confirmed. */
const CONFIRM_BYTES = 64 << 10;

/**
 * A run's format from its first file, when that file is JSONL in a format that can be indexed;
 * null otherwise (each file is then detected on its own, as a single file is).
 *
 * @throws LoadError / AmbiguousFormatError from detection, as a whole-file load would
 */
export async function runFormatHint(
  file: ByteSource,
  format: string | undefined,
): Promise<RunFormatHint | null> {
  const sample = await sampleHead(file, format);
  if (sample === null) return null;
  const { spec, candidates } = chooseFormat(file.name, "jsonl", sample, undefined, format);
  if (formatIndexFor(spec.id) === undefined) return null;
  return { file: file.name, format: spec.id, candidates };
}

/**
 * Whether a file of a run is in the run's format: it is JSONL, and its first record alone picks
 * the same format (one record parsed instead of fifty; a file whose first record does not, or
 * that has no complete record in its first 64 KB, is detected in full).
 */
async function confirmsHint(
  file: ByteSource,
  format: string | undefined,
  hint: RunFormatHint,
): Promise<boolean> {
  const head = new Uint8Array(
    await file.slice(0, Math.min(file.size, CONFIRM_BYTES)).arrayBuffer(),
  );
  if (sniffMagic(file.name, head) !== null || utf16Bom(head) !== null) return false;
  const { records } = splitJsonlBytes(head);
  // The last line of a cut head may be incomplete.
  const whole = file.size > head.length ? records.slice(0, -1) : records;
  for (const r of whole) {
    const decoded = decodeRecord(head.subarray(r.start, r.end));
    if (!decoded.ok) return false;
    const parsed = parseJsonLenient(decoded.text);
    if (!parsed.ok) return false;
    try {
      return (
        chooseFormat(file.name, "jsonl", [parsed.value], undefined, format).spec.id === hint.format
      );
    } catch {
      return false;
    }
  }
  return false;
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
