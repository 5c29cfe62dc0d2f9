/**
 * The review flow's queue (annotation issue): which groups a reviewer walks through (every group,
 * the mixed ones, or a seeded random sample of N). The mode is mirrored in the URL by its action
 * (`?queue=`), so a link opens the same queue; the queue itself is derived from the loaded data
 * (ui/features/review), never stored.
 */
import type { StateCreator } from "zustand";
import type { ReviewQueueMode } from "../../core/index.ts";
import type { Store } from "../index.ts";
import { queueFromUrl, writeQueueToUrl } from "../url.ts";

/** The largest sample a reviewer can ask for (a typed number beyond it is clamped). */
export const REVIEW_SAMPLE_MAX = 1_000_000;

export interface ReviewSlice {
  readonly reviewMode: ReviewQueueMode;
  readonly setReviewMode: (mode: ReviewQueueMode) => void;
}

/** A mode with a usable sample: size a whole number in [1, REVIEW_SAMPLE_MAX], seed a uint32. */
export function reviewModeClean(mode: ReviewQueueMode): ReviewQueueMode {
  if (mode.kind !== "sample") return mode;
  const size = Number.isFinite(mode.size)
    ? Math.min(REVIEW_SAMPLE_MAX, Math.max(1, Math.floor(mode.size)))
    : 1;
  const seed = Number.isFinite(mode.seed) ? Math.floor(Math.abs(mode.seed)) % 2 ** 32 : 0;
  return { kind: "sample", size, seed };
}

const hasWindow = typeof window !== "undefined";

export const createReviewSlice: StateCreator<Store, [], [], ReviewSlice> = (set) => ({
  reviewMode: hasWindow ? reviewModeClean(queueFromUrl()) : { kind: "all" },
  setReviewMode: (mode) => {
    const clean = reviewModeClean(mode);
    writeQueueToUrl(clean);
    set({ reviewMode: clean });
  },
});
