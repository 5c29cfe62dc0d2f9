/**
 * Parsing an indexed file's rows on demand with the format's full parser, as a whole-file load
 * does: one row (parseRow), or one group's rows read in as few slices as fit (readIndexedGroup).
 */
import type { RolloutGroup } from "../../core/index.ts";
import { decodeRecord } from "../containers/bytes.ts";
import { parseJsonLenient } from "../containers/pythonJson.ts";
import { recordGuardIssue } from "../formats/recordGuard.ts";
import { groupDrafts, type RolloutDraft } from "../formats/records.ts";
import type { ParseIssue } from "../issues.ts";
import type { ByteSource } from "./byteSource.ts";
import { CHUNK, type IndexedState, type RowLocator } from "./indexedState.ts";

/** Decode, parse and read one row with the format's full parser, as a whole-file load does. */
export function parseRow(
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

/** Read the bytes of some rows: one slice when they sit close together, else one slice per row. */
export async function rowBytes(
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
