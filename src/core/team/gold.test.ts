import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  GROUP_ANNOTATION_EMPTY,
  HACK_REASONS_DEFAULT,
  type GroupAnnotation,
  type HumanLabel,
} from "../analysis/annotations.ts";
import {
  TEAM_GOLD_ANNOTATOR,
  teamAnnotationsDocument,
  teamAnnotatorDocument,
  teamGoldDocument,
  teamSuggestGold,
} from "./gold.ts";
import type { TeamWork } from "./types.ts";

const detail = (reason: string) => ({ reason, note: "", quote: "" });
const ann = (over: Partial<GroupAnnotation>): GroupAnnotation => ({
  ...GROUP_ANNOTATION_EMPTY,
  ...over,
});
const w = (
  user: string,
  groupId: string,
  annotation: GroupAnnotation,
  submitted = true,
): TeamWork => ({
  user,
  groupId,
  annotation,
  submitted,
});

describe("teamSuggestGold", () => {
  const ann1 = ann({
    labels: { r0: "pass", r1: "fail", r2: "pass" },
    hacks: ["r1", "r3"],
    hackDetails: { r1: detail("invented id"), r3: detail("other") },
    ranking: [["r0", "r2"]],
    notes: "mine",
    reviewed: true,
  });
  const bob = ann({
    labels: { r0: "pass", r1: "fail", r2: "fail", r4: "defer" },
    hacks: ["r1"],
    hackDetails: { r1: detail("invented id") },
    ranking: [["r2", "r0"]],
  });

  it("carries what both agree on and leaves the rest open for the lead", () => {
    const s = teamSuggestGold("g", [w("ann", "g", ann1), w("bob", "g", bob)]);
    expect(s.from).toEqual(["ann", "bob"]);
    expect(s.suggestion).toEqual({
      ...GROUP_ANNOTATION_EMPTY,
      labels: { r0: "pass", r1: "fail" },
      hacks: ["r1"],
      hackDetails: { r1: detail("invented id") },
      // The same tie, listed in another order: the same ranking.
      ranking: [["r0", "r2"]],
    });
    expect(s.open).toEqual({ labels: ["r2", "r4"], hacks: ["r3"], ranking: false });
  });

  it("leaves a differing ranking and differing hack details out", () => {
    const s = teamSuggestGold("g", [
      w("ann", "g", ann1),
      w("bob", "g", { ...bob, ranking: [["r0"], ["r2"]], hackDetails: { r1: detail("other") } }),
    ]);
    expect(s.suggestion.ranking).toEqual([]);
    expect(s.open.ranking).toBe(true);
    expect(s.suggestion.hacks).toEqual(["r1"]);
    expect(s.suggestion.hackDetails).toEqual({});
  });

  it("reads submitted work of the group only", () => {
    const s = teamSuggestGold("g", [
      w("ann", "g", ann1),
      w("bob", "g", bob, false),
      w("cy", "other", bob),
    ]);
    expect(s.from).toEqual(["ann"]);
    expect(s.suggestion.labels).toEqual(ann1.labels);
    expect(s.suggestion.hacks).toEqual(ann1.hacks);
    expect(s.open).toEqual({ labels: [], hacks: [], ranking: false });
    const none = teamSuggestGold("g", [w("bob", "g", bob, false)]);
    expect(none.suggestion).toEqual(GROUP_ANNOTATION_EMPTY);
    expect(none.from).toEqual([]);
  });

  const label = fc.constantFrom<HumanLabel>("pass", "fail", "defer");
  const rollout = fc.constantFrom("r0", "r1", "r2", "r3");
  const annotationArb = fc
    .record({
      labels: fc.dictionary(rollout, label),
      hacks: fc.uniqueArray(rollout),
      ranking: fc.uniqueArray(rollout).map((ids) => ids.map((id) => [id])),
      submitted: fc.boolean(),
    })
    .map(({ submitted, ...a }) => ({ annotation: ann(a), submitted }));

  test.prop([fc.array(annotationArb, { maxLength: 4 })])(
    "suggests only what every submitter said, and names every other judgement as open",
    (entries) => {
      const work = entries.map((e, i) => w(`u${i}`, "g", e.annotation, e.submitted));
      const s = teamSuggestGold("g", work);
      const subs = work.filter((x) => x.submitted).map((x) => x.annotation);
      for (const [id, l] of Object.entries(s.suggestion.labels))
        for (const a of subs) expect(a.labels[id]).toBe(l);
      for (const id of s.suggestion.hacks) for (const a of subs) expect(a.hacks).toContain(id);
      const labelled = new Set(subs.flatMap((a) => Object.keys(a.labels)));
      expect(new Set([...Object.keys(s.suggestion.labels), ...s.open.labels])).toEqual(labelled);
      const marked = new Set(subs.flatMap((a) => a.hacks));
      expect(new Set([...s.suggestion.hacks, ...s.open.hacks])).toEqual(marked);
      if (s.suggestion.ranking.length > 0)
        for (const a of subs) expect(a.ranking).toEqual(s.suggestion.ranking);
    },
  );
});

describe("the gold and annotator documents", () => {
  const a = ann({ labels: { r0: "pass" } });
  const b = ann({ labels: { r0: "fail" }, hacks: ["r0"] });

  it("makes the lead's resolutions a version-1 document named gold", () => {
    const gold = teamGoldDocument([
      { groupId: "g1", annotation: a, lead: "lee" },
      { groupId: "g2", annotation: b, lead: "lee" },
      { groupId: "g1", annotation: b, lead: "lee" }, // resolved again: the later counts
      { groupId: "g3", annotation: GROUP_ANNOTATION_EMPTY, lead: "lee" }, // says nothing: not stored
    ]);
    expect(gold.version).toBe(1);
    expect(gold.annotator).toBe(TEAM_GOLD_ANNOTATOR);
    expect(gold.hackReasons).toEqual(HACK_REASONS_DEFAULT);
    expect(gold.groups).toEqual({ g1: b, g2: b });
    expect(gold.judgeRuns).toEqual([]);
  });

  it("drops a group whose later resolution is empty, and keeps a taxonomy given", () => {
    const doc = teamAnnotationsDocument(
      "x",
      [
        { groupId: "g", annotation: a },
        { groupId: "g", annotation: GROUP_ANNOTATION_EMPTY },
      ],
      { hackReasons: ["mine"] },
    );
    expect(doc.groups).toEqual({});
    expect(doc.hackReasons).toEqual(["mine"]);
  });

  it("exports one annotator's submitted groups, or their drafts too", () => {
    const work = [w("ann", "g1", a), w("ann", "g2", b, false), w("bob", "g3", b)];
    expect(teamAnnotatorDocument("ann", work, "submitted").groups).toEqual({ g1: a });
    const all = teamAnnotatorDocument("ann", work, "all");
    expect(all.annotator).toBe("ann");
    expect(all.groups).toEqual({ g1: a, g2: b });
  });
});
