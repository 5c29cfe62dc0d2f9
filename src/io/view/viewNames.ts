/**
 * What the page needs of a `rollout-studio view` listing without its schemas (viewApi.ts): the
 * schemas bring zod, which the studio's first chunk must not carry for a page that never views a
 * served run.
 */
import type { ViewRun, ViewRuns } from "./viewApi.ts";

/** A run's name as the studio shows it: its root as given, then its folder under it. */
export function viewRunName(listing: ViewRuns, run: ViewRun): string {
  const root = listing.roots[run.root]?.path ?? "";
  if (run.dir === "") return root.replace(/\/+$/, "") || ".";
  return `${root.replace(/\/+$/, "")}/${run.dir}`;
}
