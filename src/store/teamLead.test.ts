import { describe, expect, it } from "vitest";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  teamAgreement,
  type GroupAnnotation,
} from "../core/index.ts";
import type { TeamPerson } from "./remote/teamClient.ts";
import {
  teamAgreementOptions,
  teamFactsOf,
  teamGoldSuggestionOf,
  teamHumanSources,
  teamQueueAssignment,
  teamWorkOf,
} from "./teamLead.ts";
import { testRollout } from "../test/rolloutFixtures.ts";

const labels = (l: Record<string, "pass" | "fail">): GroupAnnotation => ({
  ...GROUP_ANNOTATION_EMPTY,
  labels: l,
});

function person(
  user: string,
  groups: Record<string, GroupAnnotation>,
  submitted: string[],
): TeamPerson {
  return {
    user,
    version: "1",
    annotations: { ...ANNOTATIONS_EMPTY, annotator: user, groups },
    versions: {},
    submitted: Object.fromEntries(submitted.map((g) => [g, "2026-12-04T05:00:00Z"])),
  };
}

const people = [
  person("ann", { g1: labels({ "g1/0": "pass" }), g2: labels({ "g2/0": "fail" }) }, ["g1", "g2"]),
  person("bob", { g1: labels({ "g1/0": "fail" }), g2: labels({ "g2/0": "fail" }) }, ["g1"]),
  person("lee", { g1: labels({ "g1/0": "pass" }) }, []),
];

describe("the lead's derived data", () => {
  it("turns each person's document into core's work, submitted or a draft", () => {
    expect(teamWorkOf(people).map((w) => [w.user, w.groupId, w.submitted])).toEqual([
      ["ann", "g1", true],
      ["ann", "g2", true],
      ["bob", "g1", true],
      ["bob", "g2", false],
      ["lee", "g1", false],
    ]);
  });

  it("rebuilds a queue's assignment from its items, in queue order", () => {
    const assignment = teamQueueAssignment([
      { groupId: "g2", position: 1, assignees: ["bob"] },
      { groupId: "g1", position: 0, assignees: ["ann", "bob"] },
    ]);
    expect(assignment.queue).toEqual(["g1", "g2"]);
    expect(assignment.annotators).toEqual(["ann", "bob"]);
    expect(assignment.overlap).toEqual(["g1"]);
  });

  it("compares a queue's annotators over its overlap, or everyone over every group", () => {
    const items = { first: [{ groupId: "g2", position: 0, assignees: ["ann", "bob"] }] };
    const rollouts = new Map([["g1", ["g1/0", "g1/1"]]]);
    expect(teamAgreementOptions({ items }, "first", rollouts)).toEqual({
      annotators: ["ann", "bob"],
      groups: ["g2"],
      rollouts,
    });
    expect(teamAgreementOptions({ items }, null, rollouts)).toEqual({ rollouts });
    expect(teamAgreementOptions({ items }, "gone", rollouts)).toBeNull();
    const all = teamAgreement(teamWorkOf(people), { rollouts });
    // lee submitted nothing: not compared; g2 is bob's draft: not compared.
    expect(all.pairs.map((p) => [p.first, p.second, p.groups])).toEqual([["ann", "bob", ["g1"]]]);
  });

  it("suggests gold from the two people compared only", () => {
    const s = teamGoldSuggestionOf(people, "g2", ["ann", "bob"]);
    expect(s.from).toEqual(["ann"]);
    expect(s.suggestion.labels).toEqual({ "g2/0": "fail" });
  });

  it("reads a group's facts as the browser does: weights on a parsed group, passes at the threshold", () => {
    const group = {
      id: "g1",
      rollouts: [
        testRollout({ id: "g1/0", reward: 1, rewards: { a: 1, b: 0 } }),
        testRollout({ id: "g1/1", reward: 0, rewards: { a: 0, b: 1 } }),
      ],
    };
    const dataset = {
      summaries: [
        { id: "g1", rewards: [1, 0], prompt: "", partial: false, step: 3 },
        { id: "g2", rewards: [0.4, NaN], prompt: "", partial: false, step: null },
      ],
      groups: [group],
    };
    const plain = teamFactsOf(dataset, { passThreshold: 0.5, rewardWeights: null });
    expect(plain).toEqual([
      { id: "g1", step: 3, rewards: [1, 0], passed: [true, false] },
      { id: "g2", step: null, rewards: [0.4, NaN], passed: [false, false] },
    ]);
    const weighted = teamFactsOf(dataset, { passThreshold: 0.5, rewardWeights: { a: 0, b: 1 } });
    expect(weighted[0]!.passed).toEqual([false, true]);
  });

  it("offers the gold and every other person as calibration's human side", () => {
    const gold = {
      ...people[0]!,
      user: "gold",
      annotations: {
        ...ANNOTATIONS_EMPTY,
        annotator: "gold",
        groups: { g1: labels({ "g1/0": "fail" }) },
      },
      resolvedBy: { g1: "lee" },
    };
    const sources = teamHumanSources({ people, gold }, "lee");
    expect(sources.map((s) => [s.value, s.label, s.annotations.annotator])).toEqual([
      ["team:gold", "the gold (the lead's resolutions)", "gold"],
      ["team:ann", "labels of ann", "ann"],
      ["team:bob", "labels of bob", "bob"],
    ]);
    expect(sources[0]!.annotations.groups).toBe(gold.annotations.groups);
    expect(teamHumanSources({ people: [], gold: null }, "lee")).toEqual([]);
  });
});
