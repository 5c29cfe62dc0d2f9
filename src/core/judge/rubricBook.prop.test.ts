/**
 * Properties of the rubric line diff (it is an edit script between the two lists, with as many
 * unchanged lines as a longest common subsequence) and of saving (idempotent, versions ascending).
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { rubricLineDiff, rubricSave, type RubricBook } from "./rubricBook.ts";

/** Short lists over a small alphabet, so they share lines often. */
const lines = fc.array(fc.constantFrom("a", "b", "c", "d"), { maxLength: 8 });

/** LCS length by the textbook recurrence, independent of the implementation under test. */
function lcsLength(x: readonly string[], y: readonly string[]): number {
  if (x.length === 0 || y.length === 0) return 0;
  if (x[0] === y[0]) return 1 + lcsLength(x.slice(1), y.slice(1));
  return Math.max(lcsLength(x.slice(1), y), lcsLength(x, y.slice(1)));
}

describe("rubricLineDiff", () => {
  test.prop([lines, lines])("replays to both sides with a longest common subsequence", (a, b) => {
    const d = rubricLineDiff(a, b);
    expect(d.filter((l) => l.kind !== "added").map((l) => l.text)).toEqual(a);
    expect(d.filter((l) => l.kind !== "removed").map((l) => l.text)).toEqual(b);
    expect(d.filter((l) => l.kind === "unchanged")).toHaveLength(lcsLength(a, b));
  });

  test.prop([lines])("a list against itself is all unchanged", (a) => {
    expect(rubricLineDiff(a, a).every((l) => l.kind === "unchanged")).toBe(true);
  });
});

describe("rubricSave", () => {
  const rubric = fc.record({ solution: lines, behavior: lines });
  test.prop([fc.array(rubric, { minLength: 1, maxLength: 6 })])(
    "versions count 1, 2, … and a repeated save adds nothing",
    (rubrics) => {
      let book: RubricBook = {};
      for (const r of rubrics) {
        if (r.solution.length + r.behavior.length === 0) continue;
        const next = rubricSave(book, "g", r, "human", new Date(0));
        expect(rubricSave(next, "g", r, "judge", new Date(1))).toBe(next);
        book = next;
      }
      const versions = book.g?.versions ?? [];
      expect(versions.map((v) => v.version)).toEqual(versions.map((_, i) => i + 1));
    },
  );
});
