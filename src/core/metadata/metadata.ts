/**
 * Rollout metadata as data to look at and slice by (issue 13, finding 5). Every loader keeps the
 * fields it does not map in `Rollout.meta` (the demo's `meta`, tau-bench's `info`, an Inspect
 * sample's `metadata`, `target` and `scores`, TRL and verl extra columns); this module finds the
 * scalar fields in them (dotted paths for nested objects), reads a field per rollout and per group,
 * splits a group's metadata into what its rollouts share (the task) and what each has of its own,
 * and slices pass rate and mean reward by a field's values. Pure: the group browser, the overview
 * and the rollout columns call it.
 */
import type { Rollout, RolloutGroup } from "../types.ts";

/** A scalar metadata value: what a column shows, a filter compares and a slice groups by. */
export type MetadataScalar = string | number | boolean | null;

/** Caps of field discovery, so a dump with thousands of keys or ids stays quick and readable. */
export interface MetadataFieldCaps {
  /** Fields kept, in order of first appearance (default 100). */
  readonly maxFields: number;
  /** Distinct values remembered per field (default 100); a field with more says so. */
  readonly maxValues: number;
  /** Nested objects are walked this many levels deep (default 4; 1 = top-level keys only). */
  readonly maxDepth: number;
}

export const METADATA_FIELD_CAPS: MetadataFieldCaps = {
  maxFields: 100,
  maxValues: 100,
  maxDepth: 4,
};

export interface MetadataField {
  /** Dotted path: `strategy`, `info.task.user_id`. */
  readonly path: string;
  /** Rollouts that have a scalar at the path. */
  readonly rollouts: number;
  /** Distinct values seen, in order of first appearance, at most `maxValues` of them. */
  readonly values: readonly MetadataScalar[];
  /** True when the field has more distinct values than `values` holds. */
  readonly moreValues: boolean;
}

export interface MetadataFields {
  readonly fields: readonly MetadataField[];
  /** Scalar paths left out by `maxFields` (0 when none were). */
  readonly omitted: number;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is MetadataScalar {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

/**
 * The text a scalar stands for in a column, a filter (`?meta=path=value`) and a slice's name:
 * strings as they are, numbers and booleans as JavaScript prints them, null as "null". A string
 * "1" and the number 1 share a key (the URL cannot tell them apart either).
 */
export function metadataValueKey(value: MetadataScalar): string {
  return typeof value === "string" ? value : String(value);
}

/**
 * The scalar at a dotted path of `meta`, or undefined when the path leads nowhere or to an object
 * or array. A key that itself contains dots (`reward.format`, a CSV header) is matched whole
 * before the path is split at its dots, as the field mapping does.
 */
export function metadataScalarAt(
  meta: Readonly<Record<string, unknown>>,
  path: string,
): MetadataScalar | undefined {
  if (Object.hasOwn(meta, path)) {
    const value = meta[path];
    return isScalar(value) ? value : undefined;
  }
  for (let i = path.indexOf("."); i > 0; i = path.indexOf(".", i + 1)) {
    const head = path.slice(0, i);
    if (!Object.hasOwn(meta, head)) continue;
    const inner = meta[head];
    if (isRecord(inner)) {
      const found = metadataScalarAt(inner, path.slice(i + 1));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

interface FieldAcc {
  rollouts: number;
  values: MetadataScalar[];
  keys: Set<string>;
  more: boolean;
}

/**
 * The scalar fields of the rollouts' metadata: every path to a string, finite number, boolean or
 * null through nested objects (arrays are values, not walked), in order of first appearance, with
 * how many rollouts have each and its first distinct values. Linear in the metadata's keys.
 */
export function metadataFields(
  rollouts: Iterable<Rollout>,
  caps: MetadataFieldCaps = METADATA_FIELD_CAPS,
): MetadataFields {
  const fields = new Map<string, FieldAcc>();
  const omitted = new Set<string>();
  const visit = (obj: Readonly<Record<string, unknown>>, prefix: string, depth: number): void => {
    for (const key of Object.keys(obj)) {
      const value = obj[key];
      const path = prefix === "" ? key : `${prefix}.${key}`;
      if (isRecord(value)) {
        if (depth < caps.maxDepth) visit(value, path, depth + 1);
        continue;
      }
      if (!isScalar(value)) continue;
      let acc = fields.get(path);
      if (acc === undefined) {
        if (fields.size >= caps.maxFields) {
          omitted.add(path);
          continue;
        }
        acc = { rollouts: 0, values: [], keys: new Set(), more: false };
        fields.set(path, acc);
      }
      acc.rollouts++;
      if (acc.more) continue;
      const k = metadataValueKey(value);
      if (acc.keys.has(k)) continue;
      if (acc.values.length >= caps.maxValues) {
        acc.more = true;
        continue;
      }
      acc.keys.add(k);
      acc.values.push(value);
    }
  };
  for (const r of rollouts) visit(r.meta, "", 1);
  return {
    fields: [...fields].map(([path, acc]) => ({
      path,
      rollouts: acc.rollouts,
      values: acc.values,
      moreValues: acc.more,
    })),
    omitted: omitted.size,
  };
}

/** The rollouts of many groups, in order, without copying them into one array. */
export function* metadataRollouts(groups: Iterable<RolloutGroup>): Iterable<Rollout> {
  for (const g of groups) yield* g.rollouts;
}

/** A field's value over one group, for the group browser's metadata column. */
export type MetadataGroupValue =
  /** No rollout of the group has the field. */
  | { readonly kind: "none" }
  /** Every rollout that has it has the same value (`missing` rollouts lack it). */
  | { readonly kind: "constant"; readonly value: MetadataScalar; readonly missing: number }
  /** `count` distinct values. */
  | { readonly kind: "mixed"; readonly count: number };

/** A field's value over a group: none, one value (constant) or how many (mixed). */
export function metadataGroupValue(group: RolloutGroup, path: string): MetadataGroupValue {
  const keys = new Set<string>();
  let first: MetadataScalar | undefined;
  let missing = 0;
  for (const r of group.rollouts) {
    const v = metadataScalarAt(r.meta, path);
    if (v === undefined) {
      missing++;
      continue;
    }
    first ??= v;
    keys.add(metadataValueKey(v));
  }
  if (first === undefined) return { kind: "none" };
  if (keys.size === 1) return { kind: "constant", value: first, missing };
  return { kind: "mixed", count: keys.size };
}

/** The group value as the column shows it: the value, "mixed (k values)", or "" without one. */
export function metadataGroupText(value: MetadataGroupValue): string {
  if (value.kind === "none") return "";
  if (value.kind === "mixed") return `mixed (${value.count} values)`;
  return metadataValueKey(value.value);
}

/** Whether some rollout of the group has `value` (by `metadataValueKey`) at `path`. */
export function metadataGroupHas(group: RolloutGroup, path: string, value: string): boolean {
  return group.rollouts.some((r) => {
    const v = metadataScalarAt(r.meta, path);
    return v !== undefined && metadataValueKey(v) === value;
  });
}

/**
 * A group's metadata split in two: `shared`, the parts every rollout has equal (the task: for
 * tau-bench `info.task`, for the demo the scenario and the order), and `own`, each rollout's
 * remainder. Objects that differ are split key by key, so a nested object keeps its shared keys
 * in `shared` and its differing ones in `own`; arrays and scalars are compared whole (by their
 * JSON text). A group of one rollout shares nothing: everything is its own.
 */
export interface MetadataSplit {
  readonly shared: Readonly<Record<string, unknown>>;
  readonly own: readonly Readonly<Record<string, unknown>>[];
}

/** JSON text with keys sorted, for deep equality of parsed JSON values. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

function splitObjects(objs: readonly Readonly<Record<string, unknown>>[]): MetadataSplit {
  const shared: Record<string, unknown> = {};
  const own: Record<string, unknown>[] = objs.map(() => ({}));
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const o of objs)
    for (const k of Object.keys(o))
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
  for (const k of keys) {
    const everyone = objs.every((o) => Object.hasOwn(o, k));
    const values = objs.map((o) => o[k]);
    if (everyone) {
      const first = canonical(values[0]);
      if (values.every((v, i) => i === 0 || canonical(v) === first)) {
        shared[k] = values[0];
        continue;
      }
      if (values.every(isRecord)) {
        const inner = splitObjects(values);
        if (Object.keys(inner.shared).length > 0) shared[k] = inner.shared;
        inner.own.forEach((o, i) => {
          if (Object.keys(o).length > 0) own[i]![k] = o;
        });
        continue;
      }
    }
    objs.forEach((o, i) => {
      if (Object.hasOwn(o, k)) own[i]![k] = o[k];
    });
  }
  return { shared, own };
}

/** The task-level and per-rollout metadata of a group (see {@link MetadataSplit}). */
export function metadataSplit(group: RolloutGroup): MetadataSplit {
  const metas = group.rollouts.map((r) => r.meta);
  if (metas.length < 2) return { shared: {}, own: metas };
  return splitObjects(metas);
}

export interface MetadataSlice {
  /** The value's key (`metadataValueKey`), or null for the rollouts without the field. */
  readonly value: string | null;
  readonly rollouts: number;
  /** Groups with at least one rollout in the slice (a group can be in several slices). */
  readonly groups: number;
  /** Rollouts with a finite reward. */
  readonly scored: number;
  /** Scored rollouts at or above the pass threshold. */
  readonly passes: number;
  /** passes / scored, in [0, 1]; NaN without a scored rollout. */
  readonly passRate: number;
  /** Mean of the finite rewards; NaN without one. */
  readonly meanReward: number;
}

export interface MetadataSlices {
  readonly path: string;
  /** Largest first (then by value); at most `maxSlices`, the rest in `other`. */
  readonly slices: readonly MetadataSlice[];
  /** The slices left out by `maxSlices`, pooled (rollouts sum; groups counted once); or null. */
  readonly other: (MetadataSlice & { readonly values: number }) | null;
  readonly totalRollouts: number;
  readonly totalGroups: number;
}

interface SliceAcc {
  rollouts: number;
  groups: Set<number>;
  scored: number;
  passes: number;
  sum: number;
}

const newAcc = (): SliceAcc => ({ rollouts: 0, groups: new Set(), scored: 0, passes: 0, sum: 0 });

function finish(value: string | null, a: SliceAcc): MetadataSlice {
  return {
    value,
    rollouts: a.rollouts,
    groups: a.groups.size,
    scored: a.scored,
    passes: a.passes,
    passRate: a.scored === 0 ? NaN : a.passes / a.scored,
    meanReward: a.scored === 0 ? NaN : a.sum / a.scored,
  };
}

/**
 * Pass rate and mean reward per value of a metadata field, with the rollouts and groups of each
 * slice. Every rollout is in exactly one slice (those without the field in the `null` slice), so
 * the slices' rollouts (with `other`'s) add up to the total.
 *
 * @param reward a rollout's reward under the settings (NaN: no reward; not scored)
 * @param passThreshold a rollout passes when its reward is at or above it
 * @param maxSlices slices listed before the rest are pooled into `other`
 */
export function metadataSlices(
  groups: readonly RolloutGroup[],
  path: string,
  reward: (rollout: Rollout) => number,
  passThreshold: number,
  maxSlices = 40,
): MetadataSlices {
  const accs = new Map<string | null, SliceAcc>();
  let total = 0;
  groups.forEach((g, gi) => {
    for (const r of g.rollouts) {
      total++;
      const v = metadataScalarAt(r.meta, path);
      const key = v === undefined ? null : metadataValueKey(v);
      let acc = accs.get(key);
      if (acc === undefined) {
        acc = newAcc();
        accs.set(key, acc);
      }
      acc.rollouts++;
      acc.groups.add(gi);
      const x = reward(r);
      if (Number.isFinite(x)) {
        acc.scored++;
        acc.sum += x;
        if (x >= passThreshold) acc.passes++;
      }
    }
  });
  const order = [...accs].sort(
    (a, b) =>
      b[1].rollouts - a[1].rollouts ||
      (a[0] === null ? 1 : b[0] === null ? -1 : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
  );
  const listed = order.slice(0, Math.max(0, maxSlices));
  const rest = order.slice(listed.length);
  let other: MetadataSlices["other"] = null;
  if (rest.length > 0) {
    const pooled = newAcc();
    for (const [, a] of rest) {
      pooled.rollouts += a.rollouts;
      pooled.scored += a.scored;
      pooled.passes += a.passes;
      pooled.sum += a.sum;
      for (const g of a.groups) pooled.groups.add(g);
    }
    other = { ...finish(null, pooled), values: rest.length };
  }
  return {
    path,
    slices: listed.map(([k, a]) => finish(k, a)),
    other,
    totalRollouts: total,
    totalGroups: groups.length,
  };
}
