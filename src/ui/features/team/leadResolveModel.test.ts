import { describe, expect, it } from "vitest";
import {
  GROUP_ANNOTATION_EMPTY,
  teamSuggestGold,
  type GroupAnnotation,
} from "../../../core/index.ts";
import {
  draftChanged,
  draftHack,
  draftLabel,
  draftRankingSource,
  initialDraft,
  rankingText,
  resolveRows,
  shortRolloutId,
  takeSide,
} from "./leadResolveModel.ts";

const ann: GroupAnnotation = {
  ...GROUP_ANNOTATION_EMPTY,
  labels: { "g/0": "pass", "g/1": "fail", "g/2": "pass" },
  hacks: ["g/2"],
  hackDetails: { "g/2": { reason: "format gaming", note: "n", quote: "q" } },
  ranking: [["g/0"], ["g/2"]],
  notes: "ann's note",
  rolloutNotes: { "g/1": "wrong sum" },
  reviewed: true,
};
const bob: GroupAnnotation = {
  ...GROUP_ANNOTATION_EMPTY,
  labels: { "g/0": "pass", "g/1": "pass", "g/2": "pass" },
  ranking: [["g/2"], ["g/0", "g/1"]],
};

describe("the side-by-side rows", () => {
  it("list the group's rollouts, both sides' labels, marks and notes, and where they differ", () => {
    const rows = resolveRows("g", [ann, bob], ["g/0", "g/1", "g/2", "g/3"]);
    expect(rows.map((r) => [r.short, r.labels, r.hacks, r.notes, r.differs])).toEqual([
      ["0", ["pass", "pass"], [false, false], ["", ""], false],
      ["1", ["fail", "pass"], [false, false], ["wrong sum", ""], true],
      ["2", ["pass", "pass"], [true, false], ["", ""], true],
      ["3", [null, null], [false, false], ["", ""], false],
    ]);
  });

  it("add rollouts only an annotation names, after the group's", () => {
    const rows = resolveRows("g", [ann, bob], ["g/1"]);
    expect(rows.map((r) => r.rolloutId)).toEqual(["g/1", "g/0", "g/2"]);
  });

  it("say rankings best first with ties, ids without the group's prefix", () => {
    expect(rankingText("g", bob.ranking)).toBe("2 > 0 = 1");
    expect(rankingText("g", [])).toBe("not ranked");
    expect(shortRolloutId("g", "other/1")).toBe("other/1");
    expect(shortRolloutId("g", "g/")).toBe("g/");
  });
});

describe("the draft", () => {
  it("starts from the saved gold, else from core's suggestion", () => {
    const suggestion = teamSuggestGold("g", [
      { user: "ann", groupId: "g", annotation: ann, submitted: true },
      { user: "bob", groupId: "g", annotation: bob, submitted: true },
    ]).suggestion;
    expect(initialDraft(null, suggestion).labels).toEqual({ "g/0": "pass", "g/2": "pass" });
    expect(initialDraft(bob, suggestion)).toBe(bob);
  });

  it("takes a side's judgements and notes, not its reviewed mark", () => {
    const taken = takeSide(ann);
    expect(taken).toEqual({ ...ann, reviewed: false, pairwise: null });
    expect(draftRankingSource(taken, [ann, bob])).toBe(0);
    expect(draftRankingSource(takeSide(bob), [ann, bob])).toBe(1);
    expect(draftRankingSource(GROUP_ANNOTATION_EMPTY, [ann, bob])).toBe("none");
    expect(draftRankingSource({ ...taken, ranking: [["g/1"]] }, [ann, bob])).toBe("other");
  });

  it("edits a label and a hack mark, a new mark taking the side's detail", () => {
    let draft = draftLabel(takeSide(bob), "g/1", "fail");
    expect(draft.labels).toEqual({ "g/0": "pass", "g/1": "fail", "g/2": "pass" });
    draft = draftLabel(draft, "g/0", null);
    expect(draft.labels).toEqual({ "g/1": "fail", "g/2": "pass" });
    draft = draftHack(draft, "g/2", true, [ann, bob]);
    expect(draft.hacks).toEqual(["g/2"]);
    expect(draft.hackDetails).toEqual(ann.hackDetails);
    draft = draftHack(draft, "g/1", true, [ann, bob]);
    expect(draft.hacks).toEqual(["g/2", "g/1"]);
    expect(Object.keys(draft.hackDetails)).toEqual(["g/2"]);
    draft = draftHack(draft, "g/2", false, [ann, bob]);
    expect([draft.hacks, draft.hackDetails]).toEqual([["g/1"], {}]);
  });

  it("knows when it differs from what is saved", () => {
    expect(draftChanged(GROUP_ANNOTATION_EMPTY, null)).toBe(false);
    expect(draftChanged(takeSide(bob), takeSide(bob))).toBe(false);
    expect(draftChanged(draftLabel(bob, "g/0", "fail"), bob)).toBe(true);
  });
});
