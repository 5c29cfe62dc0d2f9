/**
 * The view's place in the URL, so a link opens the same view: `?group=<id>` is the open group.
 * Other query parameters (`demo`, `index-threshold`) are kept as they are.
 */

export function groupFromUrl(): string | null {
  return new URLSearchParams(window.location.search).get("group");
}

export function writeGroupToUrl(groupId: string | null): void {
  const url = new URL(window.location.href);
  if (groupId === null) url.searchParams.delete("group");
  else url.searchParams.set("group", groupId);
  if (url.href !== window.location.href) window.history.replaceState(null, "", url);
}

export interface GroupFilters {
  readonly mixedOnly: boolean;
  readonly zeroStdOnly: boolean;
  /** Case-insensitive text searched in group ids and prompts. */
  readonly query: string;
}

export const NO_FILTERS: GroupFilters = { mixedOnly: false, zeroStdOnly: false, query: "" };

/** Filters from `?filter=mixed,zero-std&q=text`. */
export function filtersFromUrl(): GroupFilters {
  const params = new URLSearchParams(window.location.search);
  const flags = new Set((params.get("filter") ?? "").split(",").filter(Boolean));
  return {
    mixedOnly: flags.has("mixed"),
    zeroStdOnly: flags.has("zero-std"),
    query: params.get("q") ?? "",
  };
}

export function writeFiltersToUrl(filters: GroupFilters): void {
  const url = new URL(window.location.href);
  const flags = [
    filters.mixedOnly ? "mixed" : null,
    filters.zeroStdOnly ? "zero-std" : null,
  ].filter(Boolean);
  if (flags.length > 0) url.searchParams.set("filter", flags.join(","));
  else url.searchParams.delete("filter");
  if (filters.query !== "") url.searchParams.set("q", filters.query);
  else url.searchParams.delete("q");
  if (url.href !== window.location.href) window.history.replaceState(null, "", url);
}
