import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { teamAssign, teamAssignmentOf } from "./assign.ts";
import { teamProgress, teamProgressText } from "./progress.ts";
import type { TeamWorkStatus } from "./types.ts";

describe("teamProgress", () => {
  // g1 shared by ann and bob, g2 ann's, g3 bob's, g4 shared by ann and cy.
  const assignment = teamAssignmentOf(
    ["g1", "g2", "g3", "g4"],
    { g1: ["ann", "bob"], g2: ["ann"], g3: ["bob"], g4: ["ann", "cy"] },
    ["ann", "bob", "cy"],
  );
  const work: TeamWorkStatus[] = [
    { user: "ann", groupId: "g1", submitted: true },
    { user: "bob", groupId: "g1", submitted: true },
    { user: "ann", groupId: "g2", submitted: false }, // a draft
    { user: "bob", groupId: "g3", submitted: true },
    { user: "cy", groupId: "g4", submitted: true },
    { user: "cy", groupId: "g2", submitted: true }, // not cy's: not progress
  ];

  it("counts each person's places, the complete groups and the overlap ready for agreement", () => {
    const p = teamProgress(assignment, work);
    expect(p.people).toEqual([
      { user: "ann", assigned: 3, submitted: 1, next: "g2" },
      { user: "bob", assigned: 2, submitted: 2, next: null },
      { user: "cy", assigned: 1, submitted: 1, next: null },
    ]);
    expect(p.places).toEqual({ assigned: 6, submitted: 4 });
    expect(p.groups).toBe(4);
    expect(p.complete).toEqual(["g1", "g3"]);
    expect(p.overlapReady).toEqual(["g1"]);
    expect(teamProgressText(p.people[0]!)).toBe("1 of 3");
  });

  it("takes a person's later entry for a group (a submission withdrawn to a draft)", () => {
    const p = teamProgress(assignment, [...work, { user: "bob", groupId: "g1", submitted: false }]);
    expect(p.people[1]).toEqual({ user: "bob", assigned: 2, submitted: 1, next: "g1" });
    expect(p.overlapReady).toEqual([]);
  });

  it("never calls a group without assignees complete", () => {
    const p = teamProgress(teamAssignmentOf(["g"], {}, ["ann"]), []);
    expect(p.complete).toEqual([]);
    expect(p.people).toEqual([{ user: "ann", assigned: 0, submitted: 0, next: null }]);
  });

  const caseArb = fc.record({
    n: fc.integer({ min: 0, max: 40 }),
    people: fc.integer({ min: 2, max: 5 }),
    overlap: fc.constantFrom(0, 0.2, 0.5, 1),
    seed: fc.nat(1000),
    marks: fc.array(fc.constantFrom(0, 1, 2), { maxLength: 200 }),
  });

  test.prop([caseArb])("the counts add up", ({ n, people, overlap, seed, marks }) => {
    const annotators = Array.from({ length: people }, (_, i) => `u${i}`);
    const a = teamAssign(
      Array.from({ length: n }, (_, i) => `g${i}`),
      { annotators, overlap, seed },
    );
    // Each place: 0 nothing written, 1 a draft, 2 submitted.
    const places = a.queue.flatMap((g) => a.byGroup[g]!.map((user) => ({ user, groupId: g })));
    const work = places.flatMap((p, i): TeamWorkStatus[] =>
      (marks[i] ?? 0) === 0 ? [] : [{ ...p, submitted: marks[i] === 2 }],
    );
    const p = teamProgress(a, work);
    expect(p.places.assigned).toBe(places.length);
    expect(p.places.assigned).toBe(n + a.overlap.length);
    expect(p.places.submitted).toBe(work.filter((w) => w.submitted).length);
    for (const person of p.people) {
      expect(person.submitted).toBeLessThanOrEqual(person.assigned);
      expect(person.next === null).toBe(person.submitted === person.assigned);
    }
    for (const g of p.overlapReady) expect(p.complete).toContain(g);
    const submittedPlaces = new Set(
      work.filter((w) => w.submitted).map((w) => `${w.user}/${w.groupId}`),
    );
    expect(p.complete).toEqual(
      a.queue.filter((g) => a.byGroup[g]!.every((u) => submittedPlaces.has(`${u}/${g}`))),
    );
  });
});
