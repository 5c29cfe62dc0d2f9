/** View model of one group's rollout columns: plain values for the stable test ids, and more. */
import {
  rolloutText,
  type AnalysisSettings,
  type GroupAnalysis,
  type RolloutGroup,
} from "../../../core/index.ts";
import { fixed3, plainNumber } from "../../components/numbers.ts";

const PREVIEW = 120;

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW)}…` : flat;
}

export interface RolloutRow {
  readonly id: string;
  /** Plain values for the stable test ids `metric-*` (scripts read these). */
  readonly plain: {
    readonly reward: string;
    readonly rank: string;
    readonly advantage: string;
    readonly garAdvantage: string;
    readonly cluster: string;
  };
  readonly passed: boolean;
  /** The advantage the trainer logged, or null when the dump has none. */
  readonly trainerAdvantage: string | null;
  /** Cluster size, shown beside the cluster id. */
  readonly clusterSize: number;
  readonly toolCalls: number;
  readonly text: string;
}

export function prepareRolloutRows(
  group: RolloutGroup,
  analysis: GroupAnalysis,
  settings: AnalysisSettings,
): RolloutRow[] {
  return group.rollouts.map((r, i) => {
    const s = analysis.rollouts[i]!;
    return {
      id: r.id,
      plain: {
        reward: plainNumber(s.reward),
        rank: plainNumber(s.rank),
        advantage: plainNumber(s.advantage),
        garAdvantage: plainNumber(s.garAdvantage),
        cluster: String(s.cluster),
      },
      passed: s.passed,
      trainerAdvantage: s.trainerAdvantage === null ? null : fixed3(s.trainerAdvantage),
      clusterSize: s.clusterSize,
      toolCalls: s.toolCalls,
      text: preview(rolloutText(r, settings.completionRule)),
    };
  });
}
