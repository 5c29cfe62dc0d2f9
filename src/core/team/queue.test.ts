import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { reviewQueue } from "../analysis/reviewQueue.ts";
import {
  TEAM_FILTER_NONE,
  teamCandidates,
  teamFilterKeeps,
  teamGroupFacts,
  teamQueue,
  teamSelectionProblem,
  type TeamCandidate,
} from "./queue.ts";

describe("teamCandidates", () => {
  const groups = [
    teamGroupFacts("3/a", 3, [1, 0, 1], 0.5), // mixed
    teamGroupFacts("3/b", 3, [1, 1, 1], 0.5), // all pass: zero std
    teamGroupFacts("5/c", 5, [0, 0], 0.5), // all fail: zero std
    teamGroupFacts("7/d", 7, [0.2, 0.9], 0.5), // mixed
    teamGroupFacts("e", null, [NaN, NaN], 0.5), // unscored: neither mixed nor zero std
  ];

  it("keeps mixed groups, zero-std groups, a step range, and their conjunction", () => {
    const ids = (filter: Partial<typeof TEAM_FILTER_NONE>) =>
      teamCandidates(groups, { ...TEAM_FILTER_NONE, ...filter }).map((c) => c.id);
    expect(ids({})).toEqual(["3/a", "3/b", "5/c", "7/d", "e"]);
    expect(ids({ mixedOnly: true })).toEqual(["3/a", "7/d"]);
    expect(ids({ zeroStdOnly: true })).toEqual(["3/b", "5/c"]);
    expect(ids({ steps: { from: 4, to: 7 } })).toEqual(["5/c", "7/d"]);
    expect(ids({ steps: { from: 3, to: 3 }, mixedOnly: true })).toEqual(["3/a"]);
  });

  it("counts passes as the group browser does: reward >= the threshold", () => {
    expect(teamGroupFacts("g", 1, [0.5, 0.49, NaN], 0.5).passed).toEqual([true, false, false]);
    expect(
      teamFilterKeeps(teamGroupFacts("g", 1, [0.5, 0.49], 0.5), {
        ...TEAM_FILTER_NONE,
        mixedOnly: true,
      }),
    ).toBe(true);
    expect(
      teamFilterKeeps(teamGroupFacts("g", 1, [0.5, 0.49], 0.4), {
        ...TEAM_FILTER_NONE,
        mixedOnly: true,
      }),
    ).toBe(false);
  });

  it("gives candidates their id and step only", () => {
    expect(teamCandidates(groups.slice(0, 1), TEAM_FILTER_NONE)).toEqual([{ id: "3/a", step: 3 }]);
  });
});

describe("teamQueue", () => {
  const candidates: TeamCandidate[] = [
    { id: "x", step: null },
    { id: "5/a", step: 5 },
    { id: "2/b", step: 2 },
    { id: "5/c", step: 5 },
    { id: "2/b", step: 2 },
    { id: "0/d", step: 0 },
  ];

  it("orders by step, steps first, ties in the given order, each id once", () => {
    expect(teamQueue(candidates, { kind: "all" })).toEqual(["0/d", "2/b", "5/a", "5/c", "x"]);
  });

  it("draws a seeded sample as the review flow does, listed in queue order", () => {
    const sample = teamQueue(candidates, { kind: "sample", size: 3, seed: 11 });
    expect(sample).toHaveLength(3);
    const all = teamQueue(candidates, { kind: "all" });
    expect(sample).toEqual(all.filter((id) => sample.includes(id)));
    const review = reviewQueue(
      all.map((id) => ({ id, mixed: false })),
      { kind: "sample", size: 3, seed: 11 },
    );
    expect(sample).toEqual(review);
    expect(teamQueue(candidates, { kind: "sample", size: 99, seed: 1 })).toEqual(all);
  });

  it("refuses a size or seed that is not a whole number in range", () => {
    expect(teamSelectionProblem({ kind: "all" })).toBeNull();
    expect(teamSelectionProblem({ kind: "sample", size: 0, seed: 1 })).toMatch(/size/);
    expect(teamSelectionProblem({ kind: "sample", size: 2.5, seed: 1 })).toMatch(/size/);
    expect(teamSelectionProblem({ kind: "sample", size: 2, seed: -1 })).toMatch(/seed/);
    expect(() => teamQueue(candidates, { kind: "sample", size: 0, seed: 1 })).toThrow(RangeError);
  });

  const candidatesArb = fc
    .uniqueArray(fc.integer({ min: 0, max: 500 }), { maxLength: 60 })
    .chain((ids) =>
      fc.tuple(
        fc.constant(ids),
        fc.array(fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }), {
          minLength: ids.length,
          maxLength: ids.length,
        }),
      ),
    )
    .map(([ids, steps]) => ids.map((i, k): TeamCandidate => ({ id: `g${i}`, step: steps[k]! })));

  test.prop([candidatesArb, fc.integer({ min: 1, max: 70 }), fc.nat(1000)])(
    "a sample has min(size, n) distinct candidates, the same whatever their order",
    (cands, size, seed) => {
      const sample = teamQueue(cands, { kind: "sample", size, seed });
      expect(sample).toHaveLength(Math.min(size, cands.length));
      expect(new Set(sample).size).toBe(sample.length);
      const reversed = teamQueue([...cands].reverse(), { kind: "sample", size, seed });
      expect(new Set(reversed)).toEqual(new Set(sample));
      expect(teamQueue(cands, { kind: "sample", size, seed })).toEqual(sample);
    },
  );

  test.prop([candidatesArb])(
    "the whole queue is every candidate, steps non-decreasing",
    (cands) => {
      const queue = teamQueue(cands, { kind: "all" });
      expect([...queue].sort()).toEqual(cands.map((c) => c.id).sort());
      const step = new Map(cands.map((c) => [c.id, c.step ?? Infinity]));
      for (let i = 1; i < queue.length; i++)
        expect(step.get(queue[i]!)!).toBeGreaterThanOrEqual(step.get(queue[i - 1]!)!);
    },
  );
});
