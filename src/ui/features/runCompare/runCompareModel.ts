/**
 * The Run vs run panel's view model (issue 19): core's `compareRuns` of the dataset on screen
 * (run A) and the run opened beside it (run B), as the panel writes it: the paired summary of each
 * metric (mean difference B - A, its bootstrap interval, the sign test), the regressions and
 * improvements under the chosen metric with the groups each side opens, every shared prompt, and
 * what the numbers cover. Pure.
 */
import type {
  CompareMetric,
  PairedSummary,
  PromptComparison,
  PromptSide,
} from "../../../core/index.ts";
import type { CompareSide, RunCompareView } from "../../../store/runCompare.ts";
import { fixed3 } from "../../components/numbers.ts";

export const METRIC_LABELS: Readonly<Record<CompareMetric, string>> = {
  passRate: "Pass rate",
  meanReward: "Mean reward",
};

/** A signed difference: "+0.125", "−0.041", "0.000"; an en dash when absent. */
export function signed(x: number): string {
  if (!Number.isFinite(x)) return "–";
  const text = Math.abs(x).toFixed(3);
  if (text === "0.000") return text;
  return `${x > 0 ? "+" : "−"}${text}`;
}

/** A p-value for reading: "< 0.001", else three decimals. */
export function pValue(p: number): string {
  if (!Number.isFinite(p)) return "–";
  return p < 0.001 ? "< 0.001" : p.toFixed(3);
}

/** A value for a `data-*` attribute: the exact number, "" when absent. */
const attr = (x: number): string => (Number.isFinite(x) ? String(x) : "");

export interface SummaryLine {
  readonly metric: CompareMetric;
  readonly label: string;
  readonly summary: PairedSummary;
  readonly meanDiff: string;
  readonly interval: string;
  readonly signP: string;
  readonly signs: string;
  /** The data attributes of the summary (exact numbers). */
  readonly attrs: {
    readonly meanDiff: string;
    readonly lower: string;
    readonly upper: string;
    readonly signP: string;
  };
}

export interface PromptRow {
  readonly prompt: string;
  readonly a: PromptSide;
  readonly b: PromptSide;
  /** Under the chosen metric: each side's value, and B - A. */
  readonly valueA: string;
  readonly valueB: string;
  readonly diff: string;
  readonly diffValue: number;
  /** Pass rates and mean rewards of each side, and their differences. */
  readonly cells: {
    readonly passA: string;
    readonly passB: string;
    readonly passDiff: string;
    readonly rewardA: string;
    readonly rewardB: string;
    readonly rewardDiff: string;
  };
}

export interface RunCompareModel {
  readonly metric: CompareMetric;
  readonly shared: number;
  readonly onlyA: number;
  readonly onlyB: number;
  /** The chosen metric's line first, then the other's. */
  readonly lines: readonly SummaryLine[];
  readonly regressions: readonly PromptRow[];
  readonly improvements: readonly PromptRow[];
  readonly prompts: readonly PromptRow[];
  /** What the numbers leave out (unparsed groups of an indexed run, applied verifiers). */
  readonly notes: readonly string[];
}

function lineOf(metric: CompareMetric, summary: PairedSummary): SummaryLine {
  return {
    metric,
    label: METRIC_LABELS[metric],
    summary,
    meanDiff: signed(summary.meanDiff),
    interval: summary.n === 0 ? "–" : `[${signed(summary.lower)}, ${signed(summary.upper)}]`,
    signP: pValue(summary.signP),
    signs: `${summary.positive} up, ${summary.negative} down, ${summary.ties} tied`,
    attrs: {
      meanDiff: attr(summary.meanDiff),
      lower: attr(summary.lower),
      upper: attr(summary.upper),
      signP: attr(summary.signP),
    },
  };
}

function rowOf(c: PromptComparison, metric: CompareMetric): PromptRow {
  const pass = metric === "passRate";
  return {
    prompt: c.prompt,
    a: c.a,
    b: c.b,
    valueA: fixed3(pass ? c.a.passRate : c.a.meanReward),
    valueB: fixed3(pass ? c.b.passRate : c.b.meanReward),
    diff: signed(pass ? c.passDiff : c.rewardDiff),
    diffValue: pass ? c.passDiff : c.rewardDiff,
    cells: {
      passA: fixed3(c.a.passRate),
      passB: fixed3(c.b.passRate),
      passDiff: signed(c.passDiff),
      rewardA: fixed3(c.a.meanReward),
      rewardB: fixed3(c.b.meanReward),
      rewardDiff: signed(c.rewardDiff),
    },
  };
}

function coverageNote(run: "A" | "B", side: CompareSide): string | null {
  if (side.parsed === side.groups) return null;
  return `Run ${run} is indexed: ${side.parsed} of its ${side.groups} groups are parsed, and only those are compared (open a group to parse it).`;
}

export function runCompareModel(view: RunCompareView): RunCompareModel {
  const c = view.comparison;
  const other: CompareMetric = c.metric === "passRate" ? "meanReward" : "passRate";
  const notes = [coverageNote("A", view.a), coverageNote("B", view.b)].filter(
    (n): n is string => n !== null,
  );
  if (view.verifiersApplied)
    notes.push(
      "Verifiers are applied to run A on screen; the comparison reads both runs' own rewards.",
    );
  return {
    metric: c.metric,
    shared: c.shared.length,
    onlyA: c.onlyA,
    onlyB: c.onlyB,
    lines: [lineOf(c.metric, c[c.metric]), lineOf(other, c[other])],
    regressions: c.regressions.map((r) => rowOf(r, c.metric)),
    improvements: c.improvements.map((r) => rowOf(r, c.metric)),
    prompts: c.shared.map((r) => rowOf(r, c.metric)),
    notes,
  };
}

/**
 * The group a prompt row opens on one side: the prompt's group at its latest step in that run
 * (a step-less group only when it has no other), by the run's group steps.
 */
export function latestGroup(
  side: PromptSide,
  steps: ReadonlyMap<string, number | null>,
): string | null {
  let best: string | null = null;
  let bestStep = -Infinity;
  for (const id of side.groupIds) {
    const step = steps.get(id) ?? null;
    const rank = step ?? -Infinity;
    if (best === null || rank > bestStep) {
      best = id;
      bestStep = rank;
    }
  }
  return best;
}
