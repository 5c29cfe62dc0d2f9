/**
 * How the page's annotations and the `view` server's meet (serverAnnotations.ts). Pure, and by
 * reference: the store never edits an annotation in place, so a group (or a document field)
 * whose object is not the one last synced is one the user changed.
 *
 * - `mergeOnOpen`: the first read of the server's file. The server's wins for every group the
 *   user has not touched since the page opened; what only this page has (the browser's offline
 *   copy, restored meanwhile) is kept, and then written to the server.
 * - `mergeRemote`: a conflict (409) or another writer's change (an `annotations` event). Each
 *   group the user changed since the last sync keeps ours where ours differs from the sync,
 *   rollout by rollout (`mergeGroup`: two tabs labelling different rollouts of one group both
 *   keep their labels); every other group takes theirs, including its removal.
 */
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
  type GroupAnnotation,
} from "../../core/index.ts";

/** The document-level fields, besides the groups, that are merged one by one. */
const FIELDS = ["annotator", "hackReasons", "judgeRuns", "rubrics", "calibration"] as const;
type Field = (typeof FIELDS)[number];

type Groups = Readonly<Record<string, GroupAnnotation>>;

const own = (groups: Groups, id: string): GroupAnnotation | undefined =>
  Object.hasOwn(groups, id) ? groups[id] : undefined;

function groupIds(...all: Groups[]): Set<string> {
  const ids = new Set<string>();
  for (const groups of all) for (const id of Object.keys(groups)) ids.add(id);
  return ids;
}

/** Whether a field of the server's document says nothing (the value of an empty document). */
function fieldEmpty(doc: Annotations, field: Field): boolean {
  return JSON.stringify(doc[field]) === JSON.stringify(ANNOTATIONS_EMPTY[field]);
}

/** One document from a choice per group and per field; `local` when nothing differs from it. */
function assemble(
  local: Annotations,
  ids: Iterable<string>,
  pickGroup: (id: string) => GroupAnnotation | undefined,
  pickField: (field: Field) => Annotations,
): Annotations {
  const groups: Record<string, GroupAnnotation> = {};
  let same = true;
  for (const id of ids) {
    const g = pickGroup(id);
    if (g !== undefined) groups[id] = g;
    if (g !== own(local.groups, id)) same = false;
  }
  const fields: Partial<Record<Field, unknown>> = {};
  for (const f of FIELDS) {
    fields[f] = pickField(f)[f];
    if (fields[f] !== local[f]) same = false;
  }
  return same ? local : ({ ...local, ...fields, groups } as Annotations);
}

/**
 * The first merge with the server's document: a group or field the user changed since `opened`
 * (the page's annotations when it opened, with what the offline copy restored) keeps `local`'s,
 * as does one the server lacks; everything else is the server's.
 */
export function mergeOnOpen(
  opened: Annotations,
  local: Annotations,
  server: Annotations,
): Annotations {
  const touched = (id: string): boolean => own(local.groups, id) !== own(opened.groups, id);
  return assemble(
    local,
    groupIds(local.groups, server.groups),
    (id) =>
      touched(id) || !Object.hasOwn(server.groups, id) ? own(local.groups, id) : server.groups[id],
    (f) => (local[f] !== opened[f] || fieldEmpty(server, f) ? local : server),
  );
}

const sameValue = (x: unknown, y: unknown): boolean =>
  x === y || JSON.stringify(x) === JSON.stringify(y);

const at = <T>(record: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** Key by key: ours where we changed the key since `base`, else theirs (absent: removed). */
function mergeRecord<T>(
  base: Readonly<Record<string, T>>,
  ours: Readonly<Record<string, T>>,
  theirs: Readonly<Record<string, T>>,
): Record<string, T> {
  const merged: Record<string, T> = {};
  const keys = new Set([...Object.keys(ours), ...Object.keys(theirs), ...Object.keys(base)]);
  for (const key of keys) {
    const o = at(ours, key);
    const value = sameValue(o, at(base, key)) ? at(theirs, key) : o;
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

/**
 * One group changed on both sides since the sync (two tabs, or two pages of one person): a
 * three-way merge, field by field and rollout by rollout. Labels, hack marks, hack details and
 * rollout notes are ours for each rollout we changed, theirs for the others; the ranking, the
 * notes, `reviewed` and the pairwise session are ours if we changed them, else theirs. What both
 * changed is ours (the newer edit). `base` undefined: the group was new to both (an empty base).
 * Returns `ours` itself when the merge adds nothing of theirs.
 */
export function mergeGroup(
  base: GroupAnnotation | undefined,
  ours: GroupAnnotation,
  theirs: GroupAnnotation,
): GroupAnnotation {
  const b = base ?? GROUP_ANNOTATION_EMPTY;
  const pick = <K extends keyof GroupAnnotation>(key: K): GroupAnnotation[K] =>
    sameValue(ours[key], b[key]) ? theirs[key] : ours[key];
  const inBase = new Set(b.hacks);
  const inOurs = new Set(ours.hacks);
  const inTheirs = new Set(theirs.hacks);
  const hacks = [...new Set([...ours.hacks, ...theirs.hacks])].filter((id) =>
    inOurs.has(id) !== inBase.has(id) ? inOurs.has(id) : inTheirs.has(id),
  );
  const details = mergeRecord(b.hackDetails, ours.hackDetails, theirs.hackDetails);
  const merged: GroupAnnotation = {
    ranking: pick("ranking"),
    hacks,
    labels: mergeRecord(b.labels, ours.labels, theirs.labels),
    notes: pick("notes"),
    reviewed: pick("reviewed"),
    hackDetails: Object.fromEntries(
      hacks.flatMap((id) => (Object.hasOwn(details, id) ? [[id, details[id]!]] : [])),
    ),
    rolloutNotes: mergeRecord(b.rolloutNotes, ours.rolloutNotes, theirs.rolloutNotes),
    pairwise: pick("pairwise"),
  };
  const keys = Object.keys(merged) as (keyof GroupAnnotation)[];
  return keys.every((k) => sameValue(merged[k], ours[k])) ? ours : merged;
}

/**
 * A three-way merge: `base` is the server's document as last synced, `local` the page's now,
 * `theirs` the server's now. Ours where the user changed it since `base`, else theirs; a group
 * changed on both sides is merged rollout by rollout (`mergeGroup`).
 */
export function mergeRemote(
  base: Annotations,
  local: Annotations,
  theirs: Annotations,
): Annotations {
  const ours = (id: string): boolean => own(local.groups, id) !== own(base.groups, id);
  return assemble(
    local,
    groupIds(base.groups, local.groups, theirs.groups),
    (id) => {
      if (!ours(id)) return own(theirs.groups, id);
      const mine = own(local.groups, id);
      const their = own(theirs.groups, id);
      // Our removal, or theirs of a group we changed: ours (the user's latest word on it).
      return mine === undefined || their === undefined
        ? mine
        : mergeGroup(own(base.groups, id), mine, their);
    },
    (f) => (local[f] !== base[f] ? local : theirs),
  );
}

/** Whether `local` holds anything `base` does not (a group or field changed since the sync). */
export function changedSince(base: Annotations, local: Annotations): boolean {
  if (base === local) return false;
  if (FIELDS.some((f) => base[f] !== local[f])) return true;
  for (const id of groupIds(base.groups, local.groups))
    if (own(base.groups, id) !== own(local.groups, id)) return true;
  return false;
}

/**
 * `theirs` with `local`'s objects wherever the two are equal in value: the base a sync keeps, so
 * that comparing by reference afterwards sees only what really differs (a parsed document never
 * shares an object with the page's). Run once per read of the server's document, not per change.
 */
export function alignEqual(theirs: Annotations, local: Annotations): Annotations {
  const same = (x: unknown, y: unknown): boolean =>
    x === y || JSON.stringify(x) === JSON.stringify(y);
  const groups: Record<string, GroupAnnotation> = {};
  for (const [id, g] of Object.entries(theirs.groups)) {
    const mine = own(local.groups, id);
    groups[id] = mine !== undefined && same(g, mine) ? mine : g;
  }
  const fields: Partial<Record<Field, unknown>> = {};
  for (const f of FIELDS) fields[f] = same(theirs[f], local[f]) ? local[f] : theirs[f];
  return { ...theirs, ...fields, groups } as Annotations;
}

/**
 * `opened` with what one change brought (the offline copy's restore): every group and field that
 * differs between `previous` and `next` takes `next`'s, so it does not count as the user's.
 */
export function absorbChange(
  opened: Annotations,
  previous: Annotations,
  next: Annotations,
): Annotations {
  const groups: Record<string, GroupAnnotation> = { ...opened.groups };
  for (const id of groupIds(previous.groups, next.groups)) {
    const g = own(next.groups, id);
    if (g === own(previous.groups, id)) continue;
    if (g === undefined) delete groups[id];
    else groups[id] = g;
  }
  const fields: Partial<Record<Field, unknown>> = {};
  for (const f of FIELDS) fields[f] = next[f] !== previous[f] ? next[f] : opened[f];
  return { ...opened, ...fields, groups } as Annotations;
}
