/**
 * View models of the dataset overview, one per chart, each with the text that says how its numbers
 * were computed under the settings. They take plain inputs (per-group rewards, parsed groups,
 * annotations) so each chart recomputes only when its own inputs change; all are linear in the
 * number of rollouts, for 100k groups.
 */
import {
  analyzeGroup,
  annotationsResolve,
  clusterComponents,
  groupFlags,
  overviewCounts,
  overviewHistogram,
  overviewLinearFit,
  overviewSampleIndices,
  passHatK,
  rolloutReward,
  rolloutText,
  spreadCheck,
  type AnalysisSettings,
  type Annotations,
  type RolloutGroup,
  type SpreadReport,
} from "../../../core/index.ts";

export const OVERVIEW_COLORS = {
  pass: "#0072b2",
  fail: "#d55e00",
  straddle: "#999999",
  neutral: "#56b4e9",
  zeroStd: "#999999",
  unscored: "#c8c8c8",
  mixed: "#009e73",
  oneSided: "#e69f00",
  factor: "#009e73",
  fit: "#d55e00",
} as const;

/** At most this many points are drawn in the length-vs-reward scatter. */
export const MAX_SCATTER_POINTS = 5000;
/** At most this many rollouts' texts are read for the length-vs-reward fit. */
export const MAX_FIT_ROLLOUTS = 50_000;

export interface GroupRewards {
  /** Per group, per rollout: the reward R under the settings, NaN when it has none. */
  readonly rewards: readonly (readonly number[])[];
  /** Where the rewards come from, for the charts' explanations. */
  readonly source: string;
}

/**
 * Every group's rewards. A whole-file load recomputes them under the reward weights (as every
 * other view does); an indexed file has only the logged reward of groups not parsed yet.
 */
export function overviewGroupRewards(
  summaries: readonly { readonly rewards: readonly number[] }[],
  groups: readonly RolloutGroup[],
  indexed: boolean,
  weights: AnalysisSettings["rewardWeights"],
): GroupRewards {
  if (indexed || weights === null)
    return {
      rewards: summaries.map((s) => s.rewards),
      source:
        indexed && weights !== null
          ? "the logged reward (an indexed file: reward weights apply to a group once it is parsed)"
          : "the logged reward (or the plain sum of its components)",
    };
  return {
    rewards: groups.map((g) => g.rollouts.map((r) => rolloutReward(r, weights))),
    source: `the weighted sum of the components (${Object.entries(weights)
      .map(([k, w]) => `${k} x ${w}`)
      .join(", ")}; missing weights 1)`,
  };
}

export interface HistogramRow {
  readonly label: string;
  readonly x0: number;
  readonly x1: number;
  readonly count: number;
  /** Pass colour when the whole bin is at or above the threshold, fail colour below it. */
  readonly fill: string;
}

export interface RewardOverview {
  readonly rows: readonly HistogramRow[];
  readonly rollouts: number;
  readonly scored: number;
  readonly unscorable: number;
  readonly passes: number;
  /** passes / scored rollouts; NaN with none. */
  readonly passRate: number;
  readonly how: string;
  readonly passHow: string;
}

function binLabel(x0: number, x1: number): string {
  // Widths like 0.1 arrive as 0.0999…: compare with a little slack.
  const width = Math.abs(x1 - x0) * (1 + 1e-9);
  const digits = width >= 1 ? 1 : width >= 0.1 ? 2 : 3;
  return x0 === x1 ? x0.toFixed(digits) : `${x0.toFixed(digits)}–${x1.toFixed(digits)}`;
}

/** Up to this many distinct rewards get one bar each (binary and graded rewards); more are binned. */
export const DISTINCT_REWARD_BARS = 12;

/**
 * The reward histogram and the pass rate. Rewards with at most {@link DISTINCT_REWARD_BARS}
 * distinct values (0/1, a 1-5 grade) get one bar per value; others get `bins` equal-width bins.
 */
export function prepareRewardOverview(
  input: GroupRewards,
  passThreshold: number,
  bins = 20,
): RewardOverview {
  const all = input.rewards.flat();
  let passes = 0;
  const finite: number[] = [];
  for (const r of all) {
    if (!Number.isFinite(r)) continue;
    finite.push(r);
    if (r >= passThreshold) passes += 1;
  }
  const distinct = overviewCounts(finite);
  const colour = (x0: number, x1: number): string =>
    x0 >= passThreshold
      ? OVERVIEW_COLORS.pass
      : x1 < passThreshold
        ? OVERVIEW_COLORS.fail
        : OVERVIEW_COLORS.straddle;
  let rows: HistogramRow[];
  let binning: string;
  if (distinct.length <= DISTINCT_REWARD_BARS) {
    rows = distinct.map((d) => ({
      label: String(Number(d.value.toFixed(4))),
      x0: d.value,
      x1: d.value,
      count: d.count,
      fill: colour(d.value, d.value),
    }));
    binning = `one bar per distinct value of R (${distinct.length})`;
  } else {
    const h = overviewHistogram(finite, { bins });
    rows = h.bins.map((b) => ({
      label: binLabel(b.x0, b.x1),
      x0: b.x0,
      x1: b.x1,
      count: b.count,
      fill: colour(b.x0, b.x1),
    }));
    binning = `${h.bins.length} equal-width bins over the min to max of R`;
  }
  const unscorable = all.length - finite.length;
  return {
    rows,
    rollouts: all.length,
    scored: finite.length,
    unscorable,
    passes,
    passRate: finite.length === 0 ? NaN : passes / finite.length,
    how: `Rollouts per reward: ${binning}; R is ${input.source}. Blue passes (R >= ${passThreshold}), orange fails, grey straddles the threshold. ${unscorable} rollout${unscorable === 1 ? "" : "s"} without a reward left out.`,
    passHow: `Rollouts with R >= ${passThreshold} / rollouts with a reward; R is ${input.source}.`,
  };
}

export interface PassKOverview {
  readonly rows: readonly { k: number; passK: number; groups: number }[];
  readonly how: string;
}

/** pass^k for k = 1..largest group (tau-bench): mean over groups with >= k rollouts of C(c,k)/C(n,k). */
export function preparePassK(input: GroupRewards, passThreshold: number): PassKOverview {
  const tasks = input.rewards.map((rs) => ({
    n: rs.length,
    c: rs.filter((r) => r >= passThreshold).length,
  }));
  const maxK = tasks.reduce((m, t) => Math.max(m, t.n), 0);
  const sizes = overviewCounts(tasks.map((t) => t.n));
  const rows: { k: number; passK: number; groups: number }[] = [];
  for (let k = 1; k <= maxK; k++) {
    const groups = sizes.filter((s) => s.value >= k).reduce((s, x) => s + x.count, 0);
    rows.push({ k, passK: passHatK(tasks, k), groups });
  }
  return {
    rows,
    how: `pass^k (tau-bench): the mean over groups with at least k rollouts of C(c, k) / C(n, k), c = rollouts with R >= ${passThreshold} out of n; the chance that k rollouts drawn without replacement all pass. Rollouts without a reward count as failures.`,
  };
}

export interface GroupKindsOverview {
  readonly rows: readonly { kind: string; count: number; share: number; fill: string }[];
  readonly groups: number;
  readonly zeroStd: number;
  readonly mixed: number;
  readonly how: string;
}

/**
 * Groups by what GRPO learns from them: zero std (every reward equal: all advantages 0), mixed
 * (passes and failures), or one-sided with varied rewards. The three are disjoint.
 */
export function prepareGroupKinds(input: GroupRewards, passThreshold: number): GroupKindsOverview {
  let zeroStd = 0;
  let unscored = 0;
  let mixed = 0;
  let mixedNonZero = 0;
  for (const rs of input.rewards) {
    const flags = groupFlags(
      rs,
      rs.map((r) => r >= passThreshold),
    );
    if (flags.zeroStd) zeroStd += 1;
    if (flags.unscored) unscored += 1;
    if (flags.mixed) mixed += 1;
    if (flags.mixed && !flags.zeroStd) mixedNonZero += 1;
  }
  const groups = input.rewards.length;
  const share = (c: number): number => (groups === 0 ? NaN : c / groups);
  const oneSided = groups - zeroStd - unscored - mixedNonZero;
  return {
    rows: [
      { kind: "zero std", count: zeroStd, share: share(zeroStd), fill: OVERVIEW_COLORS.zeroStd },
      {
        kind: "mixed",
        count: mixedNonZero,
        share: share(mixedNonZero),
        fill: OVERVIEW_COLORS.mixed,
      },
      {
        kind: "one-sided, varied",
        count: oneSided,
        share: share(oneSided),
        fill: OVERVIEW_COLORS.oneSided,
      },
      // Only when some group has no reward at all (agent trajectories no report scored).
      ...(unscored === 0
        ? []
        : [
            {
              kind: "unscored",
              count: unscored,
              share: share(unscored),
              fill: OVERVIEW_COLORS.unscored,
            },
          ]),
    ],
    groups,
    zeroStd,
    mixed,
    how: `Zero std: every finite reward in the group equal (population std <= 1e-8), so every GRPO advantage is 0 and the group teaches nothing. Mixed: passes (R >= ${passThreshold}) and failures, the groups GRPO and GAR learn from. One-sided, varied: all pass or all fail with different rewards. ${unscored === 0 ? "" : " Unscored: no rollout of the group has a reward."} Each group counted once, zero std first.`,
  };
}

export interface GroupSizesOverview {
  readonly rows: readonly { size: string; count: number }[];
  readonly how: string;
}

export function prepareGroupSizes(input: GroupRewards): GroupSizesOverview {
  return {
    rows: overviewCounts(input.rewards.map((rs) => rs.length)).map((c) => ({
      size: String(c.value),
      count: c.count,
    })),
    how: "Groups per number of rollouts in the group (every rollout, with or without a reward).",
  };
}

export interface LengthRewardOverview {
  readonly points: readonly { length: number; reward: number }[];
  /** Pairs with a finite reward, all of them used for the fit. */
  readonly total: number;
  readonly fit: { r: number; slope: number; intercept: number; n: number };
  readonly line: readonly [{ x: number; y: number }, { x: number; y: number }] | null;
  readonly how: string;
  /** What the chart does not show: a subsample, or groups without texts. */
  readonly caveats: readonly string[];
}

const RULES: Record<AnalysisSettings["completionRule"], string> = {
  "final-assistant": "the final assistant message",
  benchmax: "the last message if it is an assistant's (benchmax)",
  "all-assistant": "all assistant text",
};

/**
 * Text length against reward, with the least-squares line and Pearson's r. Reading a text costs
 * more than a reward, so at most `maxFit` rollouts (evenly spaced in file order) are read for the
 * fit, and at most `maxPoints` of those are drawn; the caveats say when either cap applies.
 */
export function prepareLengthReward(
  groups: readonly RolloutGroup[],
  totalGroups: number,
  indexed: boolean,
  settings: Pick<AnalysisSettings, "completionRule" | "rewardWeights">,
  maxPoints = MAX_SCATTER_POINTS,
  maxFit = MAX_FIT_ROLLOUTS,
): LengthRewardOverview {
  let rollouts = 0;
  for (const g of groups) rollouts += g.rollouts.length;
  const pick = overviewSampleIndices(rollouts, maxFit);
  const lengths: number[] = [];
  const rewards: number[] = [];
  let index = 0;
  let next = 0;
  for (const g of groups)
    for (const r of g.rollouts) {
      if (pick[next] === index) {
        next += 1;
        const reward = rolloutReward(r, settings.rewardWeights);
        if (Number.isFinite(reward)) {
          lengths.push(rolloutText(r, settings.completionRule).length);
          rewards.push(reward);
        }
      }
      index += 1;
    }
  const fit = overviewLinearFit(lengths, rewards);
  const sample = overviewSampleIndices(lengths.length, maxPoints);
  const points = sample.map((i) => ({ length: lengths[i]!, reward: rewards[i]! }));
  let minX = Infinity;
  let maxX = -Infinity;
  for (const x of lengths) {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
  }
  const line =
    Number.isFinite(fit.slope) && maxX > minX
      ? ([
          { x: minX, y: fit.intercept + fit.slope * minX },
          { x: maxX, y: fit.intercept + fit.slope * maxX },
        ] as const)
      : null;
  const caveats: string[] = [];
  const count = (x: number): string => x.toLocaleString("en");
  if (pick.length < rollouts)
    caveats.push(
      `The line and r use ${count(pick.length)} of ${count(rollouts)} rollouts (evenly spaced in file order).`,
    );
  if (points.length < lengths.length)
    caveats.push(
      `${count(points.length)} of ${count(lengths.length)} points shown (evenly spaced in file order); the line and r use all ${count(lengths.length)}.`,
    );
  if (indexed)
    caveats.push(
      `Indexed file: only the ${count(groups.length)} parsed of ${count(totalGroups)} groups have texts, so only they are shown.`,
    );
  const r = Number.isFinite(fit.r) ? fit.r.toFixed(3) : "undefined (no variance)";
  return {
    points,
    total: lengths.length,
    fit,
    line,
    how: `Characters of ${RULES[settings.completionRule]} against R, for rollouts with a reward. Line: least squares; Pearson r = ${r} over ${count(fit.n)} rollouts. A positive r means longer answers score higher (length bias).`,
    caveats,
  };
}

export interface FactorSpreadOverview {
  readonly rows: readonly HistogramRow[];
  readonly report: SpreadReport | null;
  readonly rankedGroups: number;
  readonly notParsed: number;
  readonly how: string;
  /** Shown instead of the chart when there are no factors. */
  readonly note: string | null;
}

/**
 * The spread of grader factors (whileai's spread check, methods.md 2.5): over every parsed group
 * whose annotation ranks its passes, the GAR factors of the non-hack passes, and the check's report.
 */
export function prepareFactorSpread(
  groups: readonly RolloutGroup[],
  annotations: Annotations,
  settings: AnalysisSettings,
): FactorSpreadOverview {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const rankedIds = Object.entries(annotations.groups)
    .filter(([, a]) => a.ranking.length > 0)
    .map(([id]) => id);
  const ranked = rankedIds.flatMap((id) => {
    const g = byId.get(id);
    return g === undefined ? [] : [g];
  });
  const notParsed = rankedIds.length - ranked.length;
  const resolved = annotationsResolve(ranked, annotations).byGroup;
  const scores: number[] = [];
  let contributing = 0;
  for (const g of ranked) {
    const n = g.rollouts.length;
    // Factors depend on the rewards and the ranking only: the advantages and clusters passed here
    // are placeholders that analyzeGroup needs for its other columns.
    const a = analyzeGroup(
      g,
      settings,
      new Array<number>(n).fill(0),
      resolved.get(g.id),
      clusterComponents(n, () => false),
    );
    const factors = a.rollouts.filter((r) => r.factor !== null && !r.hack).map((r) => r.factor!);
    if (factors.length > 0) contributing += 1;
    scores.push(...factors);
  }
  const h = overviewHistogram(scores, { bins: 10, min: settings.minFactor, max: 1 });
  const rows = h.bins.map((b) => ({
    label: binLabel(b.x0, b.x1),
    x0: b.x0,
    x1: b.x1,
    count: b.count,
    fill: OVERVIEW_COLORS.factor,
  }));
  const how = `GAR factors f = 1 - (1 - ${settings.minFactor}) * tier mean rank / (n - 1) of the non-hack passes in every parsed group whose annotation ranks its passes (${contributing} group${contributing === 1 ? "" : "s"}); spread check: population std >= 0.05 and at most 90% within 0.05 of the median (whileai).`;
  const missing =
    notParsed > 0
      ? ` ${notParsed} ranked group${notParsed === 1 ? " is" : "s are"} not parsed yet (open them to include them).`
      : "";
  if (scores.length === 0)
    return {
      rows: [],
      report: null,
      rankedGroups: ranked.length,
      notParsed,
      how,
      note: `No grader factors yet: rank the passes of groups with two or more passes (in the Rollouts view) and their GAR factors appear here with the spread check.${missing}`,
    };
  return {
    rows,
    report: spreadCheck(scores, contributing),
    rankedGroups: ranked.length,
    notParsed,
    how: how + missing,
    note: null,
  };
}

/** The dataset's file name without its extension, for saved chart names. */
export function overviewSubject(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  const stem = base.replace(/\.[^.]+$/, "");
  return stem === "" ? "dataset" : stem;
}
