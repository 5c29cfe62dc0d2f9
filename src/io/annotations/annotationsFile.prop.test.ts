/**
 * Export then import is lossless (issue 8 part 5): for random annotation states with every field
 * (see src/test/annotationArbitraries.ts), parsing the exported text gives the same state back, and
 * exporting it again gives the same text.
 */
import { test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { annotationsState } from "../../test/annotationArbitraries.ts";
import { annotationsParse, annotationsToJson } from "./annotationsFile.ts";

describe("the annotations file round trip", () => {
  test.prop([annotationsState], { numRuns: 300 })(
    "annotationsParse(annotationsToJson(state)) is the state, and re-exports the same text",
    (state) => {
      const text = annotationsToJson(state);
      const back = annotationsParse("annotations.json", text);
      if (!back.ok) expect.fail(JSON.stringify(back.issues));
      expect(back.value).toEqual(state);
      expect(annotationsToJson(back.value)).toBe(text);
    },
  );
});
