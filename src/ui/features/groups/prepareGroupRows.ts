/**
 * View models of the group browser: one prepared row per group, the search text, the filters and
 * the sort. Every decision (formatting, flags, spread status, annotation status, what a filter keeps,
 * the order) is made here and tested; the table components render these rows and decide nothing.
 *
 * Sizes: the browser prepares every group of the file (100k rows in the scroll benchmark), so each
 * function is one pass over the rows, and a row is rebuilt only when its inputs change (see
 * `annotateGroupRows`, which keeps the identity of unannotated rows for the memoised table rows).
 */
import {
  garFactorsOfKept,
  rolloutReward,
  rolloutText,
  rolloutToolErrors,
  spreadCheck,
  spreadOk,
  statsFinite,
  type AnalysisSettings,
  type ChatMessage,
  type CompletionRule,
  type GroupAnnotation,
  type JudgeRun,
  type RolloutGroup,
} from "../../../core/index.ts";
import { promptText, type GroupSummary } from "../../../io/dataset.ts";
import type { GroupFilters, GroupSort, GroupSortKey } from "../../../store/url.ts";

const PREVIEW = 120;

/**
 * A mean or std as the table shows it: three decimals, "–" without a value (NaN). Formatted when a
 * row is rendered, not prepared: 200k `toFixed` calls for 100k groups at mount.
 */
export const statText = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : "–");

// Anything `preview` would change: a whitespace run, whitespace other than a space, or a space at
// either end. `\s` and `trim` agree on what whitespace is (WhiteSpace and LineTerminator).
const NOT_FLAT = /\s\s|[^\S ]|^ | $/;

function preview(text: string): string {
  // Most prompt previews are one line already (an indexed file's summaries are flat, up to 160
  // characters): only cut them. Flattening every one again cost ~4 µs a row (37k rows: 150 ms).
  const flat = NOT_FLAT.test(text) ? text.replace(/\s+/g, " ").trim() : text;
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW)}…` : flat;
}

/** The prompt as one line: text as is, messages as their last user turn. */
export function promptPreview(prompt: string | readonly ChatMessage[] | null): string {
  return preview(promptText(prompt));
}

export type SpreadStatus = "yes" | "no" | "n/a";

export interface SpreadCell {
  /** "n/a" when fewer than two scores: the check cannot tell anything apart. */
  readonly status: SpreadStatus;
  /**
   * The spread report and what it was computed over (the cell's tooltip). The status and the
   * title are getters for rows without a ranking (`RewardSpreadCell`): read them by name, an object
   * spread does not copy them.
   */
  readonly title: string;
}

/**
 * The spread cell of a group without a ranking (every row at mount): `rewardSpread`'s status and
 * report text, each worked out when first read (the status to render or sort the row, the text for
 * its tooltip) and kept. Building them for 100k groups in the mounting render cost about half of
 * preparing the rows.
 */
class RewardSpreadCell implements SpreadCell {
  readonly #rewards: readonly number[];
  #status: SpreadStatus | null = null;
  #title: string | null = null;

  constructor(rewards: readonly number[]) {
    this.#rewards = rewards;
  }

  get status(): SpreadStatus {
    if (this.#status === null) {
      // spreadCheck's verdict over the finite rewards, without its report.
      const scores = statsFinite(this.#rewards);
      this.#status = scores.length < 2 ? "n/a" : spreadOk(scores) ? "yes" : "no";
    }
    return this.#status;
  }

  get title(): string {
    this.#title ??= rewardSpread(this.#rewards).title;
    return this.#title;
  }
}

export interface GroupRow {
  readonly id: string;
  /** Position in the file (the summaries' order): the default order and every sort's tie-break. */
  readonly index: number;
  /** The training step (the summary's: the rows' step, else the run file's); null without one. */
  readonly step: number | null;
  readonly prompt: string;
  readonly n: number;
  readonly passes: number;
  /** Mean and population std of the finite rewards; NaN without any (shown with `statText`). */
  readonly mean: number;
  readonly std: number;
  readonly mixed: boolean;
  /** Every finite reward equal (core `groupFlags`); false for an unscored group. */
  readonly zeroStd: boolean;
  /** No finite reward at all: shown as "unscored", never as zero std. */
  readonly unscored: boolean;
  /** Fewer rollouts than most groups of the file. */
  readonly partial: boolean;
  /** The group's rollouts are parsed (always for a whole-file load; on demand for indexed files). */
  readonly parsed: boolean;
  readonly spread: SpreadCell;
  /** Rollouts annotated as hacks (by a person). */
  readonly hacks: number;
  /** Tool results that are errors (core `toolResultError`); null while the group is not parsed. */
  readonly toolErrors: number | null;
  /**
   * Passes the latest gar run with an entry for the group flags as hacks (0 without one), and who
   * flagged them: shown apart from the human marks, "2 (heuristic)" (`flagGroupRows`).
   */
  readonly flagged: number;
  readonly flaggedBy: "heuristic" | "judge" | null;
  /** "ranked · labelled 2/4 · notes", or "" without an annotation. */
  readonly annotation: string;
  /** Sort weight of the annotation: ranked first, then the share labelled, then notes. */
  readonly annotationWeight: number;
  readonly reviewed: boolean;
}

/** The settings the rows depend on (not the advantage or clustering settings). */
export type RowSettings = Pick<
  AnalysisSettings,
  "passThreshold" | "rewardWeights" | "minFactor" | "completionRule"
>;

/**
 * A group's rewards: its summary's (the logged reward, or the sum of the components), or with
 * reward weights set and the group parsed, each rollout's weighted total, as the advantages use.
 */
function groupRewards(
  summary: GroupSummary,
  group: RolloutGroup | undefined,
  settings: RowSettings,
): readonly number[] {
  if (settings.rewardWeights === null || group === undefined) return summary.rewards;
  return group.rollouts.map((r) => rolloutReward(r, settings.rewardWeights));
}

/**
 * The spread check (core `spreadCheck`, methods.md 2.5) of one group. With a human ranking, over
 * the GAR factors (core `garFactorsOfKept`, settings.minFactor) of its ranked passes that are not
 * hacks, re-ranked among themselves; whether a ranked rollout passes is checked only when the group
 * is parsed (the tooltip says so otherwise). Without a ranking, over the group's finite rewards.
 */
export function groupSpread(
  rewards: readonly number[],
  annotation: GroupAnnotation | undefined,
  group: RolloutGroup | undefined,
  settings: RowSettings,
): SpreadCell {
  if (annotation === undefined || annotation.ranking.length === 0) return rewardSpread(rewards);
  const hacks = new Set(annotation.hacks);
  const passing =
    group === undefined
      ? null
      : new Set(
          group.rollouts
            .filter((r) => rolloutReward(r, settings.rewardWeights) >= settings.passThreshold)
            .map((r) => r.id),
        );
  let scores: number[];
  try {
    scores = garFactorsOfKept(
      annotation.ranking,
      settings.minFactor,
      (id) => !hacks.has(id) && (passing === null || passing.has(id)),
    );
  } catch (e) {
    return {
      status: "n/a",
      title: `spread check: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  return spreadCell(
    scores,
    `the GAR factors of ${scores.length} ranked non-hack pass${scores.length === 1 ? "" : "es"} ` +
      `(min factor ${settings.minFactor})` +
      (passing === null ? "; pass status not checked, the group is not parsed yet" : ""),
  );
}

/** The spread check of a group without a ranking: over its finite rewards. */
export function rewardSpread(rewards: readonly number[]): SpreadCell {
  const scores = statsFinite(rewards);
  return spreadCell(
    scores,
    `the rewards of ${scores.length} rollout${scores.length === 1 ? "" : "s"}`,
  );
}

function spreadCell(scores: readonly number[], over: string): SpreadCell {
  const report = spreadCheck(scores, 1);
  return {
    status: report.n < 2 ? "n/a" : report.ok ? "yes" : "no",
    title: `${report.text}\nComputed over ${over}.`,
  };
}

const NO_ANNOTATION = { text: "", weight: 0 } as const;

/** The annotation column's text and sort weight. */
export function annotationStatus(
  annotation: GroupAnnotation | undefined,
  n: number,
): { readonly text: string; readonly weight: number } {
  if (annotation === undefined) return NO_ANNOTATION;
  const ranked = annotation.ranking.some((tier) => tier.length > 0);
  const labelled = Object.keys(annotation.labels).length;
  const notes = annotation.notes.trim() !== "";
  const parts = [
    ranked ? "ranked" : null,
    labelled > 0 ? `labelled ${labelled}/${n}` : null,
    notes ? "notes" : null,
  ].filter((p): p is string => p !== null);
  const share = n > 0 ? Math.min(1, labelled / n) : 0;
  return { text: parts.join(" · "), weight: (ranked ? 1e6 : 0) + share * 1e3 + (notes ? 1 : 0) };
}

/** Tool errors of a group, counted once per parsed group object (rows rebuild on annotations). */
const toolErrorCounts = new WeakMap<RolloutGroup, number>();
function groupToolErrors(group: RolloutGroup): number {
  let n = toolErrorCounts.get(group);
  if (n === undefined) {
    n = 0;
    for (const r of group.rollouts) n += rolloutToolErrors(r);
    toolErrorCounts.set(group, n);
  }
  return n;
}

function rowFromSummary(
  summary: GroupSummary,
  index: number,
  group: RolloutGroup | undefined,
  annotation: GroupAnnotation | undefined,
  settings: RowSettings,
): GroupRow {
  const rewards = groupRewards(summary, group, settings);
  // One pass over the rewards, no array per group: the same sums, in the same order, as core
  // groupFlags, statsMean and statsStd (population) over the finite rewards.
  const n = rewards.length;
  let passes = 0;
  let finiteCount = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const r = rewards[i]!;
    if (r >= settings.passThreshold) passes++;
    if (Number.isFinite(r)) {
      finiteCount++;
      sum += r;
    }
  }
  const mean = finiteCount === 0 ? NaN : sum / finiteCount;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const r = rewards[i]!;
    if (Number.isFinite(r)) squares += (r - mean) * (r - mean);
  }
  const std = finiteCount === 0 ? NaN : Math.sqrt(squares / finiteCount);
  let spread: SpreadCell;
  if (annotation !== undefined && annotation.ranking.length > 0) {
    spread = groupSpread(rewards, annotation, group, settings);
  } else {
    spread = new RewardSpreadCell(rewards);
  }
  const status = annotationStatus(annotation, n);
  return {
    id: summary.id,
    index,
    step: summary.step,
    prompt:
      summary.prompt !== ""
        ? preview(summary.prompt)
        : promptPreview(group?.rollouts[0]?.prompt ?? null),
    n,
    passes,
    mean,
    std,
    mixed: passes > 0 && passes < n,
    // groupFlags: every finite reward equal; no reward at all is unscored instead.
    zeroStd: finiteCount > 0 && std <= 1e-8,
    unscored: finiteCount === 0,
    partial: summary.partial,
    parsed: group !== undefined,
    spread,
    hacks: annotation?.hacks.length ?? 0,
    toolErrors: group === undefined ? null : groupToolErrors(group),
    flagged: 0,
    flaggedBy: null,
    annotation: status.text,
    annotationWeight: status.weight,
    reviewed: annotation?.reviewed ?? false,
  };
}

/**
 * One row per group, in file order, without annotations (see `annotateGroupRows`).
 *
 * @param groups the parsed groups by id (all of them for a whole-file load)
 */
export function prepareGroupRows(
  summaries: readonly GroupSummary[],
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: RowSettings,
): GroupRow[] {
  return summaries.map((s, i) => rowFromSummary(s, i, groups.get(s.id), undefined, settings));
}

const sameRowSettings = (a: RowSettings, b: RowSettings): boolean =>
  a.passThreshold === b.passThreshold &&
  a.rewardWeights === b.rewardWeights &&
  a.minFactor === b.minFactor &&
  a.completionRule === b.completionRule;

/**
 * `prepareGroupRows`, remembering its last rows: for the same summaries and settings with other
 * parsed groups (a group opened in an indexed file parses it), only the rows of the groups that
 * changed are built again, so opening one group of 100,000 costs that group, not every row (it
 * was ~150 ms a group). Any other change builds every row, as `prepareGroupRows`.
 */
export interface GroupRowsBuilder {
  (
    summaries: readonly GroupSummary[],
    groups: ReadonlyMap<string, RolloutGroup>,
    settings: RowSettings,
  ): GroupRow[];
  /** Whether a call with these would build only the changed rows (same summaries and settings). */
  incremental(summaries: readonly GroupSummary[], settings: RowSettings): boolean;
  /** Take rows built elsewhere (`prepareGroupRowsSliced`) as the last ones. */
  seed(
    summaries: readonly GroupSummary[],
    groups: ReadonlyMap<string, RolloutGroup>,
    settings: RowSettings,
    rows: GroupRow[],
  ): void;
}

/** Rows built per slice between two pauses (~5 ms of a 2-core machine's main thread). */
const ROWS_PER_SLICE = 4000;

/**
 * `prepareGroupRows`, a slice of rows at a time with `pause()` awaited between slices, so 100,000
 * groups never block the main thread in one task (~130 ms). Null when `isCancelled()` turns true.
 */
export async function prepareGroupRowsSliced(
  summaries: readonly GroupSummary[],
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: RowSettings,
  pause: () => Promise<void>,
  isCancelled: () => boolean,
): Promise<GroupRow[] | null> {
  const rows = new Array<GroupRow>(summaries.length);
  for (let start = 0; start < summaries.length; start += ROWS_PER_SLICE) {
    if (start > 0) {
      await pause();
      if (isCancelled()) return null;
    }
    const end = Math.min(summaries.length, start + ROWS_PER_SLICE);
    for (let i = start; i < end; i++) {
      const s = summaries[i]!;
      rows[i] = rowFromSummary(s, i, groups.get(s.id), undefined, settings);
    }
  }
  return rows;
}

export function groupRowsBuilder(): GroupRowsBuilder {
  let last: {
    readonly summaries: readonly GroupSummary[];
    readonly groups: ReadonlyMap<string, RolloutGroup>;
    readonly settings: RowSettings;
    readonly rows: GroupRow[];
  } | null = null;
  // Each summary's place by id (built on the first change of groups; null with duplicate ids).
  let placeOf: Map<string, number> | null | undefined;
  const build = (
    summaries: readonly GroupSummary[],
    groups: ReadonlyMap<string, RolloutGroup>,
    settings: RowSettings,
  ): GroupRow[] => {
    if (
      last === null ||
      last.summaries !== summaries ||
      !sameRowSettings(last.settings, settings)
    ) {
      placeOf = undefined;
      last = { summaries, groups, settings, rows: prepareGroupRows(summaries, groups, settings) };
      return last.rows;
    }
    if (last.groups === groups) return last.rows;
    if (placeOf === undefined) {
      const places = new Map<string, number>();
      for (let i = 0; i < summaries.length; i++) {
        if (places.has(summaries[i]!.id)) break;
        places.set(summaries[i]!.id, i);
      }
      placeOf = places.size === summaries.length ? places : null;
    }
    const before = last.groups;
    let rows: GroupRow[];
    if (placeOf === null) rows = prepareGroupRows(summaries, groups, settings);
    else {
      const places = placeOf;
      rows = [...last.rows];
      const rebuild = (id: string): void => {
        const i = places.get(id);
        if (i !== undefined)
          rows[i] = rowFromSummary(summaries[i]!, i, groups.get(id), undefined, settings);
      };
      for (const [id, group] of groups) if (before.get(id) !== group) rebuild(id);
      for (const id of before.keys()) if (!groups.has(id)) rebuild(id);
    }
    last = { summaries, groups, settings, rows };
    return rows;
  };
  return Object.assign(build, {
    incremental: (summaries: readonly GroupSummary[], settings: RowSettings): boolean =>
      last !== null && last.summaries === summaries && sameRowSettings(last.settings, settings),
    seed: (
      summaries: readonly GroupSummary[],
      groups: ReadonlyMap<string, RolloutGroup>,
      settings: RowSettings,
      rows: GroupRow[],
    ): void => {
      placeOf = undefined;
      last = { summaries, groups, settings, rows };
    },
  });
}

/**
 * The rows with the annotations applied. Rows of groups without an annotation are returned as they
 * are (same object), so a change to one group's annotation re-renders only that row.
 */
export function annotateGroupRows(
  rows: readonly GroupRow[],
  summaries: readonly GroupSummary[],
  annotations: Readonly<Record<string, GroupAnnotation>>,
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: RowSettings,
): GroupRow[] {
  if (Object.keys(annotations).length === 0) return [...rows];
  return rows.map((row) => {
    const annotation = Object.hasOwn(annotations, row.id) ? annotations[row.id] : undefined;
    const summary = summaries[row.index];
    if (annotation === undefined || summary === undefined) return row;
    return rowFromSummary(summary, row.index, groups.get(row.id), annotation, settings);
  });
}

/**
 * The rows with the hack flags of the judge runs: for each group, the latest gar run (LLM or the
 * heuristic grader, a spread check included) that has an entry for it, with its flag count and
 * who flagged. Rows without such a run are returned as they are (the same array without runs).
 */
export function flagGroupRows(
  rows: readonly GroupRow[],
  runs: readonly JudgeRun[],
): readonly GroupRow[] {
  const latest = new Map<string, JudgeRun>();
  for (const run of runs) {
    if (run.info.mode !== "gar") continue;
    for (const id of Object.keys(run.groups)) latest.set(id, run);
  }
  if (latest.size === 0) return rows;
  return rows.map((row) => {
    const run = latest.get(row.id);
    const result = run?.groups[row.id];
    if (run === undefined || result === undefined || result.error !== null) return row;
    const flagged = new Set(result.hacks).size;
    if (flagged === 0) return row;
    return { ...row, flagged, flaggedBy: run.info.source === "heuristic" ? "heuristic" : "judge" };
  });
}

/** The Hacks cell: "2" (human marks), "2 (heuristic)" (a run's flags), "1 · 2 (judge)" (both). */
export function hacksText(row: Pick<GroupRow, "hacks" | "flagged" | "flaggedBy">): string {
  const human = row.hacks > 0 ? String(row.hacks) : "";
  const judged = row.flagged > 0 ? `${row.flagged} (${row.flaggedBy ?? "judge"})` : "";
  return human !== "" && judged !== "" ? `${human} · ${judged}` : human + judged;
}

/** Whether two rows show the same values (every field; the spread by its status and text). */
export function sameGroupRow(a: GroupRow, b: GroupRow): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as (keyof GroupRow)[];
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => {
      if (k === "spread")
        return a.spread.status === b.spread.status && a.spread.title === b.spread.title;
      // NaN (a group without finite rewards) equals itself here.
      return Object.is(a[k], b[k]);
    })
  );
}

/**
 * `next` with every row equal to the row at the same place of `previous` replaced by that row,
 * or `previous` itself when every row is equal. An annotation change that leaves every row as it
 * was (a ranking keystroke that swaps two passes) then changes nothing downstream: no filter,
 * sort or table render runs.
 */
export function shareRows(
  previous: readonly GroupRow[],
  next: readonly GroupRow[],
): readonly GroupRow[] {
  if (previous.length !== next.length) return next;
  let changed = false;
  const shared = next.map((row, i) => {
    const old = previous[i]!;
    if (sameGroupRow(old, row)) return old;
    changed = true;
    return row;
  });
  return changed ? shared : previous;
}

/**
 * A memoised selector of the annotated rows, for the store's annotations by group (the reselect
 * pattern): the same annotations give the same array, and a change that leaves every row as it
 * was gives the previous array (shareRows). A ranking keystroke that swaps two passes then does
 * not re-render the group list at all.
 */
export function annotatedRowsSelector(
  rows: readonly GroupRow[],
  summaries: readonly GroupSummary[],
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: RowSettings,
): (annotations: Readonly<Record<string, GroupAnnotation>>) => readonly GroupRow[] {
  let last: {
    annotations: Readonly<Record<string, GroupAnnotation>>;
    rows: readonly GroupRow[];
  } | null = null;
  return (annotations) => {
    if (last !== null && last.annotations === annotations) return last.rows;
    const next = annotateGroupRows(rows, summaries, annotations, groups, settings);
    last = { annotations, rows: last === null ? next : shareRows(last.rows, next) };
    return last.rows;
  };
}

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

const SPREAD_ORDER: Readonly<Record<SpreadStatus, number>> = { no: 0, yes: 1, "n/a": NaN };

/** The value a column sorts by: numbers (NaN = no value) or text. */
export function sortValue(row: GroupRow, key: GroupSortKey): number | string {
  switch (key) {
    case "id":
      return row.id;
    case "step":
      return row.step ?? NaN;
    case "prompt":
      return row.prompt;
    case "n":
      return row.n;
    case "passes":
      return row.passes;
    case "mean":
      return row.mean;
    case "std":
      return row.std;
    case "zeroStd":
      return row.zeroStd ? 1 : 0;
    case "spread":
      return SPREAD_ORDER[row.spread.status];
    case "hacks":
      // Human marks first, a run's flags break the tie.
      return row.hacks + row.flagged / 1e6;
    case "toolErrors":
      return row.toolErrors ?? NaN;
    case "annotation":
      return row.annotationWeight;
    case "reviewed":
      return row.reviewed ? 1 : 0;
  }
}

// Natural order ("g2" before "g10", "2" before "10"), case-insensitive, independent of the locale.
const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

const isMissing = (v: number | string): boolean =>
  (typeof v === "number" && Number.isNaN(v)) || v === "";

/**
 * Ascending comparison of two sort values: numbers numerically, text in natural order, numbers
 * before text. Missing values (NaN, empty text) are not ordered here: `sortGroupRows` puts them last.
 */
export function compareSortValues(a: number | string, b: number | string): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return collator.compare(a, b);
}

/**
 * The rows in the sort's order; null sorts by file order. Missing values (NaN, empty text) go last
 * in both directions; ties keep file order, so the order is deterministic.
 */
export function sortGroupRows(rows: readonly GroupRow[], sort: GroupSort | null): GroupRow[] {
  if (sort === null) return [...rows].sort((a, b) => a.index - b.index);
  const values = rows.map((r) => sortValue(r, sort.key));
  const missing = values.map(isMissing);
  const sign = sort.desc ? -1 : 1;
  const order = rows.map((_, i) => i);
  order.sort((i, j) => {
    const mi = missing[i]!;
    const mj = missing[j]!;
    if (mi !== mj) return mi ? 1 : -1;
    const c = mi ? 0 : sign * compareSortValues(values[i]!, values[j]!);
    return c !== 0 ? c : rows[i]!.index - rows[j]!.index;
  });
  return order.map((i) => rows[i]!);
}

export interface ClusterCell {
  readonly text: string;
  readonly title: string;
}

/** What the worker's cluster cache holds for a group (store/slices/clusterSlice's entry). */
export type ClusterCellEntry =
  | { readonly status: "pending" }
  | { readonly status: "done"; readonly result: { readonly nClusters: number } }
  | { readonly status: "error"; readonly message: string };

/** The clusters cell: "–" until the group is parsed, "…" while the worker computes, then the count. */
export function clusterCell(parsed: boolean, entry: ClusterCellEntry | undefined): ClusterCell {
  if (!parsed) return { text: "–", title: "not parsed yet: open the group to cluster it" };
  if (entry === undefined || entry.status === "pending")
    return { text: "…", title: "clustering in the worker" };
  if (entry.status === "error") return { text: "!", title: `clustering failed: ${entry.message}` };
  const k = entry.result.nClusters;
  return { text: String(k), title: `${k} n-gram cluster${k === 1 ? "" : "s"}` };
}

/**
 * The keyboard's next selection among the listed ids: ArrowUp/k and ArrowDown/j move one row
 * (from nothing or an unlisted selection, to the first or last row), Home and End jump. Null for
 * any other key or an empty list.
 */
export function nextSelection(
  ids: readonly string[],
  current: string | null,
  key: string,
): string | null {
  if (ids.length === 0) return null;
  const at = current === null ? -1 : ids.indexOf(current);
  const last = ids.length - 1;
  switch (key) {
    case "ArrowDown":
    case "j":
      return ids[at === -1 ? 0 : Math.min(last, at + 1)]!;
    case "ArrowUp":
    case "k":
      return ids[at === -1 ? last : Math.max(0, at - 1)]!;
    case "Home":
      return ids[0]!;
    case "End":
      return ids[last]!;
    default:
      return null;
  }
}
