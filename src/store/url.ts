/**
 * The view's place in the URL, so a link opens the same view:
 *
 * - `?group=<id>`: the open group;
 * - `?filter=mixed,zero-std,hacks,unreviewed,tool-errors`: the group browser's filters (any subset);
 * - `?q=<text>`: its text search;
 * - `?sort=<column>:<asc|desc>`: its sort (absent: file order);
 * - `?step=40` or `?steps=10-40`: its step filter (a run's groups of one step, or a range);
 * - the data (issue 13): `?demo` for the bundled demo, `?file=<name>&fp=<fingerprint prefix>` for
 *   a file the user opened (a page cannot read it back: a reload asks for it again), and
 *   `?run=<path>` reserved for a `rollout-studio view` run's folder (issue 14). Writing one removes
 *   the others.
 *
 * Other query parameters (`index-threshold`) are kept as they are. Values read from the
 * URL are untrusted: unknown filter names and sort columns are ignored. The parsers take the query
 * string, so they are testable without a window.
 */
import type { ReviewQueueMode } from "../core/index.ts";

export function groupFromUrl(): string | null {
  return new URLSearchParams(window.location.search).get("group");
}

export function writeGroupToUrl(groupId: string | null): void {
  writeParams((params) => {
    if (groupId === null) params.delete("group");
    else params.set("group", groupId);
  });
}

export interface GroupFilters {
  /** Groups with both passes and failures. */
  readonly mixedOnly: boolean;
  /** Groups whose rewards are all equal (advantages all 0). */
  readonly zeroStdOnly: boolean;
  /** Groups with at least one rollout annotated as a hack. */
  readonly hacksOnly: boolean;
  /** Groups not marked reviewed. */
  readonly unreviewedOnly: boolean;
  /** Parsed groups with at least one tool result that is an error (core `toolResultError`). */
  readonly toolErrorsOnly: boolean;
  /** Case-insensitive text searched in group ids, prompts and (parsed groups') completions. */
  readonly query: string;
  /** Groups of these steps (both ends included); null: every step. */
  readonly steps: StepRange | null;
}

/** A range of training steps, both ends included (from = to for one step). */
export interface StepRange {
  readonly from: number;
  readonly to: number;
}

/** `?step=40` or `?steps=10-40` (untrusted: anything else is no filter). */
export function stepsFromSearch(search: string): StepRange | null {
  const params = new URLSearchParams(search);
  const one = params.get("step");
  if (one !== null && /^\d+$/.test(one.trim())) return { from: Number(one), to: Number(one) };
  const range = /^(\d+)-(\d+)$/.exec((params.get("steps") ?? "").trim());
  if (range === null) return null;
  const [a, b] = [Number(range[1]), Number(range[2])];
  return { from: Math.min(a, b), to: Math.max(a, b) };
}

export const NO_FILTERS: GroupFilters = {
  mixedOnly: false,
  zeroStdOnly: false,
  hacksOnly: false,
  unreviewedOnly: false,
  toolErrorsOnly: false,
  query: "",
  steps: null,
};

/** Each boolean filter and its name in `?filter=`. */
const FILTER_NAMES = [
  ["mixedOnly", "mixed"],
  ["zeroStdOnly", "zero-std"],
  ["hacksOnly", "hacks"],
  ["unreviewedOnly", "unreviewed"],
  ["toolErrorsOnly", "tool-errors"],
] as const satisfies readonly (readonly [keyof GroupFilters, string])[];

/** The group browser's sortable columns, as they appear in `?sort=`. */
export const GROUP_SORT_KEYS = [
  "id",
  "step",
  "prompt",
  "n",
  "passes",
  "mean",
  "std",
  "zeroStd",
  "spread",
  "hacks",
  "toolErrors",
  "annotation",
  "reviewed",
] as const;

export type GroupSortKey = (typeof GROUP_SORT_KEYS)[number];

/** One column, ascending or descending; null is file order. */
export interface GroupSort {
  readonly key: GroupSortKey;
  readonly desc: boolean;
}

export function isGroupSortKey(value: string): value is GroupSortKey {
  return (GROUP_SORT_KEYS as readonly string[]).includes(value);
}

/** Filters from a query string such as `?filter=mixed,zero-std&q=text`. */
export function filtersFromSearch(search: string): GroupFilters {
  const params = new URLSearchParams(search);
  const flags = new Set((params.get("filter") ?? "").split(",").map((f) => f.trim()));
  const filters: { -readonly [K in keyof GroupFilters]: GroupFilters[K] } = {
    ...NO_FILTERS,
    query: params.get("q") ?? "",
    steps: stepsFromSearch(search),
  };
  for (const [key, name] of FILTER_NAMES) filters[key] = flags.has(name);
  return filters;
}

/** The sort from a query string such as `?sort=mean:desc`; null when absent or unknown. */
export function sortFromSearch(search: string): GroupSort | null {
  const raw = new URLSearchParams(search).get("sort");
  if (raw === null) return null;
  const [key = "", direction = "asc"] = raw.split(":");
  if (!isGroupSortKey(key) || (direction !== "asc" && direction !== "desc")) return null;
  return { key, desc: direction === "desc" };
}

export function filtersFromUrl(): GroupFilters {
  return filtersFromSearch(window.location.search);
}

export function sortFromUrl(): GroupSort | null {
  return sortFromSearch(window.location.search);
}

export function writeFiltersToUrl(filters: GroupFilters): void {
  writeParams((params) => {
    const flags = FILTER_NAMES.filter(([key]) => filters[key]).map(([, name]) => name);
    if (flags.length > 0) params.set("filter", flags.join(","));
    else params.delete("filter");
    if (filters.query !== "") params.set("q", filters.query);
    else params.delete("q");
    params.delete("step");
    params.delete("steps");
    const steps = filters.steps;
    if (steps !== null && steps.from === steps.to) params.set("step", String(steps.from));
    else if (steps !== null) params.set("steps", `${steps.from}-${steps.to}`);
  });
}

export function writeSortToUrl(sort: GroupSort | null): void {
  writeParams((params) => {
    if (sort === null) params.delete("sort");
    else params.set("sort", `${sort.key}:${sort.desc ? "desc" : "asc"}`);
  });
}

/** Edit the query string in place (replaceState: the view is not a navigation step). */
function writeParams(edit: (params: URLSearchParams) => void): void {
  const url = new URL(window.location.href);
  edit(url.searchParams);
  if (url.href !== window.location.href) window.history.replaceState(null, "", url);
}

/**
 * The review queue (`?queue=mixed` or `?queue=sample:<size>:<seed>`; absent: every group). An
 * unreadable value is the default queue.
 */
export function queueFromSearch(search: string): ReviewQueueMode {
  const raw = new URLSearchParams(search).get("queue");
  if (raw === "mixed") return { kind: "mixed" };
  const sample = /^sample:(\d{1,9}):(\d{1,10})$/.exec(raw ?? "");
  if (sample !== null) {
    const seed = Number(sample[2]);
    if (seed <= 0xffffffff) return { kind: "sample", size: Number(sample[1]), seed };
  }
  return { kind: "all" };
}

export function queueFromUrl(): ReviewQueueMode {
  return queueFromSearch(window.location.search);
}

export function writeQueueToUrl(mode: ReviewQueueMode): void {
  writeParams((params) => {
    if (mode.kind === "all") params.delete("queue");
    else if (mode.kind === "mixed") params.set("queue", "mixed");
    else params.set("queue", `sample:${mode.size}:${mode.seed}`);
  });
}

/**
 * The group browser's metadata view (issue 13, finding 5): the metadata fields shown as columns
 * (`?col=<path>`, repeated, in order) and a `field = value` filter (`?meta=<path>=<value>`, split
 * at the first "="). Paths are dotted (`info.task.user_id`); values are compared as text
 * (core `metadataValueKey`).
 */
export interface MetadataView {
  readonly columns: readonly string[];
  readonly filter: { readonly path: string; readonly value: string } | null;
}

export const NO_METADATA_VIEW: MetadataView = { columns: [], filter: null };

/** At most this many metadata columns are read from a URL (performance.md: about 12 columns). */
export const MAX_METADATA_COLUMNS = 6;

export function metadataViewFromSearch(search: string): MetadataView {
  const params = new URLSearchParams(search);
  const columns = [...new Set(params.getAll("col").filter((c) => c !== ""))].slice(
    0,
    MAX_METADATA_COLUMNS,
  );
  const raw = params.get("meta");
  const at = raw === null ? -1 : raw.indexOf("=");
  const filter =
    raw !== null && at > 0 ? { path: raw.slice(0, at), value: raw.slice(at + 1) } : null;
  return { columns, filter };
}

export function metadataViewFromUrl(): MetadataView {
  return metadataViewFromSearch(window.location.search);
}

export function writeMetadataViewToUrl(view: MetadataView): void {
  writeParams((params) => {
    params.delete("col");
    for (const c of view.columns) params.append("col", c);
    if (view.filter === null) params.delete("meta");
    else params.set("meta", `${view.filter.path}=${view.filter.value}`);
  });
}

/** What the page shows, as the URL says it: the demo, a file the user opened, or a served run. */
export type DataSource =
  | { readonly kind: "demo" }
  | { readonly kind: "file"; readonly name: string; readonly fingerprint: string }
  | { readonly kind: "run"; readonly path: string };

/** Characters of the dataset fingerprint kept in `?fp=`: enough to tell files apart at a glance. */
export const FINGERPRINT_PREFIX = 12;

/** The data a query string names; null when it names none. `?demo` wins over the others. */
export function sourceFromSearch(search: string): DataSource | null {
  const params = new URLSearchParams(search);
  if (params.has("demo")) return { kind: "demo" };
  const run = params.get("run");
  if (run !== null && run !== "") return { kind: "run", path: run };
  const name = params.get("file");
  if (name !== null && name !== "") {
    const fp = (params.get("fp") ?? "").toLowerCase();
    return { kind: "file", name, fingerprint: /^[0-9a-f]{1,64}$/.test(fp) ? fp : "" };
  }
  return null;
}

export function sourceFromUrl(): DataSource | null {
  return sourceFromSearch(window.location.search);
}

/** The query string with `source` in place of any other data parameter (the rest kept). */
export function searchWithSource(search: string, source: DataSource): string {
  const params = new URLSearchParams(search);
  for (const key of ["demo", "file", "fp", "run"]) params.delete(key);
  const rest = params.toString();
  const own =
    source.kind === "demo"
      ? "demo"
      : source.kind === "run"
        ? `run=${encodeURIComponent(source.path)}`
        : `file=${encodeURIComponent(source.name)}${
            source.fingerprint === ""
              ? ""
              : `&fp=${source.fingerprint.slice(0, FINGERPRINT_PREFIX)}`
          }`;
  return `?${own}${rest === "" ? "" : `&${rest}`}`;
}

export function writeSourceToUrl(source: DataSource): void {
  const url = new URL(window.location.href);
  url.search = searchWithSource(url.search, source);
  if (url.href !== window.location.href) window.history.replaceState(null, "", url);
}
