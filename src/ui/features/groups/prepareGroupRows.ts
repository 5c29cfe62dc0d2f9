/**
 * View models for the group list and one group's rollouts. All decisions (formatting, previews,
 * flags) are made here and tested; the components only render these.
 */
import {
  rolloutText,
  type ChatMessage,
  type DatasetAnalysis,
  type RolloutGroup,
} from "../../../core/index.ts";

const PREVIEW = 120;

const fmt = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : "–");

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW)}…` : flat;
}

/** The prompt as one line: text as is, messages as their last user turn. */
export function promptPreview(prompt: string | readonly ChatMessage[] | null): string {
  if (prompt === null) return "";
  if (typeof prompt === "string") return preview(prompt);
  const users = prompt.filter((m) => m.role === "user" && m.content.trim() !== "");
  return preview(users[users.length - 1]?.content ?? prompt[prompt.length - 1]?.content ?? "");
}

export interface GroupRow {
  readonly id: string;
  readonly prompt: string;
  readonly n: number;
  readonly passes: number;
  readonly mean: string;
  readonly std: string;
  readonly flags: readonly string[];
  readonly clusters: number;
}

export function prepareGroupRows(
  groups: readonly RolloutGroup[],
  analysis: DatasetAnalysis,
): GroupRow[] {
  return groups.map((g, i) => {
    const a = analysis.groups[i]!;
    const flags = [a.mixed ? "mixed" : null, a.zeroStd ? "zero std" : null].filter(
      (f): f is string => f !== null,
    );
    return {
      id: g.id,
      prompt: promptPreview(g.rollouts[0]?.prompt ?? null),
      n: a.n,
      passes: a.passes,
      mean: fmt(a.meanReward),
      std: fmt(a.stdReward),
      flags,
      clusters: a.nClusters,
    };
  });
}

export interface RolloutRow {
  readonly id: string;
  readonly reward: string;
  readonly passed: boolean;
  readonly advantage: string;
  readonly rank: string;
  readonly cluster: string;
  readonly toolCalls: number;
  readonly text: string;
}

export function prepareRolloutRows(group: RolloutGroup, analysis: DatasetAnalysis): RolloutRow[] {
  const a = analysis.groups.find((g) => g.id === group.id);
  if (a === undefined) return [];
  return group.rollouts.map((r, i) => {
    const s = a.rollouts[i]!;
    return {
      id: r.id,
      reward: fmt(s.reward),
      passed: s.passed,
      advantage: fmt(s.advantage),
      rank: fmt(s.rank),
      cluster: `${s.cluster} (×${s.clusterSize})`,
      toolCalls: s.toolCalls,
      text: preview(rolloutText(r, analysis.settings.completionRule)),
    };
  });
}
