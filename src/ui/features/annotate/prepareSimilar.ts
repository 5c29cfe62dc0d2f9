/**
 * View model of "find similar": the rollouts of other groups closest to a marked hack. Matches at
 * or above the similarity threshold are listed, best first, at most SIMILAR_CAP of them ("N of
 * M"); when none reaches the threshold the closest few are shown and said to be below it.
 */
import { fixed3 } from "../../components/numbers.ts";

export const SIMILAR_CAP = 20;
/** Shown when nothing reaches the threshold, so triage still has somewhere to start. */
export const SIMILAR_BELOW_SHOWN = 5;

export interface SimilarInput {
  readonly groupId: string;
  readonly rolloutId: string;
  readonly similarity: number;
}

export interface SimilarItem extends SimilarInput {
  readonly shown: string;
}

export interface SimilarView {
  readonly items: readonly SimilarItem[];
  /** Matches at or above the threshold (all of them, not only the listed ones). */
  readonly aboveThreshold: number;
  readonly belowThreshold: boolean;
  readonly summary: string;
}

export function prepareSimilar(
  candidates: readonly SimilarInput[],
  threshold: number,
  cap = SIMILAR_CAP,
): SimilarView {
  // Best first; equal similarities keep group then rollout order (deterministic).
  const sorted = candidates
    .filter((c) => Number.isFinite(c.similarity))
    .sort(
      (a, b) =>
        b.similarity - a.similarity ||
        a.groupId.localeCompare(b.groupId) ||
        a.rolloutId.localeCompare(b.rolloutId),
    );
  const above = sorted.filter((c) => c.similarity >= threshold);
  const belowThreshold = above.length === 0;
  const listed = (belowThreshold ? sorted.slice(0, SIMILAR_BELOW_SHOWN) : above.slice(0, cap)).map(
    (c) => ({ ...c, shown: fixed3(c.similarity) }),
  );
  const summary =
    candidates.length === 0
      ? "No other parsed group to compare with."
      : belowThreshold
        ? `None of ${candidates.length} rollouts in other groups reaches ${threshold}; the ${listed.length} closest:`
        : `${listed.length} of ${above.length} at or above ${threshold} (of ${candidates.length} rollouts in other groups):`;
  return { items: listed, aboveThreshold: above.length, belowThreshold, summary };
}
