import { describe, expect, it } from "vitest";
import { queueSpecProblems } from "./pgQueues.ts";
import type { QueueSpec } from "./types.ts";

const ok: QueueSpec = {
  name: "q",
  blind: false,
  overlap: 0.2,
  seed: 3,
  filter: { zeroStd: true },
  groups: ["a", "b"],
  assignments: [
    { groupId: "a", user: "ann" },
    { groupId: "b", user: "bob" },
  ],
};

describe("queueSpecProblems", () => {
  it("a sound spec has none", () => {
    expect(queueSpecProblems(ok)).toEqual([]);
    expect(queueSpecProblems({ ...ok, overlap: 0 })).toEqual([]);
    expect(queueSpecProblems({ ...ok, overlap: 1, filter: null })).toEqual([]);
  });

  it("names each problem", () => {
    expect(queueSpecProblems({ ...ok, name: " " })).toEqual(["a queue needs a name"]);
    expect(queueSpecProblems({ ...ok, overlap: -0.1 })).toEqual([
      "the overlap is a share from 0 to 1",
    ]);
    expect(queueSpecProblems({ ...ok, overlap: Number.NaN })).toEqual([
      "the overlap is a share from 0 to 1",
    ]);
    expect(queueSpecProblems({ ...ok, seed: 1.5 })).toEqual(["the seed is a whole number"]);
    expect(queueSpecProblems({ ...ok, groups: [] })).toContain("a queue holds at least one group");
    expect(queueSpecProblems({ ...ok, groups: ["a", "b", "a"] })).toEqual([
      'group "a" is in the queue twice',
    ]);
    expect(queueSpecProblems({ ...ok, groups: ["a", "b", ""] })).toEqual([
      "a group id is a non-empty string",
    ]);
    expect(
      queueSpecProblems({ ...ok, assignments: [...ok.assignments, { groupId: "c", user: "ann" }] }),
    ).toEqual(['group "c" is assigned but not in the queue']);
    expect(
      queueSpecProblems({ ...ok, assignments: [...ok.assignments, { groupId: "a", user: "ann" }] }),
    ).toEqual(['group "a" is assigned to ann twice']);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(queueSpecProblems({ ...ok, filter: cyclic })).toEqual(["the filter is JSON"]);
    expect(queueSpecProblems({ ...ok, filter: undefined })).toEqual(["the filter is JSON"]);
  });
});
