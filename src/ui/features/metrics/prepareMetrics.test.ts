import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  GROUP_ANNOTATION_EMPTY,
  analysisAdvantages,
  analyzeGroup,
  annotationsResolve,
  metricFormulas,
  ngramCluster,
  ngramSimilarity,
  type AnalysisSettings,
  type GroupAnnotation,
  type Rollout,
  type RolloutGroup,
  ANNOTATIONS_EMPTY,
} from "../../../core/index.ts";
import { clusterColor } from "../../components/clusterColor.ts";
import {
  prepareAdvantageBars,
  prepareClusters,
  prepareFactorBars,
  prepareRewardBars,
  prepareWinRate,
  rolloutShortLabel,
} from "./prepareMetricsCharts.ts";
import { metricsNextSort, metricsSort, prepareMetricsTable } from "./prepareMetricsTable.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";

function rollout(
  i: number,
  reward: number | null,
  completion: string,
  rewards: Record<string, number | null> = {},
  meta: Record<string, unknown> = {},
): Rollout {
  return testRollout({
    id: `g/${i}`,
    index: i,
    completion,
    reward,
    rewards,
    meta,
    source: { file: "f", line: i + 1 },
  });
}

const group: RolloutGroup = {
  id: "g",
  rollouts: [
    rollout(
      0,
      1,
      "refund issued for order 17",
      { resolved: 1, policy: 1 },
      { trainerAdvantage: 0.5 },
    ),
    rollout(1, 0, "sorry, I cannot help with that", { resolved: 0, policy: null }),
    rollout(2, 1, "refund issued for order 17!", { resolved: 1, policy: 0 }),
    rollout(3, null, "", {}),
  ],
};

function analyse(
  annotation: GroupAnnotation = GROUP_ANNOTATION_EMPTY,
  settings: AnalysisSettings = ANALYSIS_DEFAULTS,
) {
  const resolved = annotationsResolve([group], {
    ...ANNOTATIONS_EMPTY,
    groups: { g: annotation },
  }).byGroup.get("g");
  return analyzeGroup(group, settings, analysisAdvantages([group], settings)[0]!, resolved);
}

const ranked: GroupAnnotation = {
  ...GROUP_ANNOTATION_EMPTY,
  ranking: [["g/2"], ["g/0"]],
};

describe("prepareMetricsTable", () => {
  const formulas = metricFormulas(ANALYSIS_DEFAULTS);
  it("shows the trainer's advantage only when logged, and says how each column is computed", () => {
    const table = prepareMetricsTable(analyse(), formulas, ANALYSIS_DEFAULTS, {
      column: "index",
      descending: false,
    });
    const ids = table.columns.map((c) => c.id);
    expect(ids).toContain("trainerAdvantage");
    expect(ids).toContain("hack");
    expect(ids).toContain("humanLabel");
    expect(ids).not.toContain("humanRank");
    expect(ids).not.toContain("selfConsistency");
    expect(table.columns.find((c) => c.id === "advantage")!.how).toBe(formulas.advantage);
    expect(table.rows.map((r) => r.cells.trainerAdvantage.text)).toEqual(["0.500", "–", "–", "–"]);
    expect(table.rows[3]!.cells.reward.text).toBe("–");
  });

  it("ranks by place, best = 1, in the rank and human rank columns (the human order once ranked)", () => {
    const plain = prepareMetricsTable(analyse(), formulas, ANALYSIS_DEFAULTS, {
      column: "index",
      descending: false,
    });
    // Rewards 1, 0, 1, none: the two passes share places 1 and 2, the unscorable is last.
    expect(plain.rows.map((r) => r.cells.rank.text)).toEqual([
      "1.5 of 4",
      "3 of 4",
      "1.5 of 4",
      "4 of 4",
    ]);
    const human = prepareMetricsTable(analyse(ranked), formulas, ANALYSIS_DEFAULTS, {
      column: "index",
      descending: false,
    });
    expect(human.rows.map((r) => r.cells.rank.text)).toEqual([
      "2 of 4",
      "3 of 4",
      "1 of 4",
      "4 of 4",
    ]);
    expect(human.rows.map((r) => r.cells.humanRank.text)).toEqual(["2", "", "1", ""]);
    expect(human.columns.find((c) => c.id === "rank")!.how).toContain(
      "Here: by the human ranking.",
    );
    const best = metricsSort(human.rows, { column: "humanRank", descending: true });
    expect(best[0]!.id).toBe("g/2");
  });

  it("sorts with absent values last in both directions, ties by group order", () => {
    const rows = prepareMetricsTable(analyse(), formulas, ANALYSIS_DEFAULTS, {
      column: "reward",
      descending: true,
    }).rows;
    expect(rows.map((r) => r.id)).toEqual(["g/0", "g/2", "g/1", "g/3"]);
    const up = metricsSort(rows, { column: "reward", descending: false });
    expect(up.map((r) => r.id)).toEqual(["g/1", "g/0", "g/2", "g/3"]);
    expect(metricsSort(up, { column: "index", descending: false }).map((r) => r.index)).toEqual([
      0, 1, 2, 3,
    ]);
  });

  it("cycles a header through ascending, descending and group order", () => {
    let s = metricsNextSort({ column: "index", descending: false }, "rank");
    expect(s).toEqual({ column: "rank", descending: false });
    s = metricsNextSort(s, "rank");
    expect(s).toEqual({ column: "rank", descending: true });
    expect(metricsNextSort(s, "rank")).toEqual({ column: "index", descending: false });
  });

  it("changes the advantage column when the scale setting changes", () => {
    const none = { ...ANALYSIS_DEFAULTS, scale: "none" as const };
    const a = prepareMetricsTable(analyse(), formulas, ANALYSIS_DEFAULTS, {
      column: "index",
      descending: false,
    });
    const b = prepareMetricsTable(
      analyse(GROUP_ANNOTATION_EMPTY, none),
      metricFormulas(none),
      none,
      {
        column: "index",
        descending: false,
      },
    );
    expect(b.rows[0]!.cells.advantage.text).not.toBe(a.rows[0]!.cells.advantage.text);
    expect(b.columns.find((c) => c.id === "advantage")!.how).toContain("scale none");
  });
});

describe("advantage and factor charts", () => {
  const formulas = metricFormulas(ANALYSIS_DEFAULTS);
  it("without a ranking: GRPO only, and a note that GAR needs a ranking", () => {
    const bars = prepareAdvantageBars(analyse(), formulas);
    expect(bars.hasGar).toBe(false);
    expect(bars.note).toMatch(/GAR needs a ranking/);
    expect(bars.legend.map((l) => l.label)).toEqual(["GRPO (before)"]);
    const factors = prepareFactorBars(analyse(), formulas);
    expect(factors.any).toBe(false);
    expect(factors.note).toMatch(/ranking/);
  });

  it("with a ranking: GAR values and factors (1 best, minFactor worst)", () => {
    const a = analyse(ranked);
    const bars = prepareAdvantageBars(a, formulas);
    expect(bars.hasGar).toBe(true);
    expect(bars.note).toBeNull();
    expect(bars.rows.map((r) => r.gar === null)).toEqual([false, false, false, false]);
    const factors = prepareFactorBars(a, formulas);
    expect(factors.rows.map((r) => r.factor)).toEqual([0.5, null, 1, null]);
  });

  it("names the passes an incomplete ranking leaves out", () => {
    const bars = prepareAdvantageBars(
      analyse({ ...GROUP_ANNOTATION_EMPTY, ranking: [["g/2"]] }),
      formulas,
    );
    expect(bars.note).toContain("g/0");
  });
});

describe("prepareRewardBars", () => {
  it("stacks weighted components, leaves null ones out, and keeps R apart", () => {
    const settings = { ...ANALYSIS_DEFAULTS, rewardWeights: { resolved: 2 } };
    const bars = prepareRewardBars(
      group,
      analyse(GROUP_ANNOTATION_EMPTY, settings),
      settings,
      metricFormulas(settings),
    );
    expect(bars.components.map((c) => c.name)).toEqual(["resolved", "policy"]);
    expect(bars.rows[0]).toMatchObject({ label: "0", id: "g/0", c0: 2, c1: 1, total: 3 });
    expect(bars.rows[1]).toMatchObject({ c0: 0, c1: null });
    expect(bars.rows[3]).toMatchObject({ c0: null, c1: null, total: null });
    expect(bars.how).toContain("resolved x 2, policy x 1");
  });
});

describe("prepareWinRate", () => {
  it("from rewards: a 1 where the row's reward is higher, ties under the tie credit, gaps on the diagonal", () => {
    const settings = { ...ANALYSIS_DEFAULTS, tieCredit: 0.5 as const };
    const view = prepareWinRate(group, analyse(), GROUP_ANNOTATION_EMPTY, settings, "reward");
    const v = view.model.values;
    expect(Number.isNaN(v[0]!)).toBe(true);
    expect(v[0 * 4 + 1]).toBe(1);
    expect(v[0 * 4 + 2]).toBe(0.5);
    expect(v[3 * 4 + 1]).toBe(0);
    expect(view.rankingAvailable).toBe(false);
    expect(view.how).toContain("a tie 0.5");
  });

  it("from the ranking when one exists", () => {
    const view = prepareWinRate(group, analyse(ranked), ranked, ANALYSIS_DEFAULTS, "ranking");
    expect(view.rankingAvailable).toBe(true);
    expect(view.model.values[2 * 4 + 0]).toBe(1);
    expect(view.model.values[0 * 4 + 2]).toBe(0);
    expect(view.summary).toContain("human ranking");
  });
});

describe("prepareClusters", () => {
  it("lists every rollout once, in cluster order, with a text sample and cluster colours", () => {
    const texts = group.rollouts.map((r) => r.completion ?? "");
    const clusters = {
      ...ngramCluster(texts, { n: 3, threshold: 0.5 }),
      similarity: ngramSimilarity(texts, 3),
    };
    const view = prepareClusters(
      group,
      clusters,
      ANALYSIS_DEFAULTS,
      metricFormulas(ANALYSIS_DEFAULTS),
    );
    const members = view.clusters.flatMap((c) => c.members.map((m) => m.id));
    expect([...members].sort()).toEqual(group.rollouts.map((r) => r.id));
    expect(view.clusters[0]!.members.map((m) => m.id)).toEqual(["g/0", "g/2"]);
    expect(view.clusters[0]!.sample).toBe("refund issued for order 17");
    expect(view.heatmap.labels).toEqual(["0", "2", "1", "3"]);
    expect(view.heatmap.labelColors![1]).toBe(clusterColor(0));
    // Reordered: (row "2", column "0") is the similarity of rollouts 2 and 0.
    expect(view.heatmap.values[1 * 4 + 0]).toBe(clusters.similarity[2 * 4 + 0]);
  });

  it("shortens ids that carry the group prefix", () => {
    expect(rolloutShortLabel("g/7", "g")).toBe("7");
    expect(rolloutShortLabel("other", "g")).toBe("other");
    expect(rolloutShortLabel("g/", "g")).toBe("g/");
  });
});
