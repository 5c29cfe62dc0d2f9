/**
 * What the page needs of a `rollout-studio view` listing without its schemas (viewApi.ts): the
 * schemas bring zod, which the studio's first chunk must not carry for a page that never views a
 * served run. A run's name, and the two runs `view RUN_A RUN_B --compare` compares.
 */
import type { ViewRun, ViewRuns } from "./viewApi.ts";

/** A run's name as the studio shows it: its root as given, then its folder under it. */
export function viewRunName(listing: ViewRuns, run: ViewRun): string {
  const root = listing.roots[run.root]?.path ?? "";
  if (run.dir === "") return root.replace(/\/+$/, "") || ".";
  return `${root.replace(/\/+$/, "")}/${run.dir}`;
}

/**
 * `view RUN_A RUN_B --compare`: runs A and B are the first runs of the first and the second PATH
 * (indexes into `listing.runs`); null without --compare, or while either PATH lists no run.
 */
export function viewComparePair(
  listing: Pick<ViewRuns, "compare" | "runs">,
): { readonly a: number; readonly b: number } | null {
  if (listing.compare !== true) return null;
  const a = listing.runs.findIndex((run) => run.root === 0);
  const b = listing.runs.findIndex((run) => run.root === 1);
  return a === -1 || b === -1 ? null : { a, b };
}
