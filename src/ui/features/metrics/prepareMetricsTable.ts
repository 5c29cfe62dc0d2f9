/**
 * The metrics table's view model: which columns a group needs, each with how it is computed, and
 * the rows in the chosen order (ties by group order, absent values last in either direction).
 */
import type { AnalysisSettings, GroupAnalysis, MetricFormulas } from "../../../core/index.ts";
import { fixed3, plainNumber } from "../../components/numbers.ts";

export type MetricColumnId =
  | "reward"
  | "passed"
  | "advantage"
  | "trainerAdvantage"
  | "gar"
  | "factor"
  | "rank"
  | "winRate"
  | "cluster"
  | "selfConsistency"
  | "complementarity"
  | "humanRank"
  | "humanLabel"
  | "hack"
  | "length"
  | "toolCalls";

export interface MetricColumn {
  readonly id: MetricColumnId;
  readonly label: string;
  /** How the column is computed under the settings (the header's tooltip). */
  readonly how: string;
}

export interface MetricCell {
  readonly text: string;
  /** The value sorted on; null sorts last. */
  readonly sort: number | string | null;
}

export interface MetricRow {
  readonly index: number;
  readonly id: string;
  readonly cluster: number;
  readonly clusterSize: number;
  readonly cells: Readonly<Record<MetricColumnId, MetricCell>>;
}

export interface MetricSort {
  readonly column: MetricColumnId | "index";
  readonly descending: boolean;
}

export interface MetricsTableModel {
  readonly columns: readonly MetricColumn[];
  readonly rows: readonly MetricRow[];
}

const num = (x: number | null): MetricCell => ({
  text: fixed3(x),
  sort: x === null || !Number.isFinite(x) ? null : x,
});

/**
 * Columns and sorted rows. The trainer's logged advantage, self-consistency, complementarity and
 * the human rank appear only when some rollout of the group has them.
 */
export function prepareMetricsTable(
  analysis: GroupAnalysis,
  formulas: MetricFormulas,
  settings: AnalysisSettings,
  sort: MetricSort,
): MetricsTableModel {
  const rs = analysis.rollouts;
  const any = (f: (r: (typeof rs)[number]) => unknown): boolean => rs.some((r) => f(r) !== null);
  const all: (MetricColumn & { show: boolean })[] = [
    { id: "reward", label: "Reward", how: formulas.reward, show: true },
    { id: "passed", label: "Pass", how: formulas.passed, show: true },
    { id: "advantage", label: "Advantage", how: formulas.advantage, show: true },
    {
      id: "trainerAdvantage",
      label: "Trainer adv.",
      how: "The advantage the trainer logged for this rollout (e.g. TRL's advantage column), as in the file",
      show: any((r) => r.trainerAdvantage),
    },
    { id: "gar", label: "GAR adv.", how: formulas.gar, show: true },
    { id: "factor", label: "Factor", how: formulas.factor, show: true },
    {
      id: "rank",
      label: "Rank",
      how: `${formulas.rank}. ${analysis.rankSource === "reward" ? "Here: by reward." : `Here: by the ${analysis.rankSource} ranking.`}`,
      show: true,
    },
    { id: "winRate", label: "Win-rate", how: formulas.winRate, show: true },
    { id: "cluster", label: "Cluster", how: formulas.cluster, show: true },
    {
      id: "selfConsistency",
      label: "Self-cons.",
      how: formulas.selfConsistency,
      show: any((r) => r.selfConsistency),
    },
    {
      id: "complementarity",
      label: "Compl.",
      how: formulas.complementarity,
      show: any((r) => r.complementarity),
    },
    {
      id: "humanRank",
      label: "Human rank",
      how: formulas.humanRank,
      show: any((r) => r.humanRank),
    },
    {
      id: "humanLabel",
      label: "Label",
      how: "The human label from the annotations (pass, fail or defer); empty when unlabelled",
      show: true,
    },
    {
      id: "hack",
      label: "Hack",
      how: `Marked as a hack in the annotations; ${settings.hackZero ? "hack zeroing is on: a passing hack's reward counts 0 for GAR" : "hack zeroing is off: a hack keeps its reward and ranks as the worst pass"}`,
      show: true,
    },
    { id: "length", label: "Length", how: formulas.length, show: true },
    { id: "toolCalls", label: "Tools", how: formulas.toolCalls, show: true },
  ];
  const columns = all.filter((c) => c.show).map(({ id, label, how }) => ({ id, label, how }));
  const rows: MetricRow[] = rs.map((r, index) => ({
    index,
    id: r.id,
    cluster: r.cluster,
    clusterSize: r.clusterSize,
    cells: {
      reward: num(r.reward),
      passed: { text: r.passed ? "pass" : "fail", sort: r.passed ? 1 : 0 },
      advantage: num(r.advantage),
      trainerAdvantage: num(r.trainerAdvantage),
      gar: num(r.garAdvantage),
      factor: num(r.factor),
      // The place, best = 1 (sorting descending puts the best first, as for every other number).
      rank: { text: `${plainNumber(r.place)} of ${analysis.n}`, sort: r.rank },
      winRate: num(r.winRate),
      cluster: { text: String(r.cluster), sort: r.cluster },
      selfConsistency: num(r.selfConsistency),
      complementarity: num(r.complementarity),
      humanRank: {
        text: r.humanRank === null ? "" : plainNumber(r.humanRank),
        sort: r.humanRank === null ? null : -r.humanRank,
      },
      humanLabel: { text: r.humanLabel ?? "", sort: r.humanLabel },
      hack: { text: r.hack ? "hack" : "", sort: r.hack ? 1 : 0 },
      length: { text: String(r.textLength), sort: r.textLength },
      toolCalls: { text: String(r.toolCalls), sort: r.toolCalls },
    },
  }));
  return { columns, rows: metricsSort(rows, sort) };
}

/** Rows ordered by a column; absent values last in both directions; ties by group order. */
export function metricsSort(rows: readonly MetricRow[], sort: MetricSort): MetricRow[] {
  const key = (row: MetricRow): number | string | null =>
    sort.column === "index" ? row.index : row.cells[sort.column].sort;
  return [...rows].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka === null || kb === null) {
      if (ka === null && kb === null) return a.index - b.index;
      return ka === null ? 1 : -1;
    }
    const cmp =
      typeof ka === "number" && typeof kb === "number"
        ? ka - kb
        : String(ka).localeCompare(String(kb));
    if (cmp !== 0) return sort.descending ? -cmp : cmp;
    return a.index - b.index;
  });
}

/** The next sort after clicking a column header: ascending, then descending, then group order. */
export function metricsNextSort(current: MetricSort, column: MetricColumnId): MetricSort {
  if (current.column !== column) return { column, descending: false };
  if (!current.descending) return { column, descending: true };
  return { column: "index", descending: false };
}
