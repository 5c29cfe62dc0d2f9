/**
 * The dataset-wide part of an analysis (summary, GAR statistics, issues), added up a group at a
 * time: `analyzeDataset` and the group-at-a-time stream both use it, so a stream that keeps only
 * the first groups' analyses gives the same summary.
 */
import { GAR_STATS_EMPTY, garStatsAdd, type GarStats } from "../advantage/gar.ts";
import type { GroupId } from "../types.ts";
import { passHatK } from "../util/passk.ts";
import type { DatasetAnalysis, GroupAnalysis } from "./analysisResult.ts";
import type { AnalysisSettings } from "./analysisSettings.ts";
import type { AnnotationProblem, ResolvedAnnotations } from "./resolve.ts";

/** Whether a group's rollouts carry GAR advantages (annotations applied GAR to it). */
export function hasGarValues(g: GroupAnalysis): boolean {
  return g.rollouts.some((r) => r.garAdvantage !== null);
}

/** What {@link DatasetTally} needs of a group: its analysis without its rollouts. */
export interface GroupTallyInput {
  readonly id: GroupId;
  readonly n: number;
  readonly passes: number;
  readonly mixed: boolean;
  readonly zeroStd: boolean;
  readonly textsCut: number;
  readonly gar: GroupAnalysis["gar"];
  readonly issues: GroupAnalysis["issues"];
  /** Rollouts with no finite reward. */
  readonly unscorable: number;
  /** Whether its rollouts carry GAR advantages. */
  readonly garValues: boolean;
}

export function groupTallyInput(a: GroupAnalysis): GroupTallyInput {
  let unscorable = 0;
  for (const r of a.rollouts) if (Number.isNaN(r.reward)) unscorable++;
  return {
    id: a.id,
    n: a.n,
    passes: a.passes,
    mixed: a.mixed,
    zeroStd: a.zeroStd,
    textsCut: a.textsCut,
    gar: a.gar,
    issues: a.issues,
    unscorable,
    garValues: hasGarValues(a),
  };
}

/**
 * The dataset-wide part of an analysis, added up a group at a time: the summary, GAR statistics
 * and issues, so a stream need not keep every group to give them.
 */
export class DatasetTally {
  private readonly annotations: ResolvedAnnotations | undefined;
  private gar: GarStats = GAR_STATS_EMPTY;
  /** Each group's size and passes, for pass^k. */
  private readonly sizes: number[] = [];
  private readonly passCounts: number[] = [];
  private maxK = 0;
  private count = 0;
  private rollouts = 0;
  private passes = 0;
  private mixedGroups = 0;
  private zeroStdGroups = 0;
  private unscorable = 0;
  private garGroups = 0;
  private readonly incompleteRankings: GroupId[] = [];
  private textsCut = 0;
  private readonly groupIssues: AnnotationProblem[] = [];
  private anyGarValues = false;

  constructor(annotations: ResolvedAnnotations | undefined) {
    this.annotations = annotations;
  }

  /** Groups added so far. */
  get groups(): number {
    return this.count;
  }

  /** Whether any group added has GAR advantage values. */
  get garValues(): boolean {
    return this.anyGarValues;
  }

  add(a: GroupTallyInput): void {
    if (a.gar.kind === "applied") this.gar = garStatsAdd(this.gar, a.gar.outcome, a.mixed, true);
    if (a.n > this.maxK) this.maxK = a.n;
    this.sizes.push(a.n);
    this.passCounts.push(a.passes);
    this.count++;
    this.rollouts += a.n;
    this.passes += a.passes;
    if (a.mixed) this.mixedGroups++;
    if (a.zeroStd) this.zeroStdGroups++;
    this.unscorable += a.unscorable;
    if (a.gar.kind === "applied") this.garGroups++;
    if (a.gar.kind === "incomplete") this.incompleteRankings.push(a.id);
    this.textsCut += a.textsCut;
    for (const p of a.issues) this.groupIssues.push(p);
    if (a.garValues) this.anyGarValues = true;
  }

  /** The analysis of every group added, with `groups` as its groups' analyses. */
  analysis(settings: AnalysisSettings, groups: readonly GroupAnalysis[]): DatasetAnalysis {
    const tasks = this.sizes.map((n, g) => ({ n, c: this.passCounts[g]! }));
    const passAtK: Record<string, number> = {};
    for (let k = 1; k <= this.maxK; k++) passAtK[String(k)] = passHatK(tasks, k);
    return {
      settings,
      gar: this.gar,
      groups,
      issues: [...(this.annotations?.warnings ?? []), ...this.groupIssues],
      summary: {
        rollouts: this.rollouts,
        groups: this.count,
        passes: this.passes,
        mixedGroups: this.mixedGroups,
        zeroStdGroups: this.zeroStdGroups,
        passAtK,
        unscorable: this.unscorable,
        garGroups: this.garGroups,
        incompleteRankings: [...this.incompleteRankings],
        textsCut: this.textsCut,
      },
    };
  }
}
