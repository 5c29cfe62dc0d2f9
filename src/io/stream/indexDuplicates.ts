/**
 * Duplicate rollout ids in an indexed file: the issue for a row skipped as a duplicate, the ids
 * claimed before the first row with its own id, and settling each id on the first claimant the
 * full parser accepts, as a whole-file load does.
 */
import { FirstClaims } from "../byteIndex/firstClaims.ts";
import type { IndexedRowKey } from "../byteIndex/formatIndex.ts";
import type { ParseIssue } from "../issues.ts";
import type { GroupRows, IndexedState } from "./indexedState.ts";
import { parseRow, rowBytes } from "./readIndexedGroup.ts";

/** The issue of a row skipped because an earlier row claimed its id. */
export function duplicateIssue(
  file: string,
  line: number,
  id: string,
  firstLine: number,
): ParseIssue {
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
export async function settleDuplicates(
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

/**
 * The ids claimed so far when every row's id was defaulted (`<group>/<index in group>`, distinct by
 * construction): built when the first row with an id of its own arrives, which may collide with one.
 */
export function defaultedIds(groups: ReadonlyMap<string, GroupRows>): FirstClaims {
  const ids = new FirstClaims();
  for (const [groupId, g] of groups)
    g.rows.forEach((row, k) => ids.claim(g.ids[k] ?? `${groupId}/${k}`, row));
  return ids;
}

/** A deep enough copy of the groups that settling duplicates can edit without touching `from`. */
export function copyGroups(from: ReadonlyMap<string, GroupRows>): Map<string, GroupRows> {
  const out = new Map<string, GroupRows>();
  for (const [id, g] of from)
    out.set(id, { rows: [...g.rows], rewards: [...g.rewards], ids: [...g.ids], prompt: g.prompt });
  return out;
}
