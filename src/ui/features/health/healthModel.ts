/**
 * The run view's numbers (issue 19): core's per-step health of the loaded run, as the table's
 * rows (raw numbers in data attributes, the keys of `rollout-studio health --json`), the charts'
 * rows (a gap where a number is undefined) and where each detector fired on the step axis. An
 * indexed file holds only the groups parsed so far: there the reward series (groups, rollouts,
 * pass rate, mean reward, zero-std and mixed shares) are every group's, from the summaries (core's
 * rewardStepHealth), and every other series is over the parsed groups, which the view says.
 * Pure: it shapes core's numbers and decides none.
 */
import {
  rewardStepHealth,
  type AnalysisSettings,
  type RewardStepHealth,
  type RunHealth,
  type StepHealth,
} from "../../../core/index.ts";

/** What the numbers cover: every group, or (an indexed file) the parsed ones for text series. */
export interface HealthCoverage {
  readonly indexed: boolean;
  readonly totalGroups: number;
  /** Groups the text, diversity, spread and hack series read. */
  readonly parsedGroups: number;
  /** Per step, the groups those series read (= the step's groups unless indexed). */
  readonly parsedByStep: ReadonlyMap<number | null, number>;
  /** Where the rewards come from, for the charts' notes. */
  readonly rewards: string;
}

export interface HealthView {
  /** The run's health as the view shows it (an indexed file's reward numbers over every group). */
  readonly run: RunHealth;
  readonly coverage: HealthCoverage;
}

/** A step with no parsed group of an indexed file: its text series are undefined (NaN). */
function unparsedStep(step: number | null): StepHealth {
  return {
    step,
    groups: 0,
    rollouts: 0,
    passes: 0,
    passRate: NaN,
    meanReward: NaN,
    zeroStdGroups: 0,
    zeroStdShare: NaN,
    mixedGroups: 0,
    mixedShare: NaN,
    meanChars: NaN,
    meanTurns: NaN,
    meanToolCalls: NaN,
    components: {},
    componentShares: {},
    clusteredGroups: 0,
    clustersPerGroup: NaN,
    spread: { yes: 0, no: 0, na: 0 },
    hacks: { human: 0, heuristic: 0, judge: 0 },
    hackShares: { human: NaN, heuristic: NaN, judge: NaN },
    hackLike: 0,
    hackLikeShare: NaN,
    hackCorrected: null,
  };
}

/**
 * The run's health as the view shows it: core's over the groups read, and for an indexed file
 * each step's reward numbers over every group (the summaries' logged rewards).
 */
export function healthView(
  health: RunHealth,
  dataset: {
    readonly indexed: boolean;
    readonly summaries: readonly {
      readonly step: number | null;
      readonly rewards: readonly number[];
    }[];
  },
  settings: Pick<AnalysisSettings, "passThreshold" | "rewardWeights">,
): HealthView {
  const parsedByStep = new Map(health.steps.map((s) => [s.step, s.groups]));
  const parsedGroups = health.steps.reduce((n, s) => n + s.groups, 0);
  const weighted = settings.rewardWeights !== null;
  if (!dataset.indexed)
    return {
      run: health,
      coverage: {
        indexed: false,
        totalGroups: parsedGroups,
        parsedGroups,
        parsedByStep,
        rewards: weighted
          ? "the weighted sum of the reward components"
          : "the logged reward (or the sum of its components)",
      },
    };
  const byStep = new Map(health.steps.map((s) => [s.step, s]));
  const steps = rewardStepHealth(dataset.summaries, settings.passThreshold).map(
    (r: RewardStepHealth): StepHealth => ({
      ...(byStep.get(r.step) ?? unparsedStep(r.step)),
      ...r,
    }),
  );
  return {
    run: { ...health, steps },
    coverage: {
      indexed: true,
      totalGroups: dataset.summaries.length,
      parsedGroups,
      parsedByStep,
      rewards: weighted
        ? "the logged reward of every group (an indexed file: reward weights apply to parsed groups only, so not here)"
        : "the logged reward of every group (or the sum of its components)",
    },
  };
}

/** A number as a data attribute: String(x), "" when undefined (NaN). */
export function rawNumber(x: number): string {
  return Number.isFinite(x) ? String(x) : "";
}

/** The table's data attributes of a step: the keys of `rollout-studio health --json`. */
export interface HealthRowData {
  readonly "data-step": string;
  readonly "data-groups": string;
  readonly "data-rollouts": string;
  readonly "data-pass-rate": string;
  readonly "data-mean-reward": string;
  readonly "data-zero-std-share": string;
  readonly "data-mixed-share": string;
  readonly "data-mean-chars": string;
  readonly "data-mean-tool-calls": string;
  readonly "data-clusters-per-group": string;
}

export interface HealthRow {
  readonly step: number | null;
  readonly data: HealthRowData;
  /** The cells as shown, in HEALTH_COLUMNS' order. */
  readonly cells: readonly string[];
  /** Each cell's tooltip (how many groups or rollouts it is over), in the same order. */
  readonly titles: readonly string[];
}

const pct = (x: number): string => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "–");
const dec = (x: number, digits: number): string => (Number.isFinite(x) ? x.toFixed(digits) : "–");
const count = (n: number): string => n.toLocaleString("en-US");

/** The table's columns after the step, with their tooltips. */
export const HEALTH_COLUMNS: readonly { readonly label: string; readonly title: string }[] = [
  { label: "groups", title: "Groups at the step" },
  { label: "rollouts", title: "Rollouts at the step" },
  { label: "pass", title: "Pass rate: passing rollouts / rollouts" },
  { label: "reward", title: "Mean reward over the rollouts with one" },
  { label: "zero-std", title: "Share of groups whose rollouts all have one reward" },
  { label: "mixed", title: "Share of groups with both passes and failures" },
  { label: "chars", title: "Mean completion characters per rollout" },
  { label: "turns", title: "Mean assistant turns per rollout" },
  { label: "tools", title: "Mean tool calls per rollout" },
  { label: "clusters", title: "Mean diversity clusters per group, over the step's sample" },
  { label: "spread", title: "Spread check of the groups: yes / no / n/a" },
  { label: "hacks", title: "Rollouts marked as hacks: by people / the heuristic / a judge" },
  { label: "hack-like", title: "Share of rollouts marked as hacks or similar to a marked one" },
  {
    label: "corrected",
    title: "Hack-like share corrected for the test's errors on judged rollouts (Rogan-Gladen)",
  },
];

/** One row per step of the run, in step order (a step-less group's row first). */
export function healthRows(view: HealthView): HealthRow[] {
  return view.run.steps.map((s) => {
    const parsed = view.coverage.parsedByStep.get(s.step) ?? 0;
    const over = view.coverage.indexed ? ` (over ${count(parsed)} parsed groups)` : "";
    const c = s.hackCorrected;
    return {
      step: s.step,
      data: {
        "data-step": s.step === null ? "" : String(s.step),
        "data-groups": String(s.groups),
        "data-rollouts": String(s.rollouts),
        "data-pass-rate": rawNumber(s.passRate),
        "data-mean-reward": rawNumber(s.meanReward),
        "data-zero-std-share": rawNumber(s.zeroStdShare),
        "data-mixed-share": rawNumber(s.mixedShare),
        "data-mean-chars": rawNumber(s.meanChars),
        "data-mean-tool-calls": rawNumber(s.meanToolCalls),
        "data-clusters-per-group": rawNumber(s.clustersPerGroup),
      },
      cells: [
        count(s.groups),
        count(s.rollouts),
        pct(s.passRate),
        dec(s.meanReward, 3),
        pct(s.zeroStdShare),
        pct(s.mixedShare),
        dec(s.meanChars, 0),
        dec(s.meanTurns, 2),
        dec(s.meanToolCalls, 2),
        dec(s.clustersPerGroup, 2),
        `${s.spread.yes} / ${s.spread.no} / ${s.spread.na}`,
        `${s.hacks.human} / ${s.hacks.heuristic} / ${s.hacks.judge}`,
        pct(s.hackLikeShare),
        c === null ? "–" : `${pct(c.corrected)} (${pct(c.lower)}–${pct(c.upper)})`,
      ],
      // The first six columns are every group's; the others, in an indexed file, the parsed ones'.
      titles: HEALTH_COLUMNS.map((col, i) => {
        const title = i < 6 ? col.title : `${col.title}${over}`;
        return col.label === "clusters"
          ? `${title}; ${count(s.clusteredGroups)} groups clustered`
          : title;
      }),
    };
  });
}

/** A chart's row: one step's series, null where a number is undefined (a gap in the line). */
export interface HealthChartRow {
  readonly step: number;
  readonly passRate: number | null;
  readonly meanReward: number | null;
  readonly zeroStdShare: number | null;
  readonly mixedShare: number | null;
  readonly meanChars: number | null;
  readonly meanTurns: number | null;
  readonly meanToolCalls: number | null;
  readonly clustersPerGroup: number | null;
  readonly spreadYes: number;
  readonly spreadNo: number;
  readonly spreadNa: number;
  readonly hackHuman: number | null;
  readonly hackHeuristic: number | null;
  readonly hackJudge: number | null;
  readonly hackLike: number | null;
  readonly hackCorrected: number | null;
  /** The corrected share's interval, [lower, upper], for a band. */
  readonly hackInterval: readonly [number, number] | null;
  /** Each reward component's mean, by name. */
  readonly components: Readonly<Record<string, number | null>>;
}

const orNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** The charts' rows: the run's numbered steps (a step-less group has no place on the axis). */
export function healthChartRows(run: RunHealth): HealthChartRow[] {
  return run.steps.flatMap((s): HealthChartRow[] => {
    if (s.step === null) return [];
    const c = s.hackCorrected;
    const interval =
      c === null || !Number.isFinite(c.lower) || !Number.isFinite(c.upper)
        ? null
        : ([c.lower, c.upper] as const);
    return [
      {
        step: s.step,
        passRate: orNull(s.passRate),
        meanReward: orNull(s.meanReward),
        zeroStdShare: orNull(s.zeroStdShare),
        mixedShare: orNull(s.mixedShare),
        meanChars: orNull(s.meanChars),
        meanTurns: orNull(s.meanTurns),
        meanToolCalls: orNull(s.meanToolCalls),
        clustersPerGroup: orNull(s.clustersPerGroup),
        spreadYes: s.spread.yes,
        spreadNo: s.spread.no,
        spreadNa: s.spread.na,
        hackHuman: orNull(s.hackShares.human),
        hackHeuristic: orNull(s.hackShares.heuristic),
        hackJudge: orNull(s.hackShares.judge),
        hackLike: orNull(s.hackLikeShare),
        hackCorrected: c === null ? null : orNull(c.corrected),
        hackInterval: interval,
        components: Object.fromEntries(
          run.components.map((name) => [name, orNull(s.components[name] ?? NaN)]),
        ),
      },
    ];
  });
}

/** A span of the step axis where a detector fired, half-way to the steps either side. */
export interface FiredSpan {
  readonly x1: number;
  readonly x2: number;
}

/**
 * The spans of consecutive fired steps on the axis of `steps` (ascending): each reaches half-way
 * to the neighbouring steps (at the ends, half the nearest gap), so one fired step is a band as
 * wide as its place on the axis.
 */
export function firedSpans(fired: readonly number[], steps: readonly number[]): FiredSpan[] {
  const on = new Set(fired);
  const gap = (i: number, j: number): number => Math.abs(steps[j]! - steps[i]!) / 2;
  const half = (i: number, side: -1 | 1): number => {
    const j = i + side;
    if (j >= 0 && j < steps.length) return gap(i, j);
    const k = i - side;
    return k >= 0 && k < steps.length ? gap(i, k) : 0.5;
  };
  const spans: FiredSpan[] = [];
  let start = -1;
  for (let i = 0; i <= steps.length; i++) {
    const firing = i < steps.length && on.has(steps[i]!);
    if (firing && start === -1) start = i;
    if (!firing && start !== -1) {
      spans.push({ x1: steps[start]! - half(start, -1), x2: steps[i - 1]! + half(i - 1, 1) });
      start = -1;
    }
  }
  return spans;
}
