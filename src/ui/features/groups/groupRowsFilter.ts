/**
 * What the browser's filters keep: the boolean filters of a row, and the search, which looks in a
 * per-group index of the group's text (built once per dataset, or on the first search).
 */
import { rolloutText, type CompletionRule, type RolloutGroup } from "../../../core/index.ts";
import type { GroupFilters } from "../../../store/url.ts";
import type { GroupRow } from "./groupRow.ts";
import { promptText, type GroupSummary } from "./groupSummaries.ts";

/**
 * The lowercase text a search looks in, per group (aligned with the summaries): its id and prompt
 * preview, and for parsed groups the first rollout's prompt and every rollout's text under the
 * completion rule. Built once per dataset, so a keystroke is one `includes` per group.
 */
export function groupSearchIndex(
  summaries: readonly GroupSummary[],
  groups: ReadonlyMap<string, RolloutGroup>,
  rule: CompletionRule,
): string[] {
  return summaries.map((s) => {
    const group = groups.get(s.id);
    if (group === undefined) return `${s.id}\n${s.prompt}`.toLowerCase();
    const texts = group.rollouts.map((r) => rolloutText(r, rule));
    return [s.id, s.prompt, promptText(group.rollouts[0]?.prompt ?? null), ...texts]
      .join("\n")
      .toLowerCase();
  });
}

/** The search index, or a function that gives it (built on the first search: `lazySearchIndex`). */
export type SearchIndex = readonly string[] | (() => readonly string[]);

/**
 * `groupSearchIndex` built when it is first asked for and kept: the list mounts without it (for
 * 100k groups it lowercases 400k completions), and the first search, or `warm`, builds it once.
 */
export function lazySearchIndex(
  summaries: readonly GroupSummary[],
  groups: ReadonlyMap<string, RolloutGroup>,
  rule: CompletionRule,
): () => readonly string[] {
  let index: readonly string[] | null = null;
  return () => (index ??= groupSearchIndex(summaries, groups, rule));
}

/** Does a row pass the boolean filters (every checked one)? */
export function rowPassesFlags(row: GroupRow, filters: GroupFilters): boolean {
  return (
    (!filters.mixedOnly || row.mixed) &&
    (!filters.zeroStdOnly || row.zeroStd) &&
    (!filters.hacksOnly || row.hacks > 0 || row.flagged > 0) &&
    (!filters.unreviewedOnly || !row.reviewed) &&
    (!filters.toolErrorsOnly || (row.toolErrors ?? 0) > 0) &&
    (filters.steps === null ||
      (row.step !== null && row.step >= filters.steps.from && row.step <= filters.steps.to))
  );
}

/**
 * The rows every filter keeps, in the given order. The query is trimmed and matched
 * case-insensitively in `haystacks[row.index]` (from `groupSearchIndex`, asked for only when there
 * is a query); without a haystack, in the row's id and prompt.
 */
export function filterGroupRows(
  rows: readonly GroupRow[],
  filters: GroupFilters,
  index: SearchIndex = [],
): GroupRow[] {
  const query = filters.query.trim().toLowerCase();
  const haystacks = query === "" ? [] : typeof index === "function" ? index() : index;
  return rows.filter(
    (r) =>
      rowPassesFlags(r, filters) &&
      (query === "" ||
        (haystacks[r.index] ?? `${r.id}\n${r.prompt}`.toLowerCase()).includes(query)),
  );
}
