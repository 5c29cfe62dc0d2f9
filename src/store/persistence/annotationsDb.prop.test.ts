/**
 * IndexedDB keeps every saved state whole (issue 8 part 5): a random sequence of annotation states,
 * each saved as the sync saves it (only the groups and extras that changed, removals included),
 * loads back as the last state, with nothing rejected. States carry every field and ids such as
 * "constructor" and "toString" (see src/test/annotationArbitraries.ts).
 */
import "fake-indexeddb/auto";
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { ANNOTATIONS_EMPTY, type Annotations } from "../../core/index.ts";
import { annotationsState, groupAnnotation } from "../../test/annotationArbitraries.ts";
import { annotationChanges, extrasChanges, openAnnotationsDb } from "./annotationsDb.ts";

/** The next state: some groups kept (the same objects), some dropped, some added or replaced. */
const step = (prev: Annotations): fc.Arbitrary<Annotations> =>
  fc
    .record({
      keep: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
      fresh: annotationsState,
      extra: fc.option(groupAnnotation, { nil: undefined }),
      sameExtras: fc.boolean(),
    })
    .map(({ keep, fresh, extra, sameExtras }) => {
      const kept = Object.entries(prev.groups).filter((_, i) => keep[i % keep.length]);
      const groups = Object.fromEntries([
        ...kept,
        ...Object.entries(fresh.groups),
        ...(extra === undefined || kept.length === 0 ? [] : [[kept[0]![0], extra] as const]),
      ]);
      return sameExtras ? { ...prev, annotator: fresh.annotator, groups } : { ...fresh, groups };
    });

const history: fc.Arbitrary<Annotations[]> = annotationsState.chain((first) =>
  step(first).chain((second) => step(second).map((third) => [first, second, third])),
);

let dbCount = 0;

describe("annotations in IndexedDB", () => {
  test.prop([history], { numRuns: 60 })(
    "saving each state's changes, then loading, gives the last state back whole",
    async (states) => {
      const db = openAnnotationsDb(`prop-${dbCount++}`);
      let before: Annotations = ANNOTATIONS_EMPTY;
      for (const state of states) {
        await db.save(
          "fp",
          "run.jsonl",
          { annotator: state.annotator, hackReasons: state.hackReasons },
          annotationChanges(before, state),
          extrasChanges(before, state),
        );
        before = state;
      }
      const restored = await db.load("fp");
      expect(restored.rejected).toEqual([]);
      expect(restored.annotations).toEqual(states[states.length - 1]);
    },
    // fake-indexeddb takes about 0.2 s per run of three saves and a load.
    60_000,
  );
});
