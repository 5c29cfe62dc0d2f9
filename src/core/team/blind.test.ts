import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { teamVisibility, teamVisibilityNote, type TeamViewContext } from "./blind.ts";

describe("teamVisibility", () => {
  it("hides rewards and verdicts from an annotator of a blind group until they submit", () => {
    expect(teamVisibility({ role: "annotator", blind: true, submitted: false })).toEqual({
      rewards: false,
      judgeVerdicts: false,
      othersAnnotations: false,
      reason: "blind until submitted",
    });
    expect(teamVisibility({ role: "annotator", blind: true, submitted: true })).toEqual({
      rewards: true,
      judgeVerdicts: true,
      othersAnnotations: false,
      reason: "submitted",
    });
  });

  it("shows an open queue's rewards and verdicts, but never other people's annotations", () => {
    expect(teamVisibility({ role: "annotator", blind: false, submitted: false })).toEqual({
      rewards: true,
      judgeVerdicts: true,
      othersAnnotations: false,
      reason: "open queue",
    });
  });

  it("shows a lead everything", () => {
    for (const blind of [true, false])
      for (const submitted of [true, false])
        expect(teamVisibility({ role: "lead", blind, submitted })).toEqual({
          rewards: true,
          judgeVerdicts: true,
          othersAnnotations: true,
          reason: "lead",
        });
  });

  it("says what is hidden only while something of the group is", () => {
    const note = (c: TeamViewContext) => teamVisibilityNote(teamVisibility(c));
    expect(note({ role: "annotator", blind: true, submitted: false })).toMatch(/^Blind: /);
    expect(note({ role: "annotator", blind: true, submitted: true })).toBeNull();
    expect(note({ role: "lead", blind: true, submitted: false })).toBeNull();
  });

  const contextArb = fc.record({
    role: fc.constantFrom("annotator" as const, "lead" as const),
    blind: fc.boolean(),
    submitted: fc.boolean(),
  });

  test.prop([contextArb])("submitting never hides anything that was shown", (c) => {
    const before = teamVisibility({ ...c, submitted: false });
    const after = teamVisibility({ ...c, submitted: true });
    for (const key of ["rewards", "judgeVerdicts", "othersAnnotations"] as const)
      if (before[key]) expect(after[key]).toBe(true);
  });
});
