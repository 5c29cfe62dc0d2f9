import { describe, expect, it } from "vitest";
import { ANNOTATIONS_EMPTY, GROUP_ANNOTATION_EMPTY } from "../../../core/index.ts";
import type { TeamQueueReply, TeamStateReply } from "../../../io/view/teamApi.ts";
import {
  teamQueueBar,
  teamQueueItems,
  teamQueueRows,
  teamSubmitModel,
  type QueueItemRow,
} from "./teamModel.ts";

const queue = (name: string, blind: boolean): TeamQueueReply => ({
  name,
  blind,
  overlap: 0.2,
  seed: 1,
  filter: null,
  createdBy: "lead",
  createdAt: "t",
  groups: 3,
});

const state: TeamStateReply = {
  user: "ann",
  role: "annotator",
  dataset: "d",
  versions: {},
  submitted: { g2: "2026-12-04T06:00:00Z" },
  blind: ["g1", "g2"],
};

describe("teamQueueRows", () => {
  const entries = [
    {
      queue: queue("q1", true),
      progress: [
        { user: "ann", assigned: 40, annotated: 14, submitted: 12 },
        { user: "lead", assigned: 0, annotated: 0, submitted: 0 },
      ],
    },
    { queue: queue("q2", false), progress: null },
  ];

  it("gives each queue its progress as core says it, 12 of 40", () => {
    expect(teamQueueRows(entries, "ann", "annotator", "q2")).toEqual([
      { name: "q1", blind: true, progressText: "12 of 40", open: false },
      { name: "q2", blind: false, progressText: null, open: true },
    ]);
  });

  it("lists for a lead only the queues giving them groups", () => {
    expect(teamQueueRows(entries, "lead", "lead", null)).toEqual([]);
  });
});

describe("teamQueueItems and teamQueueBar", () => {
  const view = {
    queue: queue("q1", true),
    items: [
      { groupId: "g3", position: 2, assignees: ["ann", "bob"] },
      { groupId: "g1", position: 0, assignees: ["ann"] },
      { groupId: "gx", position: 1, assignees: ["bob"] },
      { groupId: "g2", position: 3, assignees: ["ann"] },
    ],
  };
  const annotations = {
    ...ANNOTATIONS_EMPTY,
    groups: { g3: { ...GROUP_ANNOTATION_EMPTY, notes: "n" } },
  };
  const items = teamQueueItems(view, "ann", state, annotations, "g3");

  it("lists the person's groups in queue order with their status", () => {
    expect(items).toEqual<QueueItemRow[]>([
      { groupId: "g1", place: 1, status: "todo", current: false },
      { groupId: "g3", place: 2, status: "draft", current: true },
      { groupId: "g2", place: 3, status: "submitted", current: false },
    ]);
  });

  it("walks the queue from the open group, and into it from outside", () => {
    expect(teamQueueBar(items, "g3")).toMatchObject({
      placeText: "Group 2 of 3 in the queue",
      prev: "g1",
      next: "g2",
    });
    expect(teamQueueBar(items, "g1")).toMatchObject({ prev: null, next: "g3" });
    expect(teamQueueBar(items, "g2")).toMatchObject({ prev: "g3", next: null });
    expect(teamQueueBar(items, "elsewhere")).toMatchObject({ prev: null, next: "g1" });
    expect(teamQueueBar([], "elsewhere")).toMatchObject({ prev: null, next: null });
  });
});

describe("teamSubmitModel", () => {
  const labelled = { ...GROUP_ANNOTATION_EMPTY, labels: { r1: "pass" as const } };

  it("is disabled, saying why, while nothing is annotated", () => {
    const m = teamSubmitModel("g1", state, undefined, undefined);
    expect(m).toMatchObject({ kind: "submit", disabled: true });
    expect(m.kind === "submit" ? m.reason : "").toContain("Nothing to submit yet");
    expect(teamSubmitModel("g1", state, GROUP_ANNOTATION_EMPTY, undefined)).toMatchObject({
      disabled: true,
    });
  });

  it("submits an annotated group, once at a time, and says a refusal", () => {
    expect(teamSubmitModel("g1", state, labelled, undefined)).toMatchObject({
      kind: "submit",
      disabled: false,
      reason: null,
      busy: false,
      error: null,
    });
    expect(teamSubmitModel("g1", state, labelled, { status: "submitting" })).toMatchObject({
      disabled: true,
      busy: true,
    });
    expect(
      teamSubmitModel("g1", state, labelled, { status: "error", message: "Not submitted: 400" }),
    ).toMatchObject({ disabled: false, error: "Not submitted: 400" });
    expect(teamSubmitModel("g1", null, labelled, undefined)).toMatchObject({ disabled: true });
  });

  it("says a submitted group is submitted", () => {
    expect(teamSubmitModel("g2", state, labelled, undefined)).toMatchObject({
      kind: "submitted",
      text: "Submitted",
    });
  });
});
