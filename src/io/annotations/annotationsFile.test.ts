import { describe, expect, it } from "vitest";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  HACK_REASONS_DEFAULT,
  JUDGE_GROUP_RESULT_EMPTY,
  judgeAccountingEmpty,
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
      judgeRuns: [
        {
          info: {
            id: "gar-1",
            mode: "gar",
            source: "llm",
            model: "m",
            baseUrl: "http://127.0.0.1:9/v1",
            promptVersion: "gar-v1@abc",
            startedAt: "2026-11-29T00:00:00.000Z",
            finishedAt: "2026-11-29T00:00:01.000Z",
            accounting: {
              ...judgeAccountingEmpty(),
              requests: 2,
              successes: 1,
              failures: { ...judgeAccountingEmpty().failures, invalid_reply: 1 },
            },
            costUsd: 0.25,
            cancelled: false,
          },
          groups: {
            g: { ...JUDGE_GROUP_RESULT_EMPTY, tiers: [["a"], ["b"]], hacks: ["c"], reason: "r" },
            h: {
              ...JUDGE_GROUP_RESULT_EMPTY,
              error: { kind: "invalid_reply", message: "index 9 is out of range", status: null },
            },
          },
        },
      ],
      rubrics: {
        g: {
          versions: [
            { version: 1, savedAt: "t1", author: "judge", solution: ["s"], behavior: ["b"] },
            { version: 2, savedAt: "t2", author: "human", solution: ["s2"], behavior: [] },
          ],
          labelVersions: { a: 1, c: 2 },
        },
      },
      calibration: {
        seed: 7,
        fractions: { train: 0.2, dev: 0.4, test: 0.4 },
        assignments: { a: "test", c: "dev" },
        unsealed: { at: "t3", judge: "gar-1", promptVersion: "gar-v1@abc" },
        log: [{ at: "t3", event: "unseal", message: "unsealed" }],
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
    const run = annotationsParse(
      "e.json",
      JSON.stringify({ version: 1, groups: {}, judgeRuns: [{ info: { id: "x" }, groups: {} }] }),
    );
    expect(run.ok).toBe(false);
    if (!run.ok) expect(formatIssue(run.issues[0]!)).toMatch(/e\.json: judgeRuns\[0\]\.info\.mode/);
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
