/**
 * Rubric history: saving versions (only when the criteria change), the line diff between two
 * versions, and the labels made under an older version.
 */
import { describe, expect, it } from "vitest";
import {
  rubricClean,
  rubricConfirmLabels,
  rubricCurrent,
  rubricDiff,
  rubricLineDiff,
  rubricSave,
  rubricStaleLabels,
  rubricVersionOf,
  type RubricBook,
} from "./rubricBook.ts";

const T1 = new Date("2026-01-02T03:04:05.000Z");
const T2 = new Date("2026-01-03T00:00:00.000Z");
const V1 = { solution: ["Refunds ORD-1"], behavior: ["Checks the order first"] };
const V2 = {
  solution: ["Refunds ORD-1", "Confirms by email"],
  behavior: ["Checks the order first"],
};

describe("rubricSave", () => {
  it("appends version 1, then version 2 when the criteria change", () => {
    const b1 = rubricSave({}, "g", V1, "judge", T1);
    expect(b1).toEqual({
      g: {
        versions: [{ version: 1, savedAt: "2026-01-02T03:04:05.000Z", author: "judge", ...V1 }],
        labelVersions: {},
      },
    });
    const b2 = rubricSave(b1, "g", V2, "human", T2);
    expect(b2.g!.versions.map((v) => [v.version, v.author])).toEqual([
      [1, "judge"],
      [2, "human"],
    ]);
    expect(rubricCurrent(b2, "g")).toMatchObject({ version: 2, ...V2 });
    expect(rubricVersionOf(b2, "g", 1)).toMatchObject(V1);
    expect(rubricVersionOf(b2, "g", 3)).toBeNull();
    expect(rubricVersionOf(b2, "other", 1)).toBeNull();
  });

  it("returns the same book when the cleaned criteria equal the current ones", () => {
    const b1 = rubricSave({}, "g", V1, "human", T1);
    const same = rubricSave(
      b1,
      "g",
      { solution: ["  Refunds ORD-1 ", ""], behavior: ["Checks the order first", "   "] },
      "judge",
      T2,
    );
    expect(same).toBe(b1);
  });

  it("treats a reorder as a change", () => {
    const b1 = rubricSave({}, "g", { solution: ["a", "b"], behavior: [] }, "human", T1);
    const b2 = rubricSave(b1, "g", { solution: ["b", "a"], behavior: [] }, "human", T2);
    expect(b2.g!.versions).toHaveLength(2);
  });

  it("keeps the labels' versions and the other tasks", () => {
    const book: RubricBook = {
      g: { versions: [], labelVersions: { r1: 1 } },
      h: { versions: [{ version: 1, savedAt: "t", author: "human", ...V1 }], labelVersions: {} },
    };
    const next = rubricSave(book, "g", V1, "human", T1);
    expect(next.g!.labelVersions).toEqual({ r1: 1 });
    expect(next.h).toBe(book.h);
    expect(book.g!.versions).toEqual([]);
  });

  it("rejects a rubric with no criterion", () => {
    expect(() => rubricSave({}, "g", { solution: [" "], behavior: [] }, "human", T1)).toThrow(
      "the rubric for task g has no criterion",
    );
  });

  it("does not read inherited keys as tasks", () => {
    expect(rubricCurrent({}, "constructor")).toBeNull();
    expect(rubricSave({}, "constructor", V1, "human", T1)["constructor"]!.versions).toHaveLength(1);
  });
});

describe("rubricClean", () => {
  it("trims criteria and drops blank lines", () => {
    expect(rubricClean({ solution: [" a ", "", "b"], behavior: ["\t"] })).toEqual({
      solution: ["a", "b"],
      behavior: [],
    });
  });
});

describe("rubricLineDiff", () => {
  const kinds = (d: ReturnType<typeof rubricLineDiff>) =>
    d.map((l) => `${{ added: "+", removed: "-", unchanged: " " }[l.kind]}${l.text}`);

  it.each([
    [[], [], []],
    [["a"], [], ["-a"]],
    [[], ["a"], ["+a"]],
    [
      ["a", "b", "c"],
      ["a", "b", "c"],
      [" a", " b", " c"],
    ],
    [
      ["a", "b", "c"],
      ["a", "x", "c"],
      [" a", "-b", "+x", " c"],
    ],
    [
      ["a", "b"],
      ["b", "a"],
      ["-a", " b", "+a"],
    ],
    [
      ["a", "b", "c", "d"],
      ["b", "d", "e"],
      ["-a", " b", "-c", " d", "+e"],
    ],
    [["x", "x"], ["x"], [" x", "-x"]],
  ])("%j -> %j", (from, to, expected) => {
    expect(kinds(rubricLineDiff(from, to))).toEqual(expected);
  });
});

describe("rubricDiff", () => {
  it("diffs both lists and counts the changes", () => {
    const d = rubricDiff(V1, { solution: ["Refunds ORD-1 once"], behavior: V1.behavior });
    expect(d.solution).toEqual([
      { kind: "removed", text: "Refunds ORD-1" },
      { kind: "added", text: "Refunds ORD-1 once" },
    ]);
    expect(d.behavior).toEqual([{ kind: "unchanged", text: "Checks the order first" }]);
    expect([d.added, d.removed]).toEqual([1, 1]);
  });
});

describe("rubricStaleLabels", () => {
  const b1 = rubricSave({}, "g", V1, "human", T1);
  const withLabels = (book: RubricBook, labelVersions: Record<string, number>): RubricBook => ({
    ...book,
    g: { ...book.g!, labelVersions },
  });

  it("is empty when the task has no rubric, labels or not", () => {
    expect(rubricStaleLabels({}, "g", { r1: "pass" })).toEqual([]);
  });

  it("lists labels older than the current version, and labels set before any rubric", () => {
    const b2 = rubricSave(withLabels(b1, { r1: 1, r2: 1 }), "g", V2, "human", T2);
    const book = withLabels(b2, { r1: 1, r2: 2 });
    expect(rubricStaleLabels(book, "g", { r0: "fail", r1: "pass", r2: "defer" })).toEqual([
      { rolloutId: "r0", version: null },
      { rolloutId: "r1", version: 1 },
    ]);
  });

  it("ignores recorded versions of rollouts that are no longer labelled", () => {
    expect(rubricStaleLabels(withLabels(b1, { r9: 0 }), "g", {})).toEqual([]);
  });

  it("confirming labels makes them current; nothing to confirm returns the same book", () => {
    const b2 = rubricSave(withLabels(b1, { r1: 1 }), "g", V2, "human", T2);
    const confirmed = rubricConfirmLabels(b2, "g", ["r0", "r1"]);
    expect(confirmed.g!.labelVersions).toEqual({ r0: 2, r1: 2 });
    expect(rubricStaleLabels(confirmed, "g", { r0: "pass", r1: "fail" })).toEqual([]);
    expect(rubricConfirmLabels(confirmed, "g", ["r1"])).toBe(confirmed);
    expect(rubricConfirmLabels({}, "g", ["r1"])).toEqual({});
  });
});
