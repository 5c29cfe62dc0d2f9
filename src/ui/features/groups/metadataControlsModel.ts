/**
 * The metadata controls' view model: which rollouts the fields are discovered from, the distinct
 * values of the filter's field, and the options of a menu that keeps a linked value it lacks.
 */
import {
  metadataScalarAt,
  metadataValueKey,
  type Rollout,
  type RolloutGroup,
} from "../../../core/index.ts";

/** Rollouts read to discover the metadata fields. */
export const DISCOVERY_ROLLOUTS = 20_000;
/** Distinct values listed in the filter's menu. */
export const FILTER_VALUES_CAP = 500;

/** The first `cap` rollouts of the parsed groups, in order: those the fields are discovered from. */
export function* firstRollouts(
  groups: ReadonlyMap<string, RolloutGroup>,
  cap: number,
): Iterable<Rollout> {
  let n = 0;
  for (const g of groups.values())
    for (const r of g.rollouts) {
      if (n++ >= cap) return;
      yield r;
    }
}

/** What the fields were discovered from, for the picker's legend. */
export function discoveryScope(rollouts: number): string {
  return rollouts > DISCOVERY_ROLLOUTS
    ? `the first ${DISCOVERY_ROLLOUTS.toLocaleString("en")} of ${rollouts.toLocaleString("en")} rollouts`
    : "every rollout";
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/** The distinct values of one field over every parsed group, in natural order, capped. */
export function fieldValues(
  groups: ReadonlyMap<string, RolloutGroup>,
  path: string,
): { readonly values: readonly string[]; readonly more: boolean } {
  const seen = new Set<string>();
  let more = false;
  for (const g of groups.values())
    for (const r of g.rollouts) {
      const v = metadataScalarAt(r.meta, path);
      if (v === undefined) continue;
      const k = metadataValueKey(v);
      if (seen.has(k)) continue;
      if (seen.size >= FILTER_VALUES_CAP) {
        more = true;
        continue;
      }
      seen.add(k);
    }
  return { values: [...seen].sort(collator.compare), more };
}

/**
 * A menu's options with the chosen one first when they lack it: a field or value from a link that
 * the discovered ones lack is still offered, so the link is kept. "" is no choice.
 */
export function optionsKeeping(options: readonly string[], chosen: string): readonly string[] {
  return chosen === "" || options.includes(chosen) ? options : [chosen, ...options];
}
