import { describe, expect, it } from "vitest";
import {
  DEFAULT_SAMPLE,
  modeFromPick,
  positionTitle,
  reviewAction,
  reviewButtons,
  sampleModeOf,
} from "./reviewBarModel.ts";

const sample = { kind: "sample", size: 5, seed: 9 } as const;
const middle = { previous: "a", next: "c", nextUnreviewed: "d" };
const alone = { previous: null, next: null, nextUnreviewed: null };

describe("review bar", () => {
  it("keeps a sample's size and seed across mode picks", () => {
    expect(sampleModeOf({ kind: "all" })).toEqual(DEFAULT_SAMPLE);
    expect(sampleModeOf(sample)).toBe(sample);
    expect(modeFromPick("sample", { kind: "mixed" })).toEqual({
      kind: "sample",
      size: 20,
      seed: 1,
    });
    expect(modeFromPick("sample", sample)).toBe(sample);
    expect(modeFromPick("mixed", sample)).toEqual({ kind: "mixed" });
  });

  it("opens the neighbours, marks the open group and moves to the next unreviewed", () => {
    expect(reviewAction("next", middle, "b")).toEqual({ kind: "open", groupId: "c" });
    expect(reviewAction("previous", middle, "b")).toEqual({ kind: "open", groupId: "a" });
    expect(reviewAction("mark-next", middle, "b")).toEqual({
      kind: "mark",
      groupId: "b",
      then: "d",
    });
    expect(reviewAction("mark-next", alone, "b")).toEqual({
      kind: "mark",
      groupId: "b",
      then: null,
    });
    expect(reviewAction("undo", alone, null)).toEqual({ kind: "undo" });
    expect(reviewAction("help", alone, null)).toEqual({ kind: "help" });
  });

  it("does nothing without a neighbour or an open group", () => {
    expect(reviewAction("next", alone, "b")).toBeNull();
    expect(reviewAction("previous", alone, "b")).toBeNull();
    expect(reviewAction("mark-next", middle, null)).toBeNull();
  });

  it("opens each button when its command can act", () => {
    const state = (buttons: ReturnType<typeof reviewButtons>) =>
      Object.fromEntries(buttons.map((b) => [b.testId, b.disabled]));
    expect(state(reviewButtons(middle, "b", true, false))).toEqual({
      "review.previous": false,
      "review.next": false,
      "review.mark-next": false,
      "review.undo": false,
      "review.redo": true,
    });
    expect(state(reviewButtons(alone, null, false, true))).toEqual({
      "review.previous": true,
      "review.next": true,
      "review.mark-next": true,
      "review.undo": true,
      "review.redo": false,
    });
    expect(reviewButtons(alone, null, false, false).map((b) => b.title)).toContain(
      "Next group in the queue (])",
    );
  });

  it("explains a position outside the queue", () => {
    expect(positionTitle({ index: null })).toBe("The open group is not in this queue");
    expect(positionTitle({ index: 3 })).toBeUndefined();
  });
});
