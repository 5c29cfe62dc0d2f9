import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ANNOTATIONS_EMPTY,
  annotationsAgreement,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
  type GroupAnnotation,
} from "../../../core/index.ts";
import { mergeAnnotations, prepareAgreement } from "./prepareMerge.ts";

const g = (a: Partial<GroupAnnotation>): GroupAnnotation => ({ ...GROUP_ANNOTATION_EMPTY, ...a });
const file = (
  groups: Record<string, GroupAnnotation>,
  extra: Partial<Annotations> = {},
): Annotations => ({
  ...ANNOTATIONS_EMPTY,
  ...extra,
  groups,
});

describe("mergeAnnotations", () => {
  const current = file({
    g1: g({ ranking: [["a"], ["b"]], labels: { a: "pass" }, hacks: ["c"], notes: "mine" }),
    g2: g({ reviewed: true }),
  });
  const other = file(
    {
      g1: g({
        ranking: [["b"], ["a"]],
        labels: { a: "fail", b: "pass" },
        hacks: [],
        notes: "theirs",
      }),
      g2: g({ ranking: [["x"]], notes: "theirs", rolloutNotes: { x: "long" } }),
      g3: g({ hacks: ["z"] }),
    },
    { hackReasons: [...ANNOTATIONS_EMPTY.hackReasons, "new reason"], annotator: "bob" },
  );

  it("adds the other file's groups, keeps current values and fills only empty fields", () => {
    const { merged, added, filled } = mergeAnnotations(current, other);
    expect(added).toBe(1);
    expect(filled).toBe(2);
    expect(merged.groups.g3).toBe(other.groups.g3);
    expect(merged.groups.g1).toEqual(
      g({
        ranking: [["a"], ["b"]],
        labels: { a: "pass", b: "pass" },
        hacks: ["c"],
        notes: "mine",
      }),
    );
    expect(merged.groups.g2).toEqual(
      g({ reviewed: true, ranking: [["x"]], notes: "theirs", rolloutNotes: { x: "long" } }),
    );
    expect(merged.hackReasons).toContain("new reason");
    expect(merged.annotator).toBe("");
  });

  it("returns the current annotations unchanged when there is nothing to take", () => {
    expect(mergeAnnotations(current, current).merged).toBe(current);
    expect(mergeAnnotations(current, ANNOTATIONS_EMPTY).merged).toBe(current);
  });

  it("never changes a value the current file has (property)", () => {
    const label = fc.constantFrom<"pass" | "fail" | "defer">("pass", "fail", "defer");
    const ann = fc.dictionary(
      fc.constantFrom("g1", "g2", "g3", "g4"),
      fc.record({
        labels: fc.dictionary(fc.constantFrom("a", "b", "c"), label),
        notes: fc.constantFrom("", "n1", "n2"),
        hacks: fc.subarray(["a", "b", "c"]),
      }),
    );
    fc.assert(
      fc.property(ann, ann, (x, y) => {
        const cur = file(Object.fromEntries(Object.entries(x).map(([k, v]) => [k, g(v)])));
        const oth = file(Object.fromEntries(Object.entries(y).map(([k, v]) => [k, g(v)])));
        const { merged } = mergeAnnotations(cur, oth);
        for (const [id, ours] of Object.entries(cur.groups)) {
          const m = merged.groups[id]!;
          for (const [r, l] of Object.entries(ours.labels)) expect(m.labels[r]).toBe(l);
          expect(m.hacks).toEqual(ours.hacks);
          if (ours.notes !== "") expect(m.notes).toBe(ours.notes);
        }
        expect(Object.keys(merged.groups).sort()).toEqual(
          [...new Set([...Object.keys(x), ...Object.keys(y)])].sort(),
        );
      }),
    );
  });
});

describe("prepareAgreement", () => {
  it("formats core's figures and keeps every disagreement", () => {
    const a = file({ g1: g({ ranking: [["a"], ["b"], ["c"]], labels: { a: "pass", b: "fail" } }) });
    const b = file({ g1: g({ ranking: [["b"], ["a"], ["c"]], labels: { a: "pass", b: "pass" } }) });
    const report = annotationsAgreement(a, b);
    const v = prepareAgreement(report);
    expect(v.meanTau).toBe(report.meanTau.toFixed(3));
    expect(v.rankings).toEqual([{ groupId: "g1", n: 3, tau: report.meanTau.toFixed(3) }]);
    expect(v.labels.n).toBe(2);
    expect(v.labels.observed).toBe("50.0%");
    expect(v.disagreements).toHaveLength(report.disagreements.length);
    expect(v.disagreements.some((d) => d.kind === "ranking")).toBe(true);
    expect(v.disagreements.some((d) => d.kind === "label" && d.rolloutId === "b")).toBe(true);
  });

  it("shows undefined figures as a dash", () => {
    const v = prepareAgreement(annotationsAgreement(ANNOTATIONS_EMPTY, ANNOTATIONS_EMPTY));
    expect(v.meanTau).toBe("–");
    expect(v.labels).toEqual({ n: 0, observed: "–", kappa: "–" });
  });
});
