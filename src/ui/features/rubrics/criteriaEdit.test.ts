import { describe, expect, it } from "vitest";
import {
  criteriaFrom,
  criteriaInsert,
  criteriaMove,
  criteriaRemove,
  criteriaRepeats,
  criteriaRubric,
  criteriaSetText,
  type CriteriaDraft,
} from "./criteriaEdit.ts";

const texts = (d: CriteriaDraft) => ({
  solution: d.solution.map((l) => l.text),
  behavior: d.behavior.map((l) => l.text),
});

describe("criteria editing", () => {
  it("starts a new rubric with one empty line per list, an existing one with its lines", () => {
    expect(texts(criteriaFrom(null))).toEqual({ solution: [""], behavior: [""] });
    const d = criteriaFrom({ solution: ["a", "b"], behavior: [] });
    expect(texts(d)).toEqual({ solution: ["a", "b"], behavior: [""] });
    expect(new Set([...d.solution, ...d.behavior].map((l) => l.key)).size).toBe(3);
    expect(d.nextKey).toBe(3);
  });

  it("inserts with a fresh key, edits, moves and removes lines keeping their keys", () => {
    let d = criteriaFrom({ solution: ["a", "b"], behavior: ["x"] });
    d = criteriaInsert(d, "solution", 1);
    expect(d.solution[1]).toEqual({ key: 3, text: "" });
    d = criteriaSetText(d, "solution", 1, "new");
    d = criteriaMove(d, "solution", 1, -1);
    expect(texts(d).solution).toEqual(["new", "a", "b"]);
    expect(d.solution[0]!.key).toBe(3);
    d = criteriaRemove(d, "solution", 1);
    expect(texts(d)).toEqual({ solution: ["new", "b"], behavior: ["x"] });
    expect(criteriaInsert(d, "behavior", 99).behavior.map((l) => l.text)).toEqual(["x", ""]);
  });

  it("leaves the draft alone at the ends and out of range", () => {
    const d = criteriaFrom({ solution: ["a", "b"], behavior: ["x"] });
    expect(criteriaMove(d, "solution", 0, -1)).toBe(d);
    expect(criteriaMove(d, "solution", 1, 1)).toBe(d);
    expect(criteriaRemove(d, "solution", 5)).toBe(d);
    expect(criteriaSetText(d, "solution", 0, "a")).toBe(d);
    expect(criteriaSetText(d, "solution", -1, "z")).toBe(d);
  });

  it("empties the last line of a list instead of removing it", () => {
    const d = criteriaRemove(criteriaFrom({ solution: ["a"], behavior: [] }), "solution", 0);
    expect(texts(d).solution).toEqual([""]);
  });

  it("gives the cleaned rubric and its repeated criteria", () => {
    const d = criteriaFrom({ solution: [" a ", "", "b", "a"], behavior: ["  "] });
    expect(criteriaRubric(d)).toEqual({ solution: ["a", "b", "a"], behavior: [] });
    expect(criteriaRepeats(d)).toEqual(["a"]);
  });
});
