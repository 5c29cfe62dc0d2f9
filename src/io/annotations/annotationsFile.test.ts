import { describe, expect, it } from "vitest";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  HACK_REASONS_DEFAULT,
  pairwiseChoose,
  pairwiseStart,
  type Annotations,
} from "../../core/index.ts";
import { formatIssue } from "../issues.ts";
import {
  annotationsParse,
  annotationsToJson,
  groupAnnotationFromUnknown,
} from "./annotationsFile.ts";

describe("the annotations file", () => {
  it("reads a minimal version 1 file with every later field defaulted", () => {
    const parsed = annotationsParse(
      "a.json",
      JSON.stringify({ version: 1, groups: { g: { ranking: ["r1", ["r0", 2]], hacks: [3] } } }),
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        ...ANNOTATIONS_EMPTY,
        hackReasons: [...HACK_REASONS_DEFAULT],
        groups: {
          g: { ...GROUP_ANNOTATION_EMPTY, ranking: [["r1"], ["r0", "2"]], hacks: ["3"] },
        },
      },
    });
  });

  it("round-trips every field, pairwise sessions included", () => {
    let session = pairwiseStart("single-elimination", ["a", "b", "c"], 4);
    session = pairwiseChoose(pairwiseChoose(session, "left"), "tie");
    const annotations: Annotations = {
      version: 1,
      annotator: "ana",
      hackReasons: ["invented id", "other"],
      groups: {
        g: {
          ranking: [["a"], ["b", "c"]],
          hacks: ["c"],
          labels: { a: "pass", c: "defer" },
          notes: "group note",
          reviewed: true,
          hackDetails: { c: { reason: "invented id", note: "W999", quote: "order W999" } },
          rolloutNotes: { a: "clean" },
          pairwise: session,
        },
      },
    };
    const parsed = annotationsParse("a.json", annotationsToJson(annotations));
    expect(parsed).toEqual({ ok: true, value: annotations });
  });

  it("names the file and the field of what is wrong", () => {
    const bad = annotationsParse(
      "b.json",
      JSON.stringify({ version: 1, groups: { g: { labels: { r0: "maybe" } } } }),
    );
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(formatIssue(bad.issues[0]!)).toMatch(/b\.json.*groups\.g\.labels\.r0/);
    const version = annotationsParse("c.json", JSON.stringify({ version: 2, groups: {} }));
    expect(version.ok).toBe(false);
    if (!version.ok) expect(version.issues[0]!.message).toContain("this studio reads version 1");
    const json = annotationsParse("d.json", "{");
    expect(json.ok).toBe(false);
  });

  it("rejects a pairwise session whose judgements do not follow its schedule", () => {
    const session = pairwiseStart("round-robin", ["a", "b", "c"], 1);
    const parsed = annotationsParse(
      "e.json",
      JSON.stringify({
        version: 1,
        groups: {
          g: { pairwise: { ...session, judgements: [{ a: "zz", b: "a", verdict: "a" }] } },
        },
      }),
    );
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues[0]!.message).toContain("the schedule asks for");
  });

  it("reads one stored group back, or null when it does not validate", () => {
    expect(groupAnnotationFromUnknown({ notes: "x" })).toEqual({
      ...GROUP_ANNOTATION_EMPTY,
      notes: "x",
    });
    expect(groupAnnotationFromUnknown({ ranking: "x" })).toBeNull();
    expect(groupAnnotationFromUnknown(null)).toBeNull();
  });
});
