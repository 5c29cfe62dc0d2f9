/**
 * View models for the group table and one group's rollouts. All decisions (formatting, previews,
 * flags) are made here and tested; the components only render these.
 */
import {
  groupFlags,
  ngramCluster,
  rolloutText,
  statsFinite,
  statsMean,
  statsStd,
  type AnalysisSettings,
  type ChatMessage,
  type RolloutGroup,
} from "../../../core/index.ts";
import { promptText, type GroupSummary } from "../../../io/dataset.ts";

const PREVIEW = 120;

const fmt = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : "–");

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW)}…` : flat;
}

/** The prompt as one line: text as is, messages as their last user turn. */
export function promptPreview(prompt: string | readonly ChatMessage[] | null): string {
  return preview(promptText(prompt));
}

export interface GroupRow {
  readonly id: string;
  readonly prompt: string;
  readonly n: number;
  readonly passes: number;
  readonly mean: string;
  readonly std: string;
  readonly flags: readonly string[];
  /** Diversity clusters, or null when the group's texts are not parsed yet. */
  readonly clusters: number | null;
}

/**
 * One row per group from its summary; clusters for the groups whose rollouts are parsed.
 *
 * @param limit rows to prepare (the table shows this many; clustering is per group)
 */
export function prepareGroupRows(
  summaries: readonly GroupSummary[],
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: AnalysisSettings,
  limit = Infinity,
): GroupRow[] {
  return summaries.slice(0, limit).map((s) => {
    const passed = s.rewards.map((r) => r >= settings.passThreshold);
    const flags = groupFlags(s.rewards, passed);
    const finite = statsFinite(s.rewards);
    const group = groups.get(s.id);
    const clusters = group === undefined ? null : groupClusterCount(group, settings);
    return {
      id: s.id,
      prompt:
        s.prompt !== "" ? preview(s.prompt) : promptPreview(group?.rollouts[0]?.prompt ?? null),
      n: s.rewards.length,
      passes: flags.passes,
      mean: fmt(statsMean(finite)),
      std: fmt(finite.length === 0 ? NaN : statsStd(finite, "population")),
      flags: [
        flags.mixed ? "mixed" : null,
        flags.zeroStd ? "zero std" : null,
        s.partial ? "partial" : null,
      ].filter((f): f is string => f !== null),
      clusters,
    };
  });
}

/** Diversity clusters of a parsed group under the settings. */
export function groupClusterCount(group: RolloutGroup, settings: AnalysisSettings): number {
  return ngramCluster(
    group.rollouts.map((r) => rolloutText(r, settings.completionRule)),
    { n: settings.ngram, threshold: settings.similarity },
  ).nClusters;
}

/** Rows with clusters filled in for the groups that are parsed (only the rows about to be shown). */
export function withClusters(
  rows: readonly GroupRow[],
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: AnalysisSettings,
): GroupRow[] {
  return rows.map((r) => {
    const group = groups.get(r.id);
    return group === undefined ? r : { ...r, clusters: groupClusterCount(group, settings) };
  });
}

/** The rows the filters keep: mixed only, zero std only, and a text search over ids and prompts. */
export function filterGroupRows(
  rows: readonly GroupRow[],
  filters: { readonly mixedOnly: boolean; readonly zeroStdOnly: boolean; readonly query: string },
): GroupRow[] {
  const query = filters.query.trim().toLowerCase();
  return rows.filter(
    (r) =>
      (!filters.mixedOnly || r.flags.includes("mixed")) &&
      (!filters.zeroStdOnly || r.flags.includes("zero std")) &&
      (query === "" ||
        r.id.toLowerCase().includes(query) ||
        r.prompt.toLowerCase().includes(query)),
  );
}
