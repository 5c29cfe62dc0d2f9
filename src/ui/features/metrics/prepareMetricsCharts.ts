/**
 * View models of the metrics panel's charts, from one group's analysis: advantages before and
 * after redistribution, rewards (components stacked), GAR factors, the win-rate matrix and the
 * clusters. Every model carries the text that says how its numbers were computed.
 */
import {
  rolloutText,
  winRateCycles,
  winRateMatrix,
  winRatePairsFromScores,
  winRatePairsFromTiers,
  type AnalysisSettings,
  type GroupAnalysis,
  type GroupAnnotation,
  type MetricFormulas,
  type RolloutGroup,
} from "../../../core/index.ts";
import type { LegendEntry } from "../../components/chartExport.ts";
import { clusterColor } from "../../components/clusterColor.ts";
import type { HeatmapModel } from "../../components/heatmap.ts";

/** A rollout's label on an axis: its id without the `<group id>/` prefix most ids carry. */
export function rolloutShortLabel(id: string, groupId: string): string {
  const prefix = `${groupId}/`;
  return id.startsWith(prefix) && id.length > prefix.length ? id.slice(prefix.length) : id;
}

export const SERIES_COLORS = {
  grpo: "#0072b2",
  gar: "#e69f00",
  reward: "#1c2430",
  factor: "#009e73",
} as const;

/** Colours of reward components, apart from the cluster colours' first hues. */
const COMPONENT_COLORS = ["#56b4e9", "#cc79a7", "#009e73", "#f0e442", "#d55e00", "#999999"];

/** Why a group has no GAR values, or null when it has them. */
export function garNote(analysis: GroupAnalysis): string | null {
  const gar = analysis.gar;
  if (gar.kind === "none")
    return "GAR needs a ranking of the passes (or a hack mark) in this group's annotations; until then only the GRPO advantage exists.";
  if (gar.kind === "incomplete")
    return `The ranking leaves out passes that still count (${gar.unranked.join(", ")}): no GAR values for this group.`;
  if (gar.outcome.status === "unmixed")
    return "After hack zeroing the group is all-pass or all-fail: nothing is redistributed, GAR equals the effective rewards.";
  if (gar.outcome.status === "fallback")
    return `GAR fell back to the original rewards${gar.outcome.error === null ? "" : `: ${gar.outcome.error}`}.`;
  if (analysis.garSource === "judge" || analysis.garSource === "heuristic")
    return `No person ranked this group: GAR comes from the ${analysis.garSource === "judge" ? "LLM judge's" : "heuristic grader's"} latest ranking (source: ${analysis.garSource}).`;
  return null;
}

export interface AdvantageBars {
  readonly rows: readonly { label: string; id: string; grpo: number; gar: number | null }[];
  readonly hasGar: boolean;
  readonly legend: readonly LegendEntry[];
  readonly how: string;
  readonly note: string | null;
}

export function prepareAdvantageBars(
  analysis: GroupAnalysis,
  formulas: MetricFormulas,
): AdvantageBars {
  const hasGar = analysis.rollouts.some((r) => r.garAdvantage !== null);
  const legend: LegendEntry[] = [{ label: "GRPO (before)", color: SERIES_COLORS.grpo }];
  if (hasGar) legend.push({ label: "GAR (after)", color: SERIES_COLORS.gar });
  return {
    rows: analysis.rollouts.map((r) => ({
      label: rolloutShortLabel(r.id, analysis.id),
      id: r.id,
      grpo: r.advantage,
      gar: r.garAdvantage,
    })),
    hasGar,
    legend,
    how: `Before: ${formulas.advantage}. After: ${formulas.gar}.`,
    note: garNote(analysis),
  };
}

export interface RewardBars {
  /** Per rollout: `total` (R, null when unscorable) and `c0`, `c1`, … (weighted components). */
  readonly rows: readonly Record<string, string | number | null>[];
  readonly components: readonly { key: string; name: string; color: string }[];
  readonly legend: readonly LegendEntry[];
  readonly how: string;
}

/**
 * Rewards per rollout. With reward components, each bar stacks the components times the weight in
 * force (missing weights 1; a null component is absent, not zero) and a dot marks R, which is the
 * logged reward unless weights are set, so the stack and the dot may differ.
 */
export function prepareRewardBars(
  group: RolloutGroup,
  analysis: GroupAnalysis,
  settings: AnalysisSettings,
  formulas: MetricFormulas,
): RewardBars {
  const names: string[] = [];
  for (const r of group.rollouts)
    for (const k of Object.keys(r.rewards)) if (!names.includes(k)) names.push(k);
  const components = names.map((name, i) => ({
    key: `c${i}`,
    name,
    color: COMPONENT_COLORS[i % COMPONENT_COLORS.length]!,
  }));
  const weight = (name: string): number => settings.rewardWeights?.[name] ?? 1;
  const rows = analysis.rollouts.map((a, i) => {
    const row: Record<string, string | number | null> = {
      label: rolloutShortLabel(a.id, analysis.id),
      id: a.id,
      total: Number.isFinite(a.reward) ? a.reward : null,
    };
    const rewards = group.rollouts[i]?.rewards ?? {};
    components.forEach((c) => {
      const v = rewards[c.name];
      row[c.key] = typeof v === "number" && Number.isFinite(v) ? v * weight(c.name) : null;
    });
    return row;
  });
  const weights =
    settings.rewardWeights === null
      ? "weight 1 each (no weights set)"
      : `weights ${names.map((n) => `${n} x ${weight(n)}`).join(", ")}`;
  return {
    rows,
    components,
    legend: [
      ...components.map((c) => ({ label: c.name, color: c.color })),
      { label: components.length > 0 ? "R (dot)" : "R", color: SERIES_COLORS.reward },
    ],
    how:
      components.length > 0
        ? `Bars: each reward component times its weight, stacked (${weights}; a missing component is left out, not zero). Dot: ${formulas.reward}.`
        : formulas.reward,
  };
}

export interface FactorBars {
  readonly rows: readonly { label: string; id: string; factor: number | null }[];
  readonly any: boolean;
  readonly how: string;
  readonly note: string | null;
}

export function prepareFactorBars(analysis: GroupAnalysis, formulas: MetricFormulas): FactorBars {
  const any = analysis.rollouts.some((r) => r.factor !== null);
  return {
    rows: analysis.rollouts.map((r) => ({
      label: rolloutShortLabel(r.id, analysis.id),
      id: r.id,
      factor: r.factor,
    })),
    any,
    how: `${formulas.factor}. Failures, hacks and unranked rollouts have no factor.`,
    note: any
      ? null
      : (garNote(analysis) ??
        "No pass has a factor: every pass was zeroed as a hack or the group has none."),
  };
}

export type WinRateSource = "reward" | "ranking";

export interface WinRateView {
  readonly model: HeatmapModel;
  readonly summary: string;
  readonly how: string;
  /** Intransitive triples, as rollout ids. */
  readonly cycles: readonly (readonly [string, string, string])[];
  /** True when the group's annotation ranks some rollouts, so the ranking view exists. */
  readonly rankingAvailable: boolean;
}

/** Tiers of indices from a ranking of ids; ids not in the group are left out. */
export function rankingTiers(group: RolloutGroup, annotation: GroupAnnotation): number[][] {
  const index = new Map(group.rollouts.map((r, i) => [r.id, i]));
  const seen = new Set<number>();
  return annotation.ranking
    .map((tier) =>
      tier.flatMap((id) => {
        const i = index.get(id);
        if (i === undefined || seen.has(i)) return [];
        seen.add(i);
        return [i];
      }),
    )
    .filter((tier) => tier.length > 0);
}

/**
 * The k x k win-rate matrix: from the rewards (the higher reward wins, equal rewards tie) or from
 * the human ranking (the better tier wins, a tier ties, unranked pairs have no verdict), under the
 * tie-credit setting. The diagonal and never-compared pairs are gaps.
 */
export function prepareWinRate(
  group: RolloutGroup,
  analysis: GroupAnalysis,
  annotation: GroupAnnotation,
  settings: AnalysisSettings,
  source: WinRateSource,
): WinRateView {
  const n = analysis.rollouts.length;
  const tiers = rankingTiers(group, annotation);
  const rankingAvailable = tiers.length > 0;
  const useRanking = source === "ranking" && rankingAvailable;
  const pairs = useRanking
    ? winRatePairsFromTiers(tiers, n)
    : winRatePairsFromScores(analysis.rollouts.map((r) => r.reward));
  const matrix = winRateMatrix(n, pairs, settings.tieCredit);
  const values = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) values[i * n + j] = matrix[i]![j]!;
  const ids = analysis.rollouts.map((r) => r.id);
  const cycles = winRateCycles(matrix).map(([a, b, c]) => [ids[a]!, ids[b]!, ids[c]!] as const);
  const basis = useRanking
    ? "the human ranking (the better tier wins, the same tier ties; an unranked rollout's games have no verdict and count as ties)"
    : "the rewards R (the higher reward wins, equal rewards tie; an unscorable reward loses to any number)";
  const how = `Cell (row, column): the row's share of the points against the column, from ${basis}; a win counts 1, a tie ${settings.tieCredit}. A row's mean over the other rollouts is its win-rate. ${
    useRanking
      ? `${cycles.length} intransitive triple${cycles.length === 1 ? "" : "s"}.`
      : "Reward-decided games are transitive."
  }`;
  return {
    model: {
      labels: analysis.rollouts.map((r) => rolloutShortLabel(r.id, analysis.id)),
      labelColors: null,
      values,
      scheme: "diverging",
      valueName: `row's share of points against the column, tie = ${settings.tieCredit}`,
      missing: "no game",
    },
    summary: `Win-rate matrix of ${n} rollouts of group ${analysis.id}, from ${useRanking ? "the human ranking" : "the rewards"}, tie credit ${settings.tieCredit}.`,
    how,
    cycles,
    rankingAvailable,
  };
}

export interface ClusterOutputLike {
  readonly clusterIndex: readonly number[];
  readonly divisors: readonly number[];
  readonly nClusters: number;
  /** k x k Jaccard similarity, row-major. */
  readonly similarity: ArrayLike<number>;
}

export interface ClusterGroupView {
  readonly cluster: number;
  readonly color: string;
  readonly members: readonly { id: string; label: string; index: number }[];
  /** The first member's compared text, cut to {@link CLUSTER_SAMPLE_CHARS} characters. */
  readonly sample: string;
  readonly sampleCut: boolean;
}

export interface ClustersView {
  readonly clusters: readonly ClusterGroupView[];
  /** Similarity in cluster order (members of a cluster side by side). */
  readonly heatmap: HeatmapModel;
  readonly summary: string;
  readonly how: string;
}

export const CLUSTER_SAMPLE_CHARS = 240;

/** Clusters and the similarity matrix ordered by cluster, then by position in the group. */
export function prepareClusters(
  group: RolloutGroup,
  clusters: ClusterOutputLike,
  settings: AnalysisSettings,
  formulas: MetricFormulas,
): ClustersView {
  const n = group.rollouts.length;
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => clusters.clusterIndex[a]! - clusters.clusterIndex[b]! || a - b,
  );
  const byCluster = new Map<number, number[]>();
  for (const i of order) {
    const c = clusters.clusterIndex[i]!;
    const list = byCluster.get(c) ?? [];
    list.push(i);
    byCluster.set(c, list);
  }
  const views: ClusterGroupView[] = [...byCluster].map(([cluster, members]) => {
    const first = group.rollouts[members[0]!]!;
    // A sample of a few hundred characters: whitespace is collapsed in a slice of the text, never
    // over the whole (a 50 MB completion took a second here).
    const whole = rolloutText(first, settings.completionRule);
    const text = whole
      .slice(0, CLUSTER_SAMPLE_CHARS * 8)
      .replace(/\s+/g, " ")
      .trim();
    return {
      cluster,
      color: clusterColor(cluster),
      members: members.map((i) => ({
        id: group.rollouts[i]!.id,
        label: rolloutShortLabel(group.rollouts[i]!.id, group.id),
        index: i,
      })),
      sample: text.slice(0, CLUSTER_SAMPLE_CHARS),
      sampleCut: text.length > CLUSTER_SAMPLE_CHARS || whole.length > CLUSTER_SAMPLE_CHARS * 8,
    };
  });
  const values = new Float64Array(n * n);
  order.forEach((i, r) =>
    order.forEach((j, c) => {
      values[r * n + c] = clusters.similarity[i * n + j] ?? NaN;
    }),
  );
  return {
    clusters: views,
    heatmap: {
      labels: order.map((i) => rolloutShortLabel(group.rollouts[i]!.id, group.id)),
      labelColors: order.map((i) => clusterColor(clusters.clusterIndex[i]!)),
      values,
      scheme: "sequential",
      valueName: `Jaccard similarity of character ${settings.ngram}-grams`,
      missing: "no value",
    },
    summary: `Similarity of ${n} rollouts of group ${group.id} in ${clusters.nClusters} cluster${clusters.nClusters === 1 ? "" : "s"}, ordered by cluster.`,
    how: `${formulas.cluster}. Rows and columns ordered by cluster; labels in cluster colours.`,
  };
}
