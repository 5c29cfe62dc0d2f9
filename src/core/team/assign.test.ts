import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  teamAssign,
  teamAssignmentOf,
  teamAssignProblem,
  teamOverlapCount,
  type TeamAssignOptions,
} from "./assign.ts";
import type { TeamAssignment } from "./types.ts";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `g${i}`);
const loads = (a: TeamAssignment) => a.annotators.map((u) => a.byUser[u]!.length);
const spread = (xs: readonly number[]) => Math.max(...xs) - Math.min(...xs);

/** Overlap groups per pair of annotators, every pair listed (0 when none). */
function pairCounts(a: TeamAssignment): number[] {
  const counts: number[] = [];
  a.annotators.forEach((x, i) =>
    a.annotators.slice(i + 1).forEach((y) => {
      counts.push(
        a.overlap.filter((g) => a.byGroup[g]!.includes(x) && a.byGroup[g]!.includes(y)).length,
      );
    }),
  );
  return counts;
}

describe("teamOverlapCount", () => {
  it("rounds share x groups to the nearest whole number, halves up", () => {
    expect(teamOverlapCount(40, 0.2)).toBe(8);
    expect(teamOverlapCount(10, 0.25)).toBe(3); // 2.5
    expect(teamOverlapCount(10, 0.15)).toBe(2); // 1.5
    expect(teamOverlapCount(7, 0.2)).toBe(1); // 1.4
    expect(teamOverlapCount(7, 0.3)).toBe(2); // 2.1
    expect(teamOverlapCount(10, 0.3)).toBe(3); // 3.0000000000000004
    expect(teamOverlapCount(5, 1)).toBe(5);
    expect(teamOverlapCount(0, 0.5)).toBe(0);
  });
});

describe("teamAssign: hand-worked cases", () => {
  it("40 groups, two annotators, 20%: 8 shared, 16 each alone, 24 each", () => {
    const a = teamAssign(ids(40), { annotators: ["ann", "bob"], overlap: 0.2, seed: 3 });
    expect(a.overlap).toHaveLength(8);
    for (const g of a.overlap) expect(a.byGroup[g]).toEqual(["ann", "bob"]);
    expect(loads(a)).toEqual([24, 24]);
    expect(a.queue).toEqual(ids(40));
  });

  it("10 groups, three annotators, 20%: two pairs sharing one person, loads 4/4/4", () => {
    // 2 overlap groups, 3 pairs: no whole round; the remainder's 2 pairs have degrees 2, 1, 1.
    const a = teamAssign(ids(10), { annotators: ["a", "b", "c"], overlap: 0.2, seed: 9 });
    expect(a.overlap).toHaveLength(2);
    const [p, q] = a.overlap.map((g) => a.byGroup[g]!);
    expect(p).not.toEqual(q);
    expect(p!.filter((u) => q!.includes(u))).toHaveLength(1);
    expect(loads(a)).toEqual([4, 4, 4]);
  });

  it("12 groups, four annotators, half shared: each of the six pairs once, loads 4 or 5", () => {
    const a = teamAssign(ids(12), { annotators: ["a", "b", "c", "d"], overlap: 0.5, seed: 1 });
    expect(pairCounts(a)).toEqual([1, 1, 1, 1, 1, 1]);
    // 12 + 6 = 18 places over 4 people: two get 5, two get 4.
    expect([...loads(a)].sort()).toEqual([4, 4, 5, 5]);
  });

  it("every group shared, three annotators: each pair once or twice, loads within one", () => {
    // 4 overlap groups, 3 pairs: one whole round, then one pair more (counts 2, 1, 1); the
    // 8 places give loads 3, 3, 2.
    const a = teamAssign(ids(4), { annotators: ["a", "b", "c"], overlap: 1, seed: 5 });
    expect([...pairCounts(a)].sort()).toEqual([1, 1, 2]);
    expect([...loads(a)].sort()).toEqual([2, 3, 3]);
  });

  it("lists each person's groups in queue order and names a group's people in annotator order", () => {
    const a = teamAssign(ids(9), { annotators: ["z", "y"], overlap: 1, seed: 0 });
    expect(a.byUser["z"]).toEqual(ids(9));
    expect(a.byGroup["g4"]).toEqual(["z", "y"]);
  });

  it("names what it cannot do", () => {
    const opts: TeamAssignOptions = { annotators: ["a", "b"], overlap: 0.2, seed: 1 };
    expect(teamAssignProblem(ids(3), opts)).toBeNull();
    expect(teamAssignProblem(ids(3), { ...opts, annotators: [] })).toMatch(/at least one/);
    expect(teamAssignProblem(ids(3), { ...opts, annotators: ["a", "a"] })).toMatch(/twice/);
    expect(teamAssignProblem(ids(3), { ...opts, annotators: [" "] })).toMatch(/empty/);
    expect(teamAssignProblem(["g", "g"], opts)).toMatch(/queue twice/);
    expect(teamAssignProblem(ids(3), { ...opts, overlap: 1.5 })).toMatch(/between 0 and 1/);
    expect(teamAssignProblem(ids(3), { ...opts, overlap: NaN })).toMatch(/between 0 and 1/);
    expect(teamAssignProblem(ids(3), { ...opts, seed: 0.5 })).toMatch(/seed/);
    expect(teamAssignProblem(ids(10), { ...opts, annotators: ["a"] })).toMatch(/two annotators/);
    // One annotator and no overlap (0.2 x 2 = 0.4 rounds to 0) is fine.
    expect(teamAssignProblem(ids(2), { ...opts, annotators: ["a"] })).toBeNull();
    expect(() => teamAssign(ids(3), { ...opts, annotators: [] })).toThrow(RangeError);
  });
});

describe("teamAssign: every small team, every overlap", () => {
  it("keeps pairs and loads within one for 2 to 9 annotators and up to two rounds of pairs", () => {
    for (let m = 2; m <= 9; m++) {
      const annotators = Array.from({ length: m }, (_, i) => `u${i}`);
      const pairs = (m * (m - 1)) / 2;
      for (let n = 0; n <= 2 * pairs + 1; n++)
        for (const seed of [0, 1, 2]) {
          // Every group shared: the pairs alone must keep the loads within one.
          const a = teamAssign(ids(n), { annotators, overlap: 1, seed });
          expect(spread(pairCounts(a))).toBeLessThanOrEqual(1);
          expect(spread(loads(a))).toBeLessThanOrEqual(1);
        }
    }
  });
});

describe("teamAssignmentOf", () => {
  it("rebuilds the lists from the stored groups, people outside the given list after them", () => {
    const a = teamAssignmentOf(
      ["g1", "g2", "g3", "g1"],
      { g1: ["b", "a", "b"], g2: ["c"], x: ["d"] },
      ["a", "b"],
    );
    expect(a.queue).toEqual(["g1", "g2", "g3"]);
    expect(a.annotators).toEqual(["a", "b", "c"]);
    expect(a.byGroup).toEqual({ g1: ["b", "a"], g2: ["c"], g3: [] });
    expect(a.byUser).toEqual({ a: ["g1"], b: ["g1"], c: ["g2"] });
    expect(a.overlap).toEqual(["g1"]);
  });
});

describe("teamAssign: properties", () => {
  const caseArb = fc.record({
    n: fc.integer({ min: 0, max: 80 }),
    annotators: fc.uniqueArray(
      fc.string({ minLength: 1, maxLength: 4 }).filter((s) => s.trim() !== ""),
      {
        minLength: 1,
        maxLength: 7,
      },
    ),
    overlap: fc.oneof(
      fc.constantFrom(0, 0.1, 0.2, 0.25, 0.5, 1),
      fc.double({ min: 0, max: 1, noNaN: true }),
    ),
    seed: fc.nat(10_000),
  });
  const valid = (c: { n: number; annotators: string[]; overlap: number }) =>
    c.annotators.length >= 2 || teamOverlapCount(c.n, c.overlap) === 0;

  test.prop([caseArb])("covers every group once or twice, with distinct people", (c) => {
    fc.pre(valid(c));
    const a = teamAssign(ids(c.n), c);
    expect(a.queue).toEqual(ids(c.n));
    for (const g of ids(c.n)) {
      const users = a.byGroup[g]!;
      expect(users.length === 1 || users.length === 2).toBe(true);
      expect(new Set(users).size).toBe(users.length);
      for (const u of users) expect(c.annotators).toContain(u);
    }
    for (const u of c.annotators) expect(new Set(a.byUser[u]).size).toBe(a.byUser[u]!.length);
  });

  test.prop([caseArb])("the overlap is round(share x groups); loads and pairs within one", (c) => {
    fc.pre(valid(c));
    const a = teamAssign(ids(c.n), c);
    expect(a.overlap).toHaveLength(teamOverlapCount(c.n, c.overlap));
    expect(spread(loads(a))).toBeLessThanOrEqual(1);
    expect(loads(a).reduce((s, x) => s + x, 0)).toBe(c.n + a.overlap.length);
    if (c.annotators.length >= 2) expect(spread(pairCounts(a))).toBeLessThanOrEqual(1);
  });

  test.prop([caseArb])("is the same for the same seed, and rebuilt from its groups", (c) => {
    fc.pre(valid(c));
    const a = teamAssign(ids(c.n), c);
    expect(teamAssign(ids(c.n), c)).toEqual(a);
    expect(teamAssignmentOf(a.queue, a.byGroup, c.annotators)).toEqual(a);
  });
});
