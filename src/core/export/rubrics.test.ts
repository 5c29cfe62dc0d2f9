import { describe, expect, it } from "vitest";
import { FIXTURE_ANNOTATIONS, FIXTURE_GROUPS, fixtureGroup } from "./__fixtures__/exportFixture.ts";
import { exportRubrics, exportRubricsJson } from "./rubrics.ts";

describe("rubrics export", () => {
  it("maps each task to its current rubric, {solution, behavior}, data tasks first", () => {
    const rubrics = exportRubrics(FIXTURE_ANNOTATIONS.rubrics, FIXTURE_GROUPS);
    expect(Object.keys(rubrics)).toEqual(["refund-17", "address-9", "zz-not-in-data"]);
    expect(rubrics["refund-17"]).toEqual({
      solution: ["refunds the right order", "refunds once"],
      behavior: ["looks the order up first", "no invented ids"],
    });
    expect(rubrics["zz-not-in-data"]).toEqual({ solution: ["s"], behavior: [] });
    // Exactly the two lists: no version or author keys reach the grader.
    for (const rubric of Object.values(rubrics))
      expect(Object.keys(rubric)).toEqual(["solution", "behavior"]);
  });

  it("does not depend on the order the book was built in", () => {
    const reversed = Object.fromEntries(Object.entries(FIXTURE_ANNOTATIONS.rubrics).reverse());
    expect(exportRubricsJson(exportRubrics(reversed, FIXTURE_GROUPS))).toBe(
      exportRubricsJson(exportRubrics(FIXTURE_ANNOTATIONS.rubrics, FIXTURE_GROUPS)),
    );
    // Without data, the tasks come in code-point order.
    expect(Object.keys(exportRubrics(reversed, []))).toEqual([
      "address-9",
      "refund-17",
      "zz-not-in-data",
    ]);
  });

  it("writes indented JSON that parses back to the mapping", () => {
    const book = FIXTURE_ANNOTATIONS.rubrics;
    const text = exportRubricsJson(exportRubrics(book, [fixtureGroup("address-9", [1])]));
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual(exportRubrics(book, []));
    expect(exportRubricsJson({})).toBe("{}\n");
  });
});
