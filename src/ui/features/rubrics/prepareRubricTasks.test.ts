import { describe, expect, it } from "vitest";
import {
  GROUP_ANNOTATION_EMPTY,
  rubricSave,
  type GroupAnnotation,
  type RubricBook,
} from "../../../core/index.ts";
import { prepareRubricTasks } from "./prepareRubricTasks.ts";

const at = new Date("2026-02-01T00:00:00.000Z");
let book: RubricBook = rubricSave({}, "g1", { solution: ["a"], behavior: ["b", "c"] }, "judge", at);
book = { ...book, g1: { ...book.g1!, labelVersions: { r1: 1 } } };
book = rubricSave(book, "g1", { solution: ["a2"], behavior: ["b", "c"] }, "human", at);
book = rubricSave(book, "g3", { solution: ["x"], behavior: [] }, "human", at);
book = rubricSave(book, "gone", { solution: ["x"], behavior: [] }, "human", at);

const labelled = (labels: GroupAnnotation["labels"]): GroupAnnotation => ({
  ...GROUP_ANNOTATION_EMPTY,
  labels,
});
const groups = { g1: labelled({ r1: "pass", r2: "fail" }), g2: labelled({ r5: "pass" }) };
const ids = ["g1", "g2", "g3"];

describe("prepareRubricTasks", () => {
  it("gives each task its status, counts and stale labels", () => {
    const t = prepareRubricTasks(ids, book, groups, "all", "", 100);
    expect(
      t.rows.map((r) => [r.task, r.status, r.solution, r.behavior, r.labels, r.stale]),
    ).toEqual([
      ["g1", "version 2 (human)", 1, 2, 2, 2],
      ["g2", "none", 0, 0, 1, 0],
      ["g3", "version 1 (human)", 1, 0, 0, 0],
    ]);
    expect([t.tasks, t.withRubric, t.staleLabels, t.elsewhere, t.matching]).toEqual([
      3, 2, 2, 1, 3,
    ]);
  });

  it.each([
    ["with-rubric", ["g1", "g3"]],
    ["without-rubric", ["g2"]],
    ["stale", ["g1"]],
  ] as const)("filters %s", (filter, expected) => {
    expect(prepareRubricTasks(ids, book, groups, filter, "", 100).rows.map((r) => r.task)).toEqual(
      expected,
    );
  });

  it("searches task ids case-insensitively and caps the rows", () => {
    expect(
      prepareRubricTasks(ids, book, groups, "all", " G3", 100).rows.map((r) => r.task),
    ).toEqual(["g3"]);
    const capped = prepareRubricTasks(ids, book, groups, "all", "", 2);
    expect([capped.rows.length, capped.matching]).toEqual([2, 3]);
  });
});
