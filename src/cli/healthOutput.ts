/**
 * What `rollout-studio health` prints: the per-step table, the alerts and the detectors that could
 * not run (text), or one JSON document whose `steps` and `alerts` have the shape issue 19 fixes
 * (field names are a public contract: add fields, never rename them). Every number is core's
 * (runHealth, healthDetectors, compareRuns), only formatted here.
 */
import type {
  DetectorResult,
  HealthAlert,
  PairedSummary,
  PromptComparison,
  PromptSide,
  RunComparison,
  StepHealth,
} from "../core/index.ts";
import type { RunHealthRead } from "./healthRead.ts";
import { table } from "./summary.ts";

/** JSON has no NaN: a missing number is null. */
const num = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** A run's health with its detectors' verdicts, as the command computed them. */
export interface HealthReport {
  readonly read: RunHealthRead;
  readonly detectors: readonly DetectorResult[];
  readonly alerts: readonly HealthAlert[];
}

/** One step as `--json`'s `steps` writes it: exactly these ten keys, in this order. */
export function stepJson(s: StepHealth) {
  return {
    step: s.step,
    groups: s.groups,
    rollouts: s.rollouts,
    passRate: num(s.passRate),
    meanReward: num(s.meanReward),
    zeroStdShare: num(s.zeroStdShare),
    mixedShare: num(s.mixedShare),
    meanChars: num(s.meanChars),
    meanToolCalls: num(s.meanToolCalls),
    clustersPerGroup: num(s.clustersPerGroup),
  };
}

const numbers = (r: Readonly<Record<string, number>>): Record<string, number | null> =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, num(v)]));

/** Everything else core computes for a step: `--json`'s `details`, parallel to `steps`. */
export function stepDetailsJson(s: StepHealth) {
  const c = s.hackCorrected;
  return {
    step: s.step,
    passes: s.passes,
    zeroStdGroups: s.zeroStdGroups,
    mixedGroups: s.mixedGroups,
    meanTurns: num(s.meanTurns),
    components: numbers(s.components),
    componentShares: numbers(s.componentShares),
    clusteredGroups: s.clusteredGroups,
    spread: s.spread,
    hacks: s.hacks,
    hackShares: numbers({ ...s.hackShares }),
    hackLike: s.hackLike,
    hackLikeShare: num(s.hackLikeShare),
    hackCorrected:
      c === null
        ? null
        : {
            observed: num(c.observed),
            corrected: num(c.corrected),
            lower: num(c.lower),
            upper: num(c.upper),
            method: c.method,
            discarded: c.discarded,
            samples: c.samples,
          },
  };
}

function alertJson(a: HealthAlert) {
  return {
    rule: a.rule,
    step: a.step,
    value: num(a.value),
    threshold: a.threshold,
    message: a.message,
  };
}

function detectorJson(d: DetectorResult) {
  return {
    rule: d.rule,
    label: d.label,
    formula: d.formula,
    threshold: d.threshold,
    fired: d.fired,
    idle: d.idle,
  };
}

/** One run's part of the document: steps, alerts, details, detectors. */
export function healthJson(report: HealthReport) {
  const steps = report.read.health.steps;
  return {
    steps: steps.map(stepJson),
    alerts: report.alerts.map(alertJson),
    details: steps.map(stepDetailsJson),
    detectors: report.detectors.map(detectorJson),
  };
}

function sideJson(s: PromptSide) {
  return {
    passRate: num(s.passRate),
    meanReward: num(s.meanReward),
    rollouts: s.rollouts,
    groupIds: s.groupIds,
  };
}

function promptJson(c: PromptComparison) {
  return {
    prompt: c.prompt,
    a: sideJson(c.a),
    b: sideJson(c.b),
    passDiff: num(c.passDiff),
    rewardDiff: num(c.rewardDiff),
  };
}

function pairedJson(p: PairedSummary) {
  return {
    n: p.n,
    meanDiff: num(p.meanDiff),
    lower: num(p.lower),
    upper: num(p.upper),
    positive: p.positive,
    negative: p.negative,
    ties: p.ties,
    signP: num(p.signP),
  };
}

/** `--compare`'s `compare`: B against A on the prompts both hold (core's compareRuns). */
export function compareJson(c: RunComparison, a: string, b: string) {
  return {
    a,
    b,
    metric: c.metric,
    sharedPrompts: c.shared.length,
    onlyA: c.onlyA,
    onlyB: c.onlyB,
    passRate: pairedJson(c.passRate),
    meanReward: pairedJson(c.meanReward),
    regressions: c.regressions.map(promptJson),
    improvements: c.improvements.map(promptJson),
  };
}

const fixed = (x: number, digits: number): string => (Number.isFinite(x) ? x.toFixed(digits) : "-");
const pct = (x: number): string => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "-");
const signed = (x: number, digits = 3): string =>
  Number.isFinite(x) ? `${x >= 0 ? "+" : ""}${x.toFixed(digits)}` : "-";

/** The per-step table; the hack-like column only when marked hacks were compared with. */
function stepTable(steps: readonly StepHealth[], hackLike: boolean): string {
  const head = [
    "step",
    "groups",
    "rollouts",
    "pass rate",
    "mean reward",
    "zero-std",
    "mixed",
    "mean chars",
    "mean turns",
    "mean tool calls",
    "clusters/group",
    ...(hackLike ? ["hack-like"] : []),
  ];
  const rows = steps.map((s) => [
    s.step === null ? "-" : String(s.step),
    String(s.groups),
    String(s.rollouts),
    pct(s.passRate),
    fixed(s.meanReward, 3),
    pct(s.zeroStdShare),
    pct(s.mixedShare),
    fixed(s.meanChars, 0),
    fixed(s.meanTurns, 2),
    fixed(s.meanToolCalls, 2),
    fixed(s.clustersPerGroup, 2),
    ...(hackLike ? [pct(s.hackLikeShare)] : []),
  ]);
  return table([head, ...rows], new Set());
}

/** The text report of one run: what was read, the table, the alerts, the detectors that idled. */
export function healthText(report: HealthReport, clusterSample: number): string {
  const { read, detectors, alerts } = report;
  const h = read.health;
  const groups = h.steps.reduce((s, x) => s + x.groups, 0);
  const rollouts = h.steps.reduce((s, x) => s + x.rollouts, 0);
  const numbered = h.steps.filter((s) => s.step !== null).length;
  const lines = [
    `${read.name}: ${numbered} step${numbered === 1 ? "" : "s"}, ${groups} groups, ${rollouts} rollouts (${read.streamed ? "read file by file" : "loaded whole"})`,
    `clusters/group: the mean diversity cluster count over ${clusterSample === 0 ? "every group" : `at most ${clusterSample} groups`} of each step (picked by a hash of their ids)`,
  ];
  if (h.exemplars > 0)
    lines.push(
      `hack-like: the share of rollouts marked as hacks or within the similarity threshold of one of the ${h.exemplars} marked`,
    );
  lines.push("", stepTable(h.steps, h.exemplars > 0), "");
  const width = Math.max(0, ...alerts.map((a) => a.rule.length));
  const stepWidth = Math.max(0, ...alerts.map((a) => String(a.step).length));
  lines.push(alerts.length === 0 ? "alerts: none" : "alerts:");
  for (const a of alerts)
    lines.push(`  ${a.rule.padEnd(width)}  step ${String(a.step).padEnd(stepWidth)}  ${a.message}`);
  const idle = detectors.filter((d) => d.idle !== null);
  if (idle.length > 0) {
    lines.push("not run:");
    for (const d of idle) lines.push(`  ${d.rule}: ${d.idle}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Shared prompts shown in each list of the text comparison; `--json` has them all. */
export const COMPARE_SHOWN = 10;

function summaryLine(label: string, p: PairedSummary): string {
  return `${label} B - A: mean ${signed(p.meanDiff)} over ${p.n} prompts (95% paired bootstrap ${fixed(p.lower, 3)} to ${fixed(p.upper, 3)}); sign test ${p.positive} up, ${p.negative} down, ${p.ties} tied, p ${p.signP < 1e-4 ? "< 0.0001" : `= ${fixed(p.signP, 4)}`}`;
}

function promptRows(list: readonly PromptComparison[]): string {
  const head = ["prompt", "A pass", "B pass", "diff", "A reward", "B reward", "diff"];
  const rows = list
    .slice(0, COMPARE_SHOWN)
    .map((c) => [
      c.prompt,
      pct(c.a.passRate),
      pct(c.b.passRate),
      signed(c.passDiff),
      fixed(c.a.meanReward, 3),
      fixed(c.b.meanReward, 3),
      signed(c.rewardDiff),
    ]);
  return table([head, ...rows], new Set([0]))
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
}

/** The text comparison of run B with run A. */
export function compareText(c: RunComparison, a: string, b: string): string {
  const by = c.metric === "passRate" ? "pass rate" : "mean reward";
  const lines = [
    `run against run: A = ${a}, B = ${b}`,
    `${c.shared.length} shared prompts (${c.onlyA} only in A, ${c.onlyB} only in B); each prompt's rollouts pooled over its steps`,
    summaryLine("pass rate", c.passRate),
    summaryLine("mean reward", c.meanReward),
  ];
  for (const [title, list] of [
    ["regressions", c.regressions],
    ["improvements", c.improvements],
  ] as const) {
    const shown = Math.min(COMPARE_SHOWN, list.length);
    lines.push(
      list.length === 0
        ? `${title} (by ${by}): none`
        : `${title} (by ${by}; ${shown} of ${list.length}):`,
    );
    if (list.length > 0) lines.push(promptRows(list));
  }
  return `${lines.join("\n")}\n`;
}
