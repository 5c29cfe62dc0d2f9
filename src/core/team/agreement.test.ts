import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type GroupAnnotation,
  type HumanLabel,
} from "../analysis/annotations.ts";
import { annotationsAgreement } from "../analysis/interAnnotator.ts";
import { teamAgreement, teamPairAgreement, type TeamDisagreement } from "./agreement.ts";
import { testRollout } from "../../test/rolloutFixtures.ts";
import type { TeamWork } from "./types.ts";

const ids = (g: string) => [0, 1, 2, 3].map((i) => `${g}/${i}`);
const rollouts = new Map(["g1", "g2", "g3"].map((g) => [g, ids(g)]));

/** A submitted (or draft) annotation of group g, rollouts named by index. */
function work(
  user: string,
  g: string,
  a: { labels?: Record<number, HumanLabel>; hacks?: number[]; ranking?: number[][] },
  submitted = true,
): TeamWork {
  const id = (i: number) => `${g}/${i}`;
  const annotation: GroupAnnotation = {
    ...GROUP_ANNOTATION_EMPTY,
    labels: Object.fromEntries(Object.entries(a.labels ?? {}).map(([i, l]) => [id(+i), l])),
    hacks: (a.hacks ?? []).map(id),
    ranking: (a.ranking ?? []).map((tier) => tier.map(id)),
  };
  return { user, groupId: g, submitted, annotation };
}

// Three people: ann and bob share g1 and g2, ann and cy g1, bob and cy g1 and g3 (ann's g3 is a
// draft, so it counts for no pair).
const team: TeamWork[] = [
  work("ann", "g1", {
    labels: { 0: "pass", 1: "fail", 2: "pass", 3: "fail" },
    hacks: [3],
    ranking: [[0], [2], [1, 3]],
  }),
  work("bob", "g1", {
    labels: { 0: "pass", 1: "pass", 2: "pass", 3: "fail" },
    ranking: [[2], [0], [1, 3]],
  }),
  work("cy", "g1", {
    labels: { 0: "pass", 1: "fail", 2: "fail", 3: "fail" },
    hacks: [3],
    ranking: [[0], [2], [1], [3]],
  }),
  work("ann", "g2", { labels: { 0: "pass", 1: "pass" }, ranking: [[0], [1]] }),
  work("bob", "g2", { labels: { 0: "pass", 1: "fail" }, hacks: [1], ranking: [[0], [1]] }),
  work("ann", "g3", { labels: { 0: "fail" } }, false),
  work("bob", "g3", { labels: { 0: "pass" } }),
  work("cy", "g3", { labels: { 0: "pass" } }),
];

describe("teamAgreement: a hand-worked team of three", () => {
  const report = teamAgreement(team, { rollouts });
  const [ab, ac, bc] = report.pairs;

  it("compares every pair over the groups both submitted", () => {
    expect(report.annotators).toEqual(["ann", "bob", "cy"]);
    expect(report.pairs.map((p) => [p.first, p.second, p.groups])).toEqual([
      ["ann", "bob", ["g1", "g2"]],
      ["ann", "cy", ["g1"]],
      ["bob", "cy", ["g1", "g3"]],
    ]);
  });

  it("has each pair's kappas as worked by hand", () => {
    // ann-bob labels: 6 items, 4 agree (po 2/3); both say pass 4 times, fail twice:
    // pe = (4/6)^2 + (2/6)^2 = 5/9, kappa = (2/3 - 5/9) / (4/9) = 1/4.
    expect(ab!.labels.n).toBe(6);
    expect(ab!.labels.kappa).toBeCloseTo(1 / 4, 12);
    // Hacks over 8 rollouts, one mark each on different rollouts: po 3/4, pe 50/64: -1/7.
    expect(ab!.hacks.kappa).toBeCloseTo(-1 / 7, 12);
    // ann-cy labels po 3/4, pe 1/2: 1/2; hacks all agree (g1/3 marked by both): 1.
    expect(ac!.labels.kappa).toBeCloseTo(1 / 2, 12);
    expect(ac!.hacks.kappa).toBe(1);
    // bob-cy labels po 3/5, pe 11/25: 2/7; hacks: bob marks none, so pe = po = 7/8: 0.
    expect(bc!.labels.kappa).toBeCloseTo(2 / 7, 12);
    expect(bc!.hacks.kappa).toBe(0);
  });

  it("has each pair's tau as SciPy gives it", () => {
    // scipy.stats.kendalltau([0,1,2,2],[1,0,2,2]) = 0.6 on g1 (6 pairs), g2 identical (1 pair):
    // pair-weighted (0.6 * 6 + 1) / 7.
    expect(ab!.rankings.map((r) => [r.groupId, r.tau])).toEqual([
      ["g1", expect.closeTo(0.6, 12)],
      ["g2", 1],
    ]);
    expect(ab!.tau.tau).toBeCloseTo((0.6 * 6 + 1) / 7, 12);
    // kendalltau([0,1,2,2],[0,1,2,3]) = 0.912870929175277; ([0,1,2,2],[1,0,2,3]) = 0.5477225575051662.
    expect(ac!.tau.tau).toBeCloseTo(0.912870929175277, 12);
    expect(bc!.tau.tau).toBeCloseTo(0.5477225575051662, 12);
  });

  it("pools every pair's items overall, and gives the mean of the pairs beside it", () => {
    // 15 label items, 10 agree; pooled kappa 8/23. 20 hack items, 17 agree: 7/22.
    expect(report.overall.labels).toMatchObject({ n: 15, observed: 10 / 15 });
    expect(report.overall.labels.kappa).toBeCloseTo(8 / 23, 12);
    expect(report.overall.hacks.n).toBe(20);
    expect(report.overall.hacks.kappa).toBeCloseTo(7 / 22, 12);
    // Tau pooled over the rows' 19 rollout pairs: 6, 1, 6 and 6.
    expect(report.overall.tau.pairs).toBe(19);
    expect(report.overall.tau.tau).toBeCloseTo(0.7033453115832978, 12);
    expect(report.overall.meanOfPairs.labels).toBeCloseTo((1 / 4 + 1 / 2 + 2 / 7) / 3, 12);
    expect(report.overall.meanOfPairs.hacks).toBeCloseTo((-1 / 7 + 1 + 0) / 3, 12);
    expect(report.overall.meanOfPairs.tau).toBeCloseTo(0.7059121146077668, 12);
    expect(report.overall.groups).toBe(3);
  });

  it("lists the disagreements by group, then pair, with both sides' values", () => {
    const brief = (d: TeamDisagreement) =>
      `${d.groupId} ${d.first}-${d.second} ${d.kind} ${"rolloutId" in d ? d.rolloutId : ""}`;
    expect(report.disagreements.map(brief)).toEqual([
      "g1 ann-bob ranking ",
      "g1 ann-bob label g1/1",
      "g1 ann-bob hack g1/3",
      "g1 ann-cy ranking ",
      "g1 ann-cy label g1/2",
      "g1 bob-cy ranking ",
      "g1 bob-cy label g1/1",
      "g1 bob-cy label g1/2",
      "g1 bob-cy hack g1/3",
      "g2 ann-bob label g2/1",
      "g2 ann-bob hack g2/1",
    ]);
    expect(report.disagreements[1]).toMatchObject({ values: ["fail", "pass"] });
    expect(report.disagreements[2]).toMatchObject({ values: [true, false] });
    const ranking = report.disagreements[0]!;
    expect(ranking.kind === "ranking" && ranking.tau).toBeCloseTo(0.6, 12);
    expect(ranking).toMatchObject({
      values: [team[0]!.annotation.ranking, team[1]!.annotation.ranking],
      conflicts: [{ x: "g1/0", y: "g1/2", first: -1, second: 1 }],
    });
  });

  it("never compares a draft: ann's g3 may say anything", () => {
    const changed = team.map((w) =>
      w.user === "ann" && w.groupId === "g3"
        ? work("ann", "g3", { labels: { 0: "pass", 1: "fail" }, hacks: [2] }, false)
        : w,
    );
    expect(teamAgreement(changed, { rollouts })).toEqual(report);
  });

  it("restricts to the people and groups given, in their order", () => {
    const r = teamAgreement(team, { rollouts, annotators: ["cy", "bob"], groups: ["g3", "g1"] });
    expect(r.pairs.map((p) => [p.first, p.second, p.groups])).toEqual([
      ["cy", "bob", ["g3", "g1"]],
    ]);
    expect(r.pairs[0]!.labels.kappa).toBeCloseTo(2 / 7, 12);
  });

  it("gives a pair with no shared group no figure rather than a false one", () => {
    const r = teamAgreement(team, { annotators: ["ann", "bob", "dee"] });
    const withDee = r.pairs.filter((p) => p.second === "dee");
    for (const p of withDee) {
      expect(p.groups).toEqual([]);
      expect(p.labels.kappa).toBeNaN();
      expect(p.tau.tau).toBeNaN();
    }
    expect(r.overall.meanOfPairs.labels).toBeCloseTo(ab!.labels.kappa, 12);
  });
});

describe("teamAgreement: properties", () => {
  const label = fc.constantFrom<HumanLabel>("pass", "fail", "defer");
  const annotationArb = (g: string) =>
    fc
      .record({
        labels: fc.dictionary(fc.constantFrom("0", "1", "2", "3"), label),
        hacks: fc.uniqueArray(fc.integer({ min: 0, max: 3 })),
        ranking: fc
          .uniqueArray(fc.integer({ min: 0, max: 3 }))
          .chain((order) =>
            fc
              .array(fc.boolean(), { minLength: order.length, maxLength: order.length })
              .map((cuts) => tiersOf(order, cuts)),
          ),
        submitted: fc.boolean(),
      })
      .map((a) => work("?", g, a, a.submitted));
  const pairWorkArb = fc
    .tuple(
      fc.array(annotationArb("g1"), { minLength: 0, maxLength: 1 }),
      annotationArb("g2"),
      annotationArb("g1"),
      annotationArb("g2"),
    )
    .map(([xs, x2, y1, y2]) => [
      ...xs.map((w) => ({ ...w, user: "x" })),
      { ...x2, user: "x" },
      { ...y1, user: "y" },
      { ...y2, user: "y" },
    ]);

  test.prop([pairWorkArb])("is symmetric in the pair", (w) => {
    const xy = teamPairAgreement("x", "y", w, { rollouts });
    const yx = teamPairAgreement("y", "x", w, { rollouts });
    const same = (p: number, q: number) =>
      Number.isNaN(p) ? expect(q).toBeNaN() : expect(q).toBeCloseTo(p, 12);
    same(xy.labels.kappa, yx.labels.kappa);
    same(xy.hacks.kappa, yx.hacks.kappa);
    same(xy.tau.tau, yx.tau.tau);
    expect(yx.groups).toEqual(xy.groups);
    expect(yx.disagreements.map((d) => [d.kind, d.groupId, [...d.values].reverse()])).toEqual(
      xy.disagreements.map((d) => [d.kind, d.groupId, d.values]),
    );
  });

  test.prop([pairWorkArb])("identical submitted annotations agree fully", (w) => {
    const copy = w.filter((x) => x.user === "x").map((x) => ({ ...x, user: "y", submitted: true }));
    const mine = w.filter((x) => x.user === "x").map((x) => ({ ...x, submitted: true }));
    const r = teamPairAgreement("x", "y", [...mine, ...copy], { rollouts });
    expect(r.disagreements).toEqual([]);
    if (Number.isFinite(r.labels.kappa)) expect(r.labels.kappa).toBe(1);
    if (Number.isFinite(r.hacks.kappa)) expect(r.hacks.kappa).toBe(1);
    // A ranking that is one tie has no tau (NaN); any other is 1.
    for (const row of r.rankings) if (Number.isFinite(row.tau)) expect(row.tau).toBe(1);
  });

  test.prop([pairWorkArb])(
    "for two people, equals the two-file comparison of their submitted work",
    (w) => {
      const doc = (user: string) => ({
        ...ANNOTATIONS_EMPTY,
        groups: Object.fromEntries(
          w.filter((x) => x.user === user && x.submitted).map((x) => [x.groupId, x.annotation]),
        ),
      });
      const groups = [...rollouts].map(([id, r]) => ({
        id,
        rollouts: r.map((rid, index) => testRollout({ id: rid, groupId: id, index })),
      }));
      const files = annotationsAgreement(doc("x"), doc("y"), groups);
      const team2 = teamAgreement(w, { rollouts, annotators: ["x", "y"] });
      expect(team2.overall.labels).toEqual(files.labels);
      expect(team2.overall.hacks).toEqual(files.hacks);
      expect(team2.pairs[0]!.disagreements).toHaveLength(
        files.disagreements.filter((d) => d.kind !== "ranking").length +
          new Set(files.disagreements.filter((d) => d.kind === "ranking").map((d) => d.groupId))
            .size,
      );
    },
  );
});

/** Best-first tiers from an order and, after each item, whether a new tier starts. */
function tiersOf(order: readonly number[], cuts: readonly boolean[]): number[][] {
  const tiers: number[][] = [];
  order.forEach((item, i) => {
    if (i === 0 || cuts[i]) tiers.push([item]);
    else tiers.at(-1)!.push(item);
  });
  return tiers;
}
