import { describe, expect, it } from "vitest";
import {
  teamAssign,
  teamCandidates,
  teamGroupFacts,
  teamQueue,
  type TeamGroupFacts,
} from "../../../core/index.ts";
import {
  assignableAnnotators,
  overlapShare,
  planQueue,
  QUEUE_FORM_DEFAULT,
  type QueueForm,
} from "./leadQueueModel.ts";

/** Six groups of three rollouts: four mixed (1, 2, 4, 5), two zero-std (3, 6). */
const REWARDS = [
  [1, 0, 1],
  [0, 0, 1],
  [1, 1, 1],
  [1, 0, 0],
  [0, 1, 1],
  [0, 0, 0],
];
const FACTS: TeamGroupFacts[] = REWARDS.map((r, i) =>
  teamGroupFacts(`task-${i + 1}`, null, r, 0.5),
);
const STEPPED: TeamGroupFacts[] = REWARDS.map((r, i) =>
  teamGroupFacts(`task-${i + 1}`, 10 + i, r, 0.5),
);

const form = (over: Partial<QueueForm>): QueueForm => ({
  ...QUEUE_FORM_DEFAULT,
  name: "first pass",
  annotators: ["ann", "bob"],
  ...over,
});

describe("planQueue", () => {
  it("builds the spec with core's queue and assignment, and says it in one line", () => {
    const plan = planQueue(form({ mixedOnly: true, overlapPercent: "50", seed: "3" }), FACTS, []);
    if (!plan.ok) throw new Error(plan.problem);
    const filter = { mixedOnly: true, zeroStdOnly: false, steps: null };
    const queue = teamQueue(teamCandidates(FACTS, filter), { kind: "all" });
    const assignment = teamAssign(queue, { annotators: ["ann", "bob"], overlap: 0.5, seed: 3 });
    expect(queue).toEqual(["task-1", "task-2", "task-4", "task-5"]);
    expect(plan.preview).toBe("4 groups; 2 to two people; ann 3, bob 3");
    expect(plan.spec).toEqual({
      name: "first pass",
      blind: true,
      overlap: 0.5,
      seed: 3,
      filter: { ...filter, selection: { kind: "all" } },
      groups: queue,
      assignments: queue.flatMap((groupId) =>
        assignment.byGroup[groupId]!.map((user) => ({ groupId, user })),
      ),
    });
    expect(plan.spec.assignments).toHaveLength(6);
  });

  it("draws a seeded sample as core draws it, and a zero-std filter", () => {
    const sample = planQueue(form({ selection: "sample", sampleSize: "3", seed: "7" }), FACTS, []);
    if (!sample.ok) throw new Error(sample.problem);
    expect(sample.spec.groups).toEqual(teamQueue(FACTS, { kind: "sample", size: 3, seed: 7 }));
    expect(sample.spec.filter).toMatchObject({ selection: { kind: "sample", size: 3, seed: 7 } });
    const flat = planQueue(form({ zeroStdOnly: true, overlapPercent: "0" }), FACTS, []);
    expect(flat.ok && flat.spec.groups).toEqual(["task-3", "task-6"]);
    expect(flat.ok && flat.preview).toBe("2 groups; 0 to two people; ann 1, bob 1");
  });

  it("takes a step range, an open end being the run's first or last step", () => {
    const plan = planQueue(form({ stepFrom: "12", overlapPercent: "0" }), STEPPED, []);
    expect(plan.ok && plan.spec.groups).toEqual(["task-3", "task-4", "task-5", "task-6"]);
    expect(plan.ok && plan.spec.filter).toMatchObject({ steps: { from: 12, to: 15 } });
    expect(planQueue(form({ stepTo: "10", overlapPercent: "0" }), STEPPED, [])).toMatchObject({
      ok: true,
      spec: { groups: ["task-1"] },
    });
  });

  it("names the problem and posts nothing", () => {
    const problem = (over: Partial<QueueForm>, facts = FACTS, taken: string[] = []) => {
      const plan = planQueue(form(over), facts, taken);
      return plan.ok ? null : plan.problem;
    };
    expect(problem({ name: "  " })).toBe("Name the queue.");
    expect(problem({}, FACTS, ["first pass"])).toBe('A queue named "first pass" exists.');
    expect(problem({ overlapPercent: "150" })).toMatch(/from 0 to 100/);
    expect(problem({ overlapPercent: "a lot" })).toMatch(/from 0 to 100/);
    expect(problem({ selection: "sample", sampleSize: "0" })).toMatch(/at least 1, got 0/);
    expect(problem({ selection: "sample", sampleSize: "two" })).toMatch(/whole number/);
    expect(problem({ seed: "-1" })).toMatch(/seed/);
    expect(problem({ stepFrom: "x" })).toMatch(/not a whole number/);
    expect(problem({ stepFrom: "3" })).toMatch(/no training steps/);
    expect(problem({ stepFrom: "14", stepTo: "12" }, STEPPED)).toMatch(/none/);
    expect(problem({ mixedOnly: true, zeroStdOnly: true })).toBe("The filter keeps no group.");
    expect(problem({ annotators: [] })).toMatch(/at least one annotator/);
    expect(problem({ annotators: ["ann"], overlapPercent: "50" })).toMatch(
      /overlap needs at least two annotators/,
    );
  });
});

describe("the form's helpers", () => {
  it("offers annotators whose token works, not leads", () => {
    const users = [
      { name: "lee", role: "lead" as const, revokedAt: null },
      { name: "ann", role: "annotator" as const, revokedAt: null },
      { name: "cat", role: "annotator" as const, revokedAt: "2026-12-04T00:00:00Z" },
      { name: "bob", role: "annotator" as const, revokedAt: null },
    ];
    expect(assignableAnnotators(users)).toEqual(["ann", "bob"]);
  });

  it("reads the overlap in percent", () => {
    expect([
      overlapShare("20"),
      overlapShare("0"),
      overlapShare("100"),
      overlapShare("12.5"),
    ]).toEqual([0.2, 0, 1, 0.125]);
    expect([overlapShare("101"), overlapShare("-5"), overlapShare("")]).toEqual([null, null, null]);
  });
});
