import { describe, expect, it } from "vitest";
import { clusterFromAssignments } from "./llmClusters.ts";

describe("LLM cluster assignments (methods.md 1.5)", () => {
  it('both texts assigned to "same" with label "shared"', () => {
    const r = clusterFromAssignments(2, {
      assignments: [
        { index: 0, cluster_id: "same", label: "shared" },
        { index: 1, cluster_id: " same ", label: " shared " },
      ],
    });
    expect(r.clusterIds).toEqual(["same", "same"]);
    expect(r.labels).toEqual(["shared", "shared"]);
    expect(r.divisors).toEqual([2, 2]);
    expect(r.nClusters).toBe(1);
  });

  it.each([
    ["omitting an index", { assignments: [{ index: 0, cluster_id: "a" }] }, /omitted indices 1/],
    [
      "repeating an index",
      {
        assignments: [
          { index: 0, cluster_id: "a" },
          { index: 0, cluster_id: "b" },
        ],
      },
      /repeated/,
    ],
    ["going out of range", { assignments: [{ index: 2, cluster_id: "a" }] }, /out of range/],
    ["a negative index", { assignments: [{ index: -1, cluster_id: "a" }] }, /out of range/],
    ["assignments not a list", { assignments: {} }, /not a list/],
    ["no assignments at all", "oops", /not a list/],
    ["an entry that is not an object", { assignments: [1] }, /not an object/],
    ["a bool index", { assignments: [{ index: true, cluster_id: "a" }] }, /not an integer/],
    ["a float index", { assignments: [{ index: 0.5, cluster_id: "a" }] }, /not an integer/],
    ["an empty cluster id", { assignments: [{ index: 0, cluster_id: "  " }] }, /empty cluster_id/],
    ["a non-string label", { assignments: [{ index: 0, cluster_id: "a", label: 3 }] }, /label/],
  ])("errors on %s", (_what, reply, message) => {
    expect(() => clusterFromAssignments(2, reply)).toThrow(message);
    expect(() => clusterFromAssignments(2, reply)).toThrow(/^diversity clustering failed: /);
  });

  it("numbers clusters by their smallest member", () => {
    const r = clusterFromAssignments(3, {
      assignments: [
        { index: 2, cluster_id: "x" },
        { index: 0, cluster_id: "y" },
        { index: 1, cluster_id: "x" },
      ],
    });
    expect(r.clusterIndex).toEqual([0, 1, 1]);
    expect(r.divisors).toEqual([1, 2, 2]);
  });
});
