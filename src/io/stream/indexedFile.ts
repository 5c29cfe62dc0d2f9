/**
 * The large-file path (performance.md section 11): index a JSONL file on bytes with a BYOB reader
 * and one reused 1 MB buffer (in the browser's worker, and in the CLI through a file-backed Blob),
 * keep only offsets, group keys and rewards, post the first group as
 * soon as it is known, and parse a group's rows only when someone opens it. Never File.text(), never
 * a whole-file decode.
 */
import type { RolloutGroup } from "../../core/index.ts";
import { decodeRecord, splitJsonlBytes } from "../containers/bytes.ts";
import { parseJsonLenient } from "../containers/pythonJson.ts";
import {
  datasetWithParsedGroup,
  flatPreview,
  partialBelow,
  type LoadedDataset,
} from "../dataset.ts";
import { chooseFormat, sniffContainer, type FormatCandidate } from "../formats/load.ts";
import { groupDrafts, type RolloutDraft } from "../formats/records.ts";
import type { Container, FormatSpec } from "../formats/spec.ts";
import { formatIndexFor, type FormatIndexSpec } from "../index/formatIndex.ts";
import { JsonlIndexer, jsonlBadReasonMessage } from "../index/jsonlIndexer.ts";
import type { ParseIssue } from "../issues.ts";
import { blobChunks } from "./readBlob.ts";

const CHUNK = 1 << 20;

/** Below this, reading and parsing the whole file is simplest and fast enough; above it, index. */
export const INDEX_MIN_BYTES = 32 << 20;

interface GroupRows {
  readonly rows: number[];
  readonly rewards: number[];
  readonly ids: string[];
  prompt: string;
}

/** What the worker keeps to parse groups later. */
export interface IndexedState {
  readonly file: Blob & { readonly name: string };
  readonly spec: FormatSpec;
  readonly indexer: JsonlIndexer;
  readonly groups: ReadonlyMap<string, GroupRows>;
}

export interface IndexCallbacks {
  readonly onProgress: (bytes: number, rows: number, groups: number) => void;
  readonly onFirstGroup: (group: RolloutGroup) => void;
  readonly isCancelled: () => boolean;
}

/**
 * Index a JSONL file and return its summaries. Rows the index rejects (bad JSON where the scanner
 * walks, a missing group key, a non-numeric reward, a duplicate id, a row too large to decode) are
 * issues; rows it accepts are parsed fully when their group is opened, and any problem found then is
 * reported with the group.
 */
export async function indexJsonlFile(
  file: Blob & { readonly name: string },
  spec: FormatSpec,
  index: FormatIndexSpec,
  candidates: readonly FormatCandidate[],
  callbacks: IndexCallbacks,
): Promise<{ dataset: LoadedDataset; state: IndexedState }> {
  const indexer = new JsonlIndexer({ keys: index.keys });
  const groups = new Map<string, GroupRows>();
  const ids = new Map<string, number>();
  const issues: ParseIssue[] = [];
  let handled = 0;
  let firstPosted = false;
  /** The first group as parsed for the early preview, reused at the end if it did not grow. */
  let preview: {
    id: string;
    rows: number;
    parsed: Awaited<ReturnType<typeof readIndexedGroup>>;
  } | null = null;
  const state: IndexedState = { file, spec, indexer, groups };

  const handleRows = (): void => {
    for (; handled < indexer.rowCount; handled++) {
      const line = indexer.lineAt(handled);
      const status = indexer.statusAt(handled);
      if (status === "tooLarge") {
        issues.push({
          file: file.name,
          line,
          message: `the row is too large to decode (${indexer.lengthAt(handled).toLocaleString("en-US")} bytes)`,
        });
        continue;
      }
      if (status === "bad") {
        issues.push({
          file: file.name,
          line,
          message: `not valid JSON: ${jsonlBadReasonMessage(indexer.reasonAt(handled))}`,
        });
        continue;
      }
      const read = index.read(indexer.row(handled).values);
      if (!read.ok) {
        issues.push({ file: file.name, line, field: read.field, message: read.message });
        continue;
      }
      const { groupId, reward, prompt } = read.key;
      let group = groups.get(groupId);
      if (group === undefined) {
        group = { rows: [], rewards: [], ids: [], prompt };
        groups.set(groupId, group);
      }
      const id = read.key.id ?? `${groupId}/${group.rows.length}`;
      const first = ids.get(id);
      if (first !== undefined) {
        issues.push({
          file: file.name,
          line,
          field: "id",
          message: `duplicate rollout id "${id}" (first at line ${first}); this row is skipped`,
        });
        continue;
      }
      ids.set(id, line);
      group.rows.push(handled);
      group.rewards.push(reward);
      group.ids.push(id);
    }
  };

  let bytes = 0;
  let lastReport = 0;
  for await (const value of blobChunks(file, callbacks.isCancelled)) {
    indexer.push(value);
    bytes += value.byteLength;
    handleRows();
    // The first group is shown once a second group has started (so the first is probably whole).
    if (!firstPosted && groups.size >= 2) {
      firstPosted = true;
      const [firstId] = groups.keys();
      const parsed = await readIndexedGroup(state, firstId!);
      preview = { id: firstId!, rows: groups.get(firstId!)!.rows.length, parsed };
      if (parsed.group !== null) callbacks.onFirstGroup(parsed.group);
    }
    if (bytes - lastReport >= 8 * CHUNK) {
      lastReport = bytes;
      callbacks.onProgress(bytes, indexer.rowCount, groups.size);
    }
  }
  indexer.finish();
  handleRows();
  callbacks.onProgress(bytes, indexer.rowCount, groups.size);
  const mode = partialBelow([...groups.values()].map((g) => g.rows.length));
  const rollouts = [...groups.values()].reduce((s, g) => s + g.rows.length, 0);
  issues.sort((a, b) => a.line - b.line);
  let dataset: LoadedDataset = {
    file: file.name,
    container: "jsonl",
    format: spec.id,
    formatLabel: spec.label,
    groupKey: spec.groupKey,
    candidates,
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
      rewards: g.rewards,
      prompt: flatPreview(g.prompt),
      partial: g.rows.length < mode,
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
  return { state, dataset };
}
/** Read the bytes of some rows: one slice when they sit close together, else one slice per row. */
async function rowBytes(
  file: Blob,
  indexer: JsonlIndexer,
  rows: readonly number[],
): Promise<Uint8Array[]> {
  let start = Infinity;
  let end = 0;
  let total = 0;
  for (const r of rows) {
    start = Math.min(start, indexer.offsetAt(r));
    end = Math.max(end, indexer.offsetAt(r) + indexer.lengthAt(r));
    total += indexer.lengthAt(r);
  }
  if (rows.length > 0 && end - start <= 4 * total + CHUNK) {
    const span = new Uint8Array(await file.slice(start, end).arrayBuffer());
    return rows.map((r) =>
      span.subarray(indexer.offsetAt(r) - start, indexer.offsetAt(r) - start + indexer.lengthAt(r)),
    );
  }
  return Promise.all(
    rows.map(
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
    const ref = { file: state.file.name, line: state.indexer.lineAt(rows.rows[k]!) };
    const decoded = decodeRecord(bytes);
    if (!decoded.ok) {
      issues.push({ ...ref, message: decoded.message });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(decoded.text) as unknown;
    } catch (e) {
      issues.push({
        ...ref,
        message: `not valid JSON (${e instanceof Error ? e.message : String(e)})`,
      });
      return;
    }
    const outcome = state.spec.record(ref, value, {});
    if (outcome.ok) drafts.push({ ...outcome.value, id: rows.ids[k]! });
    else issues.push(...outcome.issues);
  });
  const grouped = groupDrafts(drafts);
  issues.push(...grouped.issues);
  return { group: grouped.groups[0] ?? null, issues };
}

const HEAD_BYTES = 4 << 20;

/** The first records of a large file, for format detection without reading it all. */
async function sampleHead(
  file: Blob & { readonly name: string },
): Promise<{ container: Container; sample: unknown[] }> {
  const head = new Uint8Array(await file.slice(0, Math.min(file.size, HEAD_BYTES)).arrayBuffer());
  const container = sniffContainer(file.name, head);
  if (container !== "jsonl") return { container, sample: [] };
  const { records } = splitJsonlBytes(head);
  // The last line of a cut head may be incomplete.
  const whole = file.size > head.length ? records.slice(0, -1) : records;
  const sample: unknown[] = [];
  for (const r of whole.slice(0, 50)) {
    const decoded = decodeRecord(head.subarray(r.start, r.end));
    if (!decoded.ok) continue;
    const parsed = parseJsonLenient(decoded.text);
    if (parsed.ok) sample.push(parsed.value);
  }
  return { container, sample };
}

/**
 * Index a large file when it is JSONL in a format whose group key can be read from the index
 * (see formatIndex.ts); null when it must be loaded whole instead.
 *
 * @throws LoadError / AmbiguousFormatError from detection, as a whole-file load would
 */
export async function indexBlobIfPossible(
  file: Blob & { readonly name: string },
  format: string | undefined,
  callbacks: IndexCallbacks,
): Promise<{ dataset: LoadedDataset; state: IndexedState } | null> {
  const { container, sample } = await sampleHead(file);
  if (container !== "jsonl") return null;
  const { spec, candidates } = chooseFormat(file.name, container, sample, undefined, format);
  const index = formatIndexFor(spec.id);
  if (index === undefined) return null;
  return indexJsonlFile(file, spec, index, candidates, callbacks);
}
