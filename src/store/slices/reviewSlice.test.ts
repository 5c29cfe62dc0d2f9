/**
 * The review slice keeps the queue mode and mirrors it in the URL (`?queue=`); reading the URL
 * back gives the same mode, and unreadable values fall back to every group.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPlainStore } from "../createStore.ts";
import { queueFromSearch } from "../url.ts";
import { REVIEW_SAMPLE_MAX, reviewModeClean } from "./reviewSlice.ts";

/** A fresh store per test: nothing persisted, nothing left over from the test before. */
let useStore = createPlainStore();
beforeEach(() => {
  useStore = createPlainStore();
});

beforeEach(() => {
  window.history.replaceState(null, "", "/?demo&group=g1");
});

afterEach(() => {
  useStore.setState({ reviewMode: { kind: "all" } });
});

describe("review slice", () => {
  it("starts with every group and writes each mode to the URL, keeping other parameters", () => {
    expect(useStore.getState().reviewMode).toEqual({ kind: "all" });
    useStore.getState().setReviewMode({ kind: "mixed" });
    expect(useStore.getState().reviewMode).toEqual({ kind: "mixed" });
    expect(window.location.search).toBe("?demo=&group=g1&queue=mixed");
    useStore.getState().setReviewMode({ kind: "sample", size: 20, seed: 7 });
    expect(window.location.search).toContain("queue=sample%3A20%3A7");
    useStore.getState().setReviewMode({ kind: "all" });
    expect(window.location.search).not.toContain("queue");
    expect(window.location.search).toContain("group=g1");
  });

  it("clamps a sample's size and seed to usable numbers", () => {
    useStore.getState().setReviewMode({ kind: "sample", size: -3.5, seed: NaN });
    expect(useStore.getState().reviewMode).toEqual({ kind: "sample", size: 1, seed: 0 });
    expect(reviewModeClean({ kind: "sample", size: 1e12, seed: 2 ** 33 + 5 })).toEqual({
      kind: "sample",
      size: REVIEW_SAMPLE_MAX,
      seed: 5,
    });
  });

  it("reads unknown or malformed queue values as every group", () => {
    for (const raw of ["bogus", "sample:", "sample:x:1", "sample:3:99999999999", "MIXED"])
      expect(queueFromSearch(`?queue=${encodeURIComponent(raw)}`)).toEqual({ kind: "all" });
    expect(queueFromSearch("")).toEqual({ kind: "all" });
  });

  it("round-trips any clean mode through the URL", () => {
    const mode = fc.oneof(
      fc.constant({ kind: "all" as const }),
      fc.constant({ kind: "mixed" as const }),
      fc.record({
        kind: fc.constant("sample" as const),
        size: fc.integer({ min: 1, max: REVIEW_SAMPLE_MAX }),
        seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      }),
    );
    fc.assert(
      fc.property(mode, (m) => {
        useStore.getState().setReviewMode(m);
        expect(queueFromSearch(window.location.search)).toEqual(m);
      }),
    );
  });
});
