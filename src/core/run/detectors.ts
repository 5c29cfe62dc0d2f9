/**
 * The run's detectors (issue 19): each reads the per-step series of a run's health
 * (./runHealth.ts) under its threshold (core/settings/healthSchema.ts) and says at which steps it
 * fired; consecutive steps where it fired are one episode, reported once as an alert at the step
 * where it starts. Trend rules test the least-squares slope over a window of steps (./trend.ts).
 * Pure.
 */
import type { HealthSettings } from "../settings/healthSchema.ts";
import type { RunHealth, StepHealth } from "./runHealth.ts";
import { slopeTest, trendOnset } from "./trend.ts";

export type HealthRule =
  "zero-std" | "length-drift" | "diversity-collapse" | "component-dominance" | "hack-spread";

export const HEALTH_RULES: readonly HealthRule[] = [
  "zero-std",
  "length-drift",
  "diversity-collapse",
  "component-dominance",
  "hack-spread",
];

export interface HealthAlert {
  readonly rule: HealthRule;
  /** Where the episode starts (for a trend: the first step of the trend, from a hinge fit). */
  readonly step: number;
  readonly value: number;
  readonly threshold: number;
  readonly message: string;
}

export interface DetectorResult {
  readonly rule: HealthRule;
  readonly label: string;
  /** The rule as a formula with its thresholds, for a tooltip. */
  readonly formula: string;
  readonly threshold: number;
  /** The steps where the rule fired (a trend rule: the last step of each window that fired). */
  readonly fired: readonly number[];
  readonly alerts: readonly HealthAlert[];
  /** Why the rule could not run (too few steps, no marked hack, one component), or null. */
  readonly idle: string | null;
}

/** Each rule's label and formula under the settings. */
export function detectorFormulas(
  h: HealthSettings,
): Record<HealthRule, { label: string; formula: string }> {
  const w = `over the last ${h.window} steps`;
  return {
    "zero-std": {
      label: "Zero-std groups",
      formula: `zero-std share > ${h.zeroStdMax}, or its least-squares slope ${w} rising (one-sided t-test p < ${h.trendAlpha}) by >= ${h.zeroStdRise} across the window`,
    },
    "length-drift": {
      label: "Length drift",
      formula: `mean completion characters: slope ${w} rising (p < ${h.trendAlpha}) by >= ${h.lengthRise} x the window's first fitted value, while the pass rate's fitted change across the window is < ${h.passFlat}; the alert names the onset of a hinge fit (flat, then linear)`,
    },
    "diversity-collapse": {
      label: "Diversity collapse",
      formula: `clusters per group: slope ${w} falling (p < ${h.trendAlpha}) by >= ${h.diversityDrop} x the window's first fitted value; the alert names the onset of a hinge fit`,
    },
    "component-dominance": {
      label: "Component dominance",
      formula: `one component's share of the within-group variance of the total, Σ w·cov(c, t) / Σ (t - t̄)² over the step's groups, >= ${h.dominanceShare} (two components at least)`,
    },
    "hack-spread": {
      label: "Hack spread",
      formula: `share of the step's rollouts that are marked hacks or within the similarity threshold of one > ${h.hackSpreadMax}; where people judged rollouts, the Rogan-Gladen corrected share with its interval`,
    },
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const num = (x: number, digits = 3): string => (Number.isFinite(x) ? x.toFixed(digits) : "n/a");

/** Consecutive runs of fired indices (into `steps`), as [first, last]. */
function episodes(fired: readonly boolean[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < fired.length; i++) {
    if (!fired[i]) continue;
    if (out.length > 0 && out[out.length - 1]![1] === i - 1) out[out.length - 1]![1] = i;
    else out.push([i, i]);
  }
  return out;
}

/**
 * A trend's alerts, one per episode, less the episodes that continue the one before: an episode
 * whose onset is not after the previous episode's last step is the same trend, interrupted (a
 * window where the pass rate moved, say), and is not reported again.
 */
function newTrends(
  steps: readonly StepHealth[],
  alerts: readonly { readonly alert: HealthAlert; readonly last: number }[],
): HealthAlert[] {
  const out: HealthAlert[] = [];
  let previousEnd = -Infinity;
  for (const { alert, last } of alerts) {
    if (alert.step > previousEnd) out.push(alert);
    previousEnd = steps[last]!.step!;
  }
  return out;
}

interface WindowTrend {
  readonly p: number;
  /** The fitted change across the window, and relative to the fitted value at its start. */
  readonly change: number;
  readonly relative: number;
  readonly slope: number;
}

function windowTrend(
  steps: readonly StepHealth[],
  end: number,
  window: number,
  value: (s: StepHealth) => number,
  direction: 1 | -1,
): WindowTrend | null {
  if (end + 1 < window) return null;
  const part = steps.slice(end + 1 - window, end + 1);
  const xs = part.map((s) => s.step!);
  const fit = slopeTest(xs, part.map(value));
  if (!Number.isFinite(fit.slope)) return null;
  const span = xs[xs.length - 1]! - xs[0]!;
  const start = fit.intercept + fit.slope * xs[0]!;
  const change = fit.slope * span;
  return {
    p: direction === 1 ? fit.pRising : fit.pFalling,
    change,
    relative: start > 0 ? (direction * change) / start : NaN,
    slope: fit.slope,
  };
}

/** The first step of a trend ending at index `last`: the step after the hinge fit's onset. */
function onsetStep(
  steps: readonly StepHealth[],
  first: number,
  last: number,
  value: (s: StepHealth) => number,
  direction: 1 | -1,
): number {
  const part = steps.slice(0, last + 1);
  const hinge = trendOnset(
    part.map((s) => s.step!),
    part.map(value),
    direction,
  );
  const at = part.findIndex((s) => s.step === hinge);
  const next = at === -1 ? first : Math.min(at + 1, first);
  return steps[next]!.step!;
}

function zeroStd(
  steps: readonly StepHealth[],
  h: HealthSettings,
): { over: boolean[]; rising: boolean[] } {
  const over = steps.map((s) => s.zeroStdShare > h.zeroStdMax);
  const rising = steps.map((_, i) => {
    const t = windowTrend(steps, i, h.window, (s) => s.zeroStdShare, 1);
    return t !== null && t.p < h.trendAlpha && t.change >= h.zeroStdRise;
  });
  return { over, rising };
}

function detectZeroStd(
  steps: readonly StepHealth[],
  h: HealthSettings,
): Omit<DetectorResult, "label" | "formula"> {
  const { over, rising } = zeroStd(steps, h);
  const fired = steps.map((_, i) => over[i]! || rising[i]!);
  const alerts = episodes(fired).map(([a]): HealthAlert => {
    const s = steps[a]!;
    if (over[a]) {
      return {
        rule: "zero-std",
        step: s.step!,
        value: s.zeroStdShare,
        threshold: h.zeroStdMax,
        message: `step ${s.step}: ${pct(s.zeroStdShare)} of groups have zero reward std (above ${pct(h.zeroStdMax)}); they carry no advantage`,
      };
    }
    const t = windowTrend(steps, a, h.window, (x) => x.zeroStdShare, 1)!;
    return {
      rule: "zero-std",
      step: s.step!,
      value: t.change,
      threshold: h.zeroStdRise,
      message: `step ${s.step}: the zero-std share rose by ${pct(t.change)} over the last ${h.window} steps (p = ${num(t.p, 4)}), now ${pct(s.zeroStdShare)}`,
    };
  });
  return {
    rule: "zero-std",
    threshold: h.zeroStdMax,
    fired: firedSteps(steps, fired),
    alerts,
    idle: null,
  };
}

function firedSteps(steps: readonly StepHealth[], fired: readonly boolean[]): number[] {
  return steps.filter((_, i) => fired[i]).map((s) => s.step!);
}

function detectLengthDrift(
  steps: readonly StepHealth[],
  h: HealthSettings,
): Omit<DetectorResult, "label" | "formula"> {
  const length = (s: StepHealth): number => s.meanChars;
  const trends = steps.map((_, i) => windowTrend(steps, i, h.window, length, 1));
  const passes = steps.map((_, i) => windowTrend(steps, i, h.window, (s) => s.passRate, 1));
  const fired = trends.map((t, i) => {
    const pass = passes[i] ?? null;
    const passChange = pass === null || !Number.isFinite(pass.change) ? 0 : pass.change;
    return (
      t !== null && t.p < h.trendAlpha && t.relative >= h.lengthRise && passChange < h.passFlat
    );
  });
  const alerts = episodes(fired).map(([a, b]) => {
    const t = trends[a]!;
    const start = onsetStep(steps, a, b, length, 1);
    const pass = passes[a] ?? null;
    const alert: HealthAlert = {
      rule: "length-drift",
      step: start,
      value: t.relative,
      threshold: h.lengthRise,
      message: `completion length rises from step ${start}: +${pct(t.relative)} over the ${h.window} steps to ${steps[a]!.step} (${num(t.slope, 1)} characters a step, p = ${num(t.p, 4)}) while the pass rate changes by ${pass === null ? "n/a" : pct(pass.change)}`,
    };
    return { alert, last: b };
  });
  return {
    rule: "length-drift",
    threshold: h.lengthRise,
    fired: firedSteps(steps, fired),
    alerts: newTrends(steps, alerts),
    idle: null,
  };
}

function detectDiversity(
  steps: readonly StepHealth[],
  h: HealthSettings,
): Omit<DetectorResult, "label" | "formula"> {
  const value = (s: StepHealth): number => s.clustersPerGroup;
  const trends = steps.map((_, i) => windowTrend(steps, i, h.window, value, -1));
  const fired = trends.map(
    (t) => t !== null && t.p < h.trendAlpha && t.relative >= h.diversityDrop,
  );
  const alerts = episodes(fired).map(([a, b]) => {
    const t = trends[a]!;
    const start = onsetStep(steps, a, b, value, -1);
    const alert: HealthAlert = {
      rule: "diversity-collapse",
      step: start,
      value: t.relative,
      threshold: h.diversityDrop,
      message: `clusters per group fall from step ${start}: -${pct(t.relative)} over the ${h.window} steps to ${steps[a]!.step} (p = ${num(t.p, 4)}), now ${num(steps[a]!.clustersPerGroup, 2)}`,
    };
    return { alert, last: b };
  });
  return {
    rule: "diversity-collapse",
    threshold: h.diversityDrop,
    fired: firedSteps(steps, fired),
    alerts: newTrends(steps, alerts),
    idle: null,
  };
}

/** The component with the largest variance share at a step, or null. */
export function dominantComponent(s: StepHealth): { name: string; share: number } | null {
  let best: { name: string; share: number } | null = null;
  const names = Object.keys(s.componentShares);
  if (names.length < 2) return null;
  for (const name of names) {
    const share = s.componentShares[name]!;
    if (Number.isFinite(share) && (best === null || share > best.share)) best = { name, share };
  }
  return best;
}

function detectDominance(
  steps: readonly StepHealth[],
  h: HealthSettings,
): Omit<DetectorResult, "label" | "formula"> {
  const top = steps.map(dominantComponent);
  const fired = top.map((t) => t !== null && t.share >= h.dominanceShare);
  const alerts = episodes(fired).map(([a]): HealthAlert => {
    const t = top[a]!;
    return {
      rule: "component-dominance",
      step: steps[a]!.step!,
      value: t.share,
      threshold: h.dominanceShare,
      message: `step ${steps[a]!.step}: "${t.name}" carries ${pct(t.share)} of the within-group variance of the total reward`,
    };
  });
  return {
    rule: "component-dominance",
    threshold: h.dominanceShare,
    fired: firedSteps(steps, fired),
    alerts,
    idle: null,
  };
}

function detectHackSpread(
  steps: readonly StepHealth[],
  h: HealthSettings,
): Omit<DetectorResult, "label" | "formula"> {
  const fired = steps.map((s) => s.hackLikeShare > h.hackSpreadMax);
  const alerts = episodes(fired).map(([a]): HealthAlert => {
    const s = steps[a]!;
    const c = s.hackCorrected;
    const corrected =
      c === null || !Number.isFinite(c.corrected)
        ? ""
        : `; corrected for the test's errors on judged rollouts ${pct(c.corrected)} (${pct(c.lower)}-${pct(c.upper)})`;
    return {
      rule: "hack-spread",
      step: s.step!,
      value: s.hackLikeShare,
      threshold: h.hackSpreadMax,
      message: `step ${s.step}: ${pct(s.hackLikeShare)} of rollouts are marked hacks or similar to one (above ${pct(h.hackSpreadMax)})${corrected}`,
    };
  });
  return {
    rule: "hack-spread",
    threshold: h.hackSpreadMax,
    fired: firedSteps(steps, fired),
    alerts,
    idle: null,
  };
}

/**
 * Every detector over a run's health. Only steps with a number take part (a step-less file has
 * nothing to trend over).
 */
export function healthDetectors(run: RunHealth, h: HealthSettings): DetectorResult[] {
  const steps = run.steps.filter((s) => s.step !== null);
  const text = detectorFormulas(h);
  const trendIdle =
    steps.length < h.window
      ? `needs ${h.window} steps (the window); the run has ${steps.length}`
      : null;
  const results: Record<HealthRule, Omit<DetectorResult, "label" | "formula">> = {
    "zero-std": detectZeroStd(steps, h),
    "length-drift": { ...detectLengthDrift(steps, h), idle: trendIdle },
    "diversity-collapse": {
      ...detectDiversity(steps, h),
      idle:
        trendIdle ?? (steps.some((s) => s.clusteredGroups > 0) ? null : "no group was clustered"),
    },
    "component-dominance": {
      ...detectDominance(steps, h),
      idle: run.components.length >= 2 ? null : "needs two reward components or more",
    },
    "hack-spread": {
      ...detectHackSpread(steps, h),
      idle: run.exemplars > 0 ? null : "no rollout is marked as a hack",
    },
  };
  return HEALTH_RULES.map((rule) => ({ ...results[rule], ...text[rule] }));
}

/** Every alert of the detectors, by step then rule order. */
export function healthAlerts(results: readonly DetectorResult[]): HealthAlert[] {
  const order = new Map(HEALTH_RULES.map((r, i) => [r, i]));
  return results
    .flatMap((r) => r.alerts)
    .sort((a, b) => a.step - b.step || order.get(a.rule)! - order.get(b.rule)!);
}
