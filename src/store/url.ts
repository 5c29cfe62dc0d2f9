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
