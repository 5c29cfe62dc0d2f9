import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import type { Rollout, RolloutGroup } from "../types.ts";
import {
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
  type GroupAnnotation,
  ANNOTATIONS_EMPTY,
} from "./annotations.ts";
import { annotationsAgreement, cohenKappa, compareGroupAnnotations } from "./interAnnotator.ts";

const ann = (groups: Record<string, Partial<GroupAnnotation>>): Annotations => ({
  ...ANNOTATIONS_EMPTY,
  groups: Object.fromEntries(
    Object.entries(groups).map(([id, g]) => [id, { ...GROUP_ANNOTATION_EMPTY, ...g }]),
  ),
});

function group(id: string, n: number): RolloutGroup {
  return {
    id,
    rollouts: Array.from({ length: n }, (_, i): Rollout => ({
      id: `${id}/${i}`,
      groupId: id,
      index: i,
      prompt: null,
      messages: [],
      completion: "",
      reward: 1,
      rewards: {},
      answer: null,
      testsPassed: null,
      meta: {},
      source: { file: "f", line: i + 1 },
    })),
  };
}

describe("cohenKappa", () => {
  it("matches the worked example", () => {
    const k = cohenKappa([
      ["pass", "pass"],
      ["fail", "fail"],
      ["pass", "fail"],
      ["fail", "fail"],
    ]);
    expect(k.observed).toBe(0.75);
    expect(k.kappa).toBeCloseTo(0.5, 12);
  });
  it("is NaN when chance agreement is certain, or with nothing to compare", () => {
    expect(cohenKappa([["pass", "pass"]]).kappa).toBeNaN();
    expect(cohenKappa([]).kappa).toBeNaN();
  });
});

describe("compareGroupAnnotations", () => {
  const a: GroupAnnotation = {
    ...GROUP_ANNOTATION_EMPTY,
    ranking: [["g/0"], ["g/1", "g/2"]],
    hacks: ["g/3"],
    labels: { "g/0": "pass", "g/1": "fail" },
  };
  const b: GroupAnnotation = {
    ...GROUP_ANNOTATION_EMPTY,
    ranking: [["g/1"], ["g/0"], ["g/2"]],
    labels: { "g/1": "fail", "g/3": "pass" },
  };

  it("lists each item both judged, with both sides' values", () => {
    const c = compareGroupAnnotations("g", a, b, ["g/0", "g/1", "g/2", "g/3"]);
    // First: g/0 < g/1 = g/2; second: g/1 < g/0 < g/2. Pairs (0,1) D, (0,2) C, (1,2) tie in the
    // first only: tau-b = (1 - 1) / sqrt(2 * 3) = 0.
    expect(c.ranking).toMatchObject({ groupId: "g", n: 3, pairs: 3, tau: 0 });
    expect(c.rankingConflicts).toEqual([
      { x: "g/0", y: "g/1", first: -1, second: 1 },
      { x: "g/1", y: "g/2", first: 0, second: -1 },
    ]);
    expect(c.labels).toEqual([{ rolloutId: "g/1", first: "fail", second: "fail" }]);
    expect(c.hacks.map((h) => [h.rolloutId, h.first, h.second])).toEqual([
      ["g/0", false, false],
      ["g/1", false, false],
      ["g/2", false, false],
      ["g/3", true, false],
    ]);
  });

  it("has no ranking row with fewer than two commonly ranked rollouts", () => {
    const c = compareGroupAnnotations("g", a, { ...b, ranking: [["g/0"]] });
    expect(c.ranking).toBeNull();
    expect(c.rankingConflicts).toEqual([]);
    // Without the group's ids: the rollouts either annotation mentions.
    expect(c.hacks.map((h) => h.rolloutId).sort()).toEqual(["g/0", "g/1", "g/2", "g/3"]);
  });
});

describe("annotationsAgreement", () => {
  const first = ann({
    g: {
      ...GROUP_ANNOTATION_EMPTY,
      ranking: [["g/0"], ["g/1", "g/2"], ["g/3"]],
      hacks: ["g/4"],
      labels: { "g/0": "pass", "g/1": "pass", "g/4": "fail" },
    },
    only1: { notes: "x" },
  });
  const second = ann({
    g: {
      ...GROUP_ANNOTATION_EMPTY,
      ranking: [["g/1"], ["g/0"], ["g/2"], ["g/3"]],
      hacks: ["g/4", "g/3"],
      labels: { "g/0": "pass", "g/1": "fail", "g/2": "pass" },
    },
    only2: { reviewed: true },
  });

  it("reports tau, kappas and every disagreement", () => {
    const report = annotationsAgreement(first, second, [group("g", 5)]);
    expect(report).toMatchObject({ sharedGroups: 1, onlyFirst: 1, onlySecond: 1 });
    // Tiers: first g/0 < g/1 = g/2 < g/3, second g/1 < g/0 < g/2 < g/3: C 4, D 1, one tie: 3 / sqrt(6 * 5).
    expect(report.rankings).toHaveLength(1);
    expect(report.rankings[0]!.n).toBe(4);
    expect(report.rankings[0]!.tau).toBeCloseTo(3 / Math.sqrt(6 * 5), 12);
    // Labels on g/0 and g/1: one agreement (pass, pass), one not (pass, fail).
    expect(report.labels.n).toBe(2);
    expect(report.labels.observed).toBe(0.5);
    // Hacks over the 5 rollouts: g/4 both, g/3 only the second.
    expect(report.hacks.n).toBe(5);
    expect(report.hacks.observed).toBe(0.8);
    expect(report.disagreements.map((d) => d.kind)).toEqual([
      "ranking",
      "ranking",
      "label",
      "hack",
    ]);
    expect(report.disagreements[0]!.message).toBe(
      "g/0 vs g/1: g/0 above g/1 in the first file, g/1 above g/0 in the second",
    );
  });

  it("compares hacks over the mentioned rollouts when the groups are not given", () => {
    const report = annotationsAgreement(first, second);
    expect(report.hacks.n).toBe(5);
  });

  const annotation = fc.record({
    ranking: fc
      .uniqueArray(fc.integer({ min: 0, max: 7 }), { maxLength: 8 })
      .map((ids) => ids.map((i) => [`g/${i}`])),
    hacks: fc.uniqueArray(fc.integer({ min: 0, max: 7 }).map((i) => `g/${i}`)),
    labels: fc.dictionary(
      fc.integer({ min: 0, max: 7 }).map((i) => `g/${i}`),
      fc.constantFrom("pass" as const, "fail" as const, "defer" as const),
    ),
  });

  test.prop([annotation])("a file agrees with itself", (a) => {
    const file = ann({ g: a });
    const report = annotationsAgreement(file, file, [group("g", 8)]);
    expect(report.disagreements).toEqual([]);
    for (const r of report.rankings) expect(r.tau).toBe(1);
    if (report.labels.n > 0) expect(report.labels.observed).toBe(1);
    expect(report.hacks.observed).toBe(1);
  });

  test.prop([annotation, annotation])("is symmetric in its figures", (a, b) => {
    const x = annotationsAgreement(ann({ g: a }), ann({ g: b }), [group("g", 8)]);
    const y = annotationsAgreement(ann({ g: b }), ann({ g: a }), [group("g", 8)]);
    const same = (p: number, q: number) =>
      Number.isNaN(p) ? expect(q).toBeNaN() : expect(q).toBeCloseTo(p, 12);
    same(x.labels.kappa, y.labels.kappa);
    same(x.hacks.kappa, y.hacks.kappa);
    same(x.meanTau, y.meanTau);
    expect(y.disagreements).toHaveLength(x.disagreements.length);
  });
});
