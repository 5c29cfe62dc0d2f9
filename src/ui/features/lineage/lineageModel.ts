/**
 * The Lineage tab's view model (issue 19): one row per group of the open group's prompt, in step
 * order, with core's numbers (store/lineage.ts: `promptLineage` over `groupHealth`) as they read,
 * a row for each group not parsed (yet), the three series the sparklines draw, and which steps
 * are chosen to open side by side. Pure.
 */
import type { HackMarks, LineagePoint, SpreadVerdict } from "../../../core/index.ts";
import type { LineageView } from "../../../store/lineage.ts";
import { fixed3 } from "../../components/numbers.ts";

/** Why a row has no numbers: its group is being read, or past what the lineage parses. */
export type LineageRowState = "parsed" | "reading" | "not-loaded";

export interface LineageRow {
  readonly groupId: string;
  readonly step: number | null;
  readonly stepLabel: string;
  readonly state: LineageRowState;
  /** The open group's row. */
  readonly current: boolean;
  /** Core's point; null while the group is not parsed. */
  readonly point: LineagePoint | null;
  /** Texts of the cells. */
  readonly cells: {
    readonly n: string;
    readonly passes: string;
    readonly passRate: string;
    readonly std: string;
    readonly clusters: string;
    readonly meanChars: string;
    readonly spread: SpreadVerdict | "";
    readonly marks: string;
  };
}

/** One series of a sparkline: (step, value) of the parsed groups with a finite value. */
export interface LineageSeries {
  readonly id: "passRate" | "meanChars" | "clusters";
  readonly label: string;
  readonly points: readonly { readonly step: number; readonly value: number }[];
  /** How to write a value of it. */
  readonly format: (x: number) => string;
  /** Parsed groups left out: no step, or no value (clusters still computing). */
  readonly missing: number;
}

export interface LineageModel {
  readonly rows: readonly LineageRow[];
  readonly series: readonly LineageSeries[];
  /** Distinct steps of the prompt's groups: a lineage needs two. */
  readonly steps: number;
  /** A line saying what the numbers cover, when some groups are not parsed or counted. */
  readonly coverage: string | null;
}

/** A value for a `data-*` attribute: the exact number, "" when absent. */
export function exactAttr(x: number | null): string {
  return x === null || !Number.isFinite(x) ? "" : String(x);
}

const count = (x: number | null): string => (x === null || !Number.isFinite(x) ? "–" : String(x));

/** "2 human, 1 judge"; an en dash when no one marked a hack in the group. */
export function marksText(marks: HackMarks): string {
  const parts: string[] = [];
  if (marks.human > 0) parts.push(`${marks.human} human`);
  if (marks.heuristic > 0) parts.push(`${marks.heuristic} heuristic`);
  if (marks.judge > 0) parts.push(`${marks.judge} judge`);
  return parts.length === 0 ? "–" : parts.join(", ");
}

const EMPTY_CELLS: LineageRow["cells"] = {
  n: "",
  passes: "",
  passRate: "",
  std: "",
  clusters: "",
  meanChars: "",
  spread: "",
  marks: "",
};

function rowOf(
  groupId: string,
  step: number | null,
  state: LineageRowState,
  point: LineagePoint | null,
  current: boolean,
): LineageRow {
  return {
    groupId,
    step,
    stepLabel: step === null ? "no step" : String(step),
    state,
    current,
    point,
    cells:
      point === null
        ? EMPTY_CELLS
        : {
            n: String(point.n),
            passes: String(point.passes),
            passRate: fixed3(point.passRate),
            std: fixed3(point.std),
            clusters: point.clusters === null ? "…" : count(point.clusters),
            meanChars: Number.isFinite(point.meanChars) ? String(Math.round(point.meanChars)) : "–",
            spread: point.spread,
            marks: marksText(point.hacks),
          },
  };
}

function seriesOf(
  points: readonly LineagePoint[],
  id: LineageSeries["id"],
  label: string,
  value: (p: LineagePoint) => number | null,
  format: (x: number) => string,
): LineageSeries {
  const out: { step: number; value: number }[] = [];
  for (const p of points) {
    const v = value(p);
    if (p.step !== null && v !== null && Number.isFinite(v)) out.push({ step: p.step, value: v });
  }
  return { id, label, points: out, format, missing: points.length - out.length };
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The rows and series of a lineage, with the open group's row marked. */
export function lineageModel(view: LineageView, openGroupId: string): LineageModel {
  const byId = new Map(view.points.map((p) => [p.groupId, p]));
  const reading = new Set(view.reading);
  const rows = view.members.map((m) => {
    const point = byId.get(m.id) ?? null;
    const state: LineageRowState =
      point !== null ? "parsed" : reading.has(m.id) ? "reading" : "not-loaded";
    return rowOf(m.id, m.step, state, point, m.id === openGroupId);
  });
  const steps = new Set(view.members.map((m) => m.step).filter((s) => s !== null)).size;
  const parts: string[] = [];
  if (view.reading.length > 0)
    parts.push(
      `${view.reading.length} of ${view.members.length} groups are being parsed from the file; their rows fill in as they arrive`,
    );
  if (view.notLoaded.length > 0)
    parts.push(
      `${view.notLoaded.length} groups past the first ${view.parseMax} are not loaded (open one to parse it)`,
    );
  if (parts.length > 0) parts.push("the sparklines show the parsed groups");
  if (view.clustersPending > 0)
    parts.push(`the clusters of ${view.clustersPending} groups are still being computed`);
  return {
    rows,
    series: [
      seriesOf(view.points, "passRate", "Pass rate", (p) => p.passRate, fixed3),
      seriesOf(
        view.points,
        "meanChars",
        "Mean length (chars)",
        (p) => p.meanChars,
        (x) => String(Math.round(x)),
      ),
      seriesOf(view.points, "clusters", "Clusters", (p) => p.clusters, String),
    ],
    steps,
    coverage: parts.length === 0 ? null : `${capitalize(parts.join("; "))}.`,
  };
}

/**
 * The steps chosen to open side by side after a click on a row's box: at most two, the newest
 * choice replacing the older one when a third is chosen.
 */
export function togglePick(picked: readonly string[], groupId: string): string[] {
  if (picked.includes(groupId)) return picked.filter((id) => id !== groupId);
  return [...picked, groupId].slice(-2);
}

/** The two picked groups in step order (left the earlier step), or null unless two are picked. */
export function pickedPair(
  rows: readonly LineageRow[],
  picked: readonly string[],
): { left: LineageRow; right: LineageRow } | null {
  if (picked.length !== 2) return null;
  const chosen = rows.filter((r) => picked.includes(r.groupId));
  if (chosen.length !== 2) return null;
  return { left: chosen[0]!, right: chosen[1]! };
}
