import { describe, expect, it } from "vitest";
import {
  GROUP_ANNOTATION_EMPTY,
  teamAgreement,
  type GroupAnnotation,
  type HumanLabel,
  type TeamWork,
} from "../../../core/index.ts";
import {
  agreementRows,
  disagreementGroups,
  disagreementText,
  fullNumber,
  kappaFigure,
  meanOfPairsText,
  tauFigure,
} from "./leadAgreementModel.ts";

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

const rollouts = new Map(["g1", "g2"].map((g) => [g, [0, 1, 2, 3].map((i) => `${g}/${i}`)]));
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
  work("ann", "g2", { labels: { 0: "pass", 1: "pass" }, ranking: [[0], [1]] }),
  work("bob", "g2", { labels: { 0: "pass", 1: "fail" }, hacks: [1], ranking: [[0], [1]] }),
  work("cy", "g2", { labels: { 0: "pass" } }, false),
];

describe("agreementRows", () => {
  const agreement = teamAgreement(team, { rollouts });
  const { overall, pairs } = agreementRows(agreement);

  it("shows core's figures, whole in the values and to three decimals in the text", () => {
    const ab = agreement.pairs[0]!;
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({ first: "ann", second: "bob", groups: 2 });
    expect(pairs[0]!.labels.value).toBe(ab.labels.kappa);
    expect(pairs[0]!.labels.text).toBe(ab.labels.kappa.toFixed(3));
    expect(pairs[0]!.hacks.value).toBe(ab.hacks.kappa);
    expect(pairs[0]!.tau.value).toBe(ab.tau.tau);
    expect(overall.labels.value).toBe(agreement.overall.labels.kappa);
    expect(overall.tau.value).toBe(agreement.overall.tau.tau);
    expect(overall).toMatchObject({ first: null, label: "Pooled", groups: 2 });
    expect(Number(fullNumber(ab.hacks.kappa))).toBe(ab.hacks.kappa);
  });

  it("flags few items, and says n", () => {
    expect(pairs[0]!.labels.n).toBe(6);
    expect(pairs[0]!.labels.caution).toBe(true);
    expect(pairs[0]!.labels.detail).toMatch(/^n = 6, too few to lean on; observed 67%$/);
  });

  it("the mean of the pairs needs two pairs", () => {
    expect(meanOfPairsText(agreement)).toBeNull();
    const three = teamAgreement([...team, work("cy", "g1", { labels: { 0: "pass" } })], {
      rollouts,
    });
    expect(meanOfPairsText(three)).toMatch(/^Mean of the pairs: labels κ /);
  });
});

describe("figures that cannot be read", () => {
  it("kappa with nothing in common, or with every judgement the same", () => {
    expect(kappaFigure({ n: 0, observed: NaN, kappa: NaN })).toMatchObject({
      text: "–",
      caution: true,
      detail: "nothing both judged yet",
    });
    const same = kappaFigure({ n: 12, observed: 1, kappa: NaN });
    expect(same).toMatchObject({ text: "undefined", n: 12, caution: true });
    expect(same.detail).toMatch(/all judged alike/);
    expect(Number(fullNumber(same.value))).toBeNaN();
    expect(kappaFigure({ n: 12, observed: 0.75, kappa: 0.5 })).toMatchObject({
      text: "0.500",
      caution: false,
      detail: "n = 12; observed 75%",
    });
  });

  it("tau with no group ranked by both, or only undefined ones", () => {
    const none = { tau: NaN, rho: NaN, groups: 0, pairs: 0, undefinedGroups: 0 };
    expect(tauFigure(none)).toMatchObject({ text: "–", detail: "no group ranked by both yet" });
    expect(tauFigure({ ...none, undefinedGroups: 2 })).toMatchObject({ text: "undefined" });
    expect(tauFigure({ tau: 0.2, rho: 0.3, groups: 3, pairs: 12, undefinedGroups: 1 })).toEqual({
      text: "0.200",
      value: 0.2,
      n: 3,
      detail: "3 groups, 12 rollout pairs; 1 undefined (ties, or < 2 in common)",
      caution: false,
    });
  });
});

describe("disagreements", () => {
  it("are gathered per group and pair, in core's order, each said in words", () => {
    const agreement = teamAgreement(team, { rollouts });
    const groups = disagreementGroups(agreement.disagreements);
    expect(groups.map((g) => [g.groupId, g.first, g.second, g.items.map((d) => d.kind)])).toEqual([
      ["g1", "ann", "bob", ["ranking", "label", "hack"]],
      ["g2", "ann", "bob", ["label", "hack"]],
    ]);
    expect(groups[0]!.items.map(disagreementText)).toEqual([
      // Only 0 and 2 swap; 1 and 3 tie on both sides: 4 concordant, 1 discordant, tau-b 3/5.
      "ranking: 1 pair ordered differently (τ 0.600)",
      "g1/1: fail vs pass",
      "g1/3: hack vs not a hack",
    ]);
  });
});
