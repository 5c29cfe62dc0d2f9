/**
 * How the page's annotations and the `view` server's meet (serverAnnotations.ts). Pure, and by
 * reference: the store never edits an annotation in place, so a group (or a document field)
 * whose object is not the one last synced is one the user changed.
 *
 * - `mergeOnOpen`: the first read of the server's file. The server's wins for every group the
 *   user has not touched since the page opened; what only this page has (the browser's offline
 *   copy, restored meanwhile) is kept, and then written to the server.
 * - `mergeRemote`: a conflict (409) or another writer's change (an `annotations` event). Each
 *   group the user changed since the last sync keeps ours; every other group takes theirs,
 *   including its removal.
 */
import { ANNOTATIONS_EMPTY, type Annotations, type GroupAnnotation } from "../../core/index.ts";

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

/**
 * A three-way merge: `base` is the server's document as last synced, `local` the page's now,
 * `theirs` the server's now. Ours where the user changed it since `base`, else theirs.
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
    (id) => (ours(id) ? own(local.groups, id) : own(theirs.groups, id)),
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
