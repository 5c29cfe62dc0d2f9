/**
 * A run's health per step (issue 19): the groups' numbers (./groupHealth.ts) tallied by step, one
 * batch of groups at a time (a file of a run, or a whole loaded dataset), so the CLI streams a
 * large run and the studio computes the same numbers from what it holds. Pure.
 *
 * Diversity is the mean diversity-cluster count per group over a sample of each step's groups:
 * the `clusterSample` groups with the smallest hash of their id (0: every group), the same ones
 * whichever way the run is read (a batch keeps its own smallest, which include the step's).
 */
import type { AnalysisSettings } from "../analysis/analysisSettings.ts";
import type { Annotations } from "../analysis/annotations.ts";
import { rolloutSimilarityInput } from "../analysis/text.ts";
import { calibrationCorrectedRate, type CorrectedRate } from "../calibration/agreement.ts";
import { similarityCluster } from "../ngram/cluster.ts";
import type { HealthSettings } from "../settings/healthSchema.ts";
import type { RolloutGroup } from "../types.ts";
import { randomHash01 } from "../util/random.ts";
import { groupHealth, type GroupHealth, type HackMarks } from "./groupHealth.ts";
import { groupHackLike, hackMarksOf, type HackExemplar } from "./hackSpread.ts";

/** The seed of the diversity sample's hash (any fixed number: the sample must not move). */
export const HEALTH_SAMPLE_SEED = 19;
/** The seed of the hack prevalence's bootstrap. */
export const HEALTH_BOOTSTRAP_SEED = 1919;

/** One step of a run. Shares and means are NaN when their denominator is 0. */
export interface StepHealth {
  readonly step: number | null;
  readonly groups: number;
  readonly rollouts: number;
  readonly passes: number;
  /** passes / rollouts. */
  readonly passRate: number;
  /** Mean of the finite total rewards. */
  readonly meanReward: number;
  readonly zeroStdGroups: number;
  readonly zeroStdShare: number;
  readonly mixedGroups: number;
  readonly mixedShare: number;
  /** Per rollout: text characters, assistant turns, tool calls. */
  readonly meanChars: number;
  readonly meanTurns: number;
  readonly meanToolCalls: number;
  /** Each reward component's mean over the rollouts it applies to. */
  readonly components: Readonly<Record<string, number>>;
  /** Each component's share of the within-group variance of the total (./groupHealth.ts). */
  readonly componentShares: Readonly<Record<string, number>>;
  /** Groups in the diversity sample, and their mean cluster count. */
  readonly clusteredGroups: number;
  readonly clustersPerGroup: number;
  /** Spread-check verdicts of the groups. */
  readonly spread: { readonly yes: number; readonly no: number; readonly na: number };
  /** Rollouts marked as hacks, by who marked them, and their share of the step's rollouts. */
  readonly hacks: HackMarks;
  readonly hackShares: HackMarks;
  /** Rollouts marked or within the similarity threshold of a marked hack; NaN share without marks. */
  readonly hackLike: number;
  readonly hackLikeShare: number;
  /**
   * The share of the step's unjudged rollouts that are hack-like, corrected for the similarity
   * test's errors on the judged ones (Rogan-Gladen with its interval, as calibration computes it);
   * null without judged rollouts of both kinds or without unjudged ones in the step.
   */
  readonly hackCorrected: CorrectedRate | null;
}

export interface RunHealth {
  /** Ascending by step; a step-less batch (one file without steps) is step null, first. */
  readonly steps: readonly StepHealth[];
  /** Every reward component's name, in first-seen order. */
  readonly components: readonly string[];
  /** Marked hacks the hack-like test compared with. */
  readonly exemplars: number;
  /** The judged rollouts over the run: how the hack-like test agreed with people. */
  readonly judged: {
    readonly tp: number;
    readonly fp: number;
    readonly fn: number;
    readonly tn: number;
  };
}

export interface RunHealthContext {
  readonly annotations?: Annotations | null;
  /** The marked hacks (hackExemplarsOf); none: no hack-like series. */
  readonly exemplars?: readonly HackExemplar[];
}

const div = (a: number, b: number): number => (b === 0 ? NaN : a / b);

/** Tallies a run's groups, batch by batch, into its steps' health. */
export class RunHealthTally {
  private readonly health: GroupHealth[] = [];
  /** Per step key: the diversity sample so far, [hash, clusters], at most clusterSample. */
  private readonly samples = new Map<string, [number, number][]>();
  private readonly marks: (groupId: string) => HackMarks;
  private readonly settings: AnalysisSettings;
  private readonly options: Pick<HealthSettings, "clusterSample">;
  private readonly context: RunHealthContext;

  constructor(
    settings: AnalysisSettings,
    options: Pick<HealthSettings, "clusterSample">,
    context: RunHealthContext = {},
  ) {
    this.settings = settings;
    this.options = options;
    this.context = context;
    this.marks = hackMarksOf(context.annotations ?? null);
  }

  /** Tally one batch of groups (a file's, or every group of a dataset), each with its step. */
  addBatch(batch: readonly { readonly group: RolloutGroup; readonly step: number | null }[]): void {
    const k = this.options.clusterSample;
    const byStep = new Map<string, { index: number; hash: number }[]>();
    batch.forEach(({ group, step }, index) => {
      const key = String(step);
      let list = byStep.get(key);
      if (list === undefined) byStep.set(key, (list = []));
      list.push({ index, hash: randomHash01(group.id, HEALTH_SAMPLE_SEED) });
    });
    const clustered = new Map<number, number>();
    for (const [key, list] of byStep) {
      list.sort((a, b) => a.hash - b.hash || a.index - b.index);
      const picked = k === 0 ? list : list.slice(0, k);
      const sample = this.samples.get(key) ?? [];
      // A group whose hash is not below the k-th of the step's sample so far can never enter it
      // (an equal hash sorts after the one kept): it is not clustered. A run streamed a group or a
      // few at a time then clusters about k (1 + ln(groups / k)) groups a step, not every group.
      const bound = k !== 0 && sample.length >= k ? sample[k - 1]![0] : Infinity;
      for (const { index, hash } of picked) {
        if (hash >= bound) break;
        const clusters = this.clusterCount(batch[index]!.group);
        clustered.set(index, clusters);
        sample.push([hash, clusters]);
      }
      sample.sort((a, b) => a[0] - b[0]);
      this.samples.set(key, k === 0 ? sample : sample.slice(0, k));
    }
    const annotations = this.context.annotations ?? null;
    const exemplars = this.context.exemplars ?? [];
    batch.forEach(({ group, step }, index) => {
      const annotation = annotations?.groups[group.id];
      this.health.push(
        groupHealth(group, step, this.settings, {
          annotation,
          clusters: clustered.get(index) ?? null,
          hacks: this.marks(group.id),
          hackLike: groupHackLike(group, exemplars, annotation, this.settings),
        }),
      );
    });
  }

  private clusterCount(group: RolloutGroup): number {
    const s = this.settings;
    if (group.rollouts.length === 0) return 0;
    return similarityCluster(
      group.rollouts.map((r) => rolloutSimilarityInput(r, s.completionRule, s.textChars)),
      { n: s.ngram, threshold: s.similarity, on: s.similarityOn },
    ).nClusters;
  }

  /** Every group's numbers so far, in the order they were added. */
  groups(): readonly GroupHealth[] {
    return this.health;
  }

  /** The run's health: every step's numbers and what the hack-like test was checked against. */
  finish(): RunHealth {
    return runHealthOf(this.health, this.samples, (this.context.exemplars ?? []).length);
  }
}

/** Sum a numeric field of GroupHealth over groups. */
const sumOf = (gs: readonly GroupHealth[], f: (g: GroupHealth) => number): number =>
  gs.reduce((s, g) => s + f(g), 0);

function stepOf(
  step: number | null,
  gs: readonly GroupHealth[],
  sample: readonly [number, number][],
  exemplars: number,
  judged: RunHealth["judged"],
): StepHealth {
  const rollouts = sumOf(gs, (g) => g.n);
  const passes = sumOf(gs, (g) => g.passes);
  const zeroStdGroups = gs.filter((g) => g.zeroStd).length;
  const mixedGroups = gs.filter((g) => g.mixed).length;
  const names: string[] = [];
  for (const g of gs) for (const k in g.components) if (!names.includes(k)) names.push(k);
  const variance = sumOf(gs, (g) => g.variance);
  const components: Record<string, number> = {};
  const componentShares: Record<string, number> = {};
  for (const k of names) {
    components[k] = div(
      sumOf(gs, (g) => g.components[k]?.sum ?? 0),
      sumOf(gs, (g) => g.components[k]?.count ?? 0),
    );
    componentShares[k] =
      variance > 1e-12 ? sumOf(gs, (g) => g.components[k]?.covariance ?? 0) / variance : NaN;
  }
  const hacks: HackMarks = {
    human: sumOf(gs, (g) => g.hacks.human),
    heuristic: sumOf(gs, (g) => g.hacks.heuristic),
    judge: sumOf(gs, (g) => g.hacks.judge),
  };
  const hackLike = sumOf(gs, (g) => g.hackLike.like);
  const unlabelled = sumOf(gs, (g) => g.hackLike.unlabelled);
  const unlabelledLike = sumOf(gs, (g) => g.hackLike.unlabelledLike);
  const judgedBoth = judged.tp + judged.fn > 0 && judged.tn + judged.fp > 0;
  return {
    step,
    groups: gs.length,
    rollouts,
    passes,
    passRate: div(passes, rollouts),
    meanReward: div(
      sumOf(gs, (g) => g.rewardSum),
      sumOf(gs, (g) => g.rewarded),
    ),
    zeroStdGroups,
    zeroStdShare: div(zeroStdGroups, gs.length),
    mixedGroups,
    mixedShare: div(mixedGroups, gs.length),
    meanChars: div(
      sumOf(gs, (g) => g.chars),
      rollouts,
    ),
    meanTurns: div(
      sumOf(gs, (g) => g.turns),
      rollouts,
    ),
    meanToolCalls: div(
      sumOf(gs, (g) => g.toolCalls),
      rollouts,
    ),
    components,
    componentShares,
    clusteredGroups: sample.length,
    clustersPerGroup: div(
      sample.reduce((s, [, c]) => s + c, 0),
      sample.length,
    ),
    spread: {
      yes: gs.filter((g) => g.spread === "yes").length,
      no: gs.filter((g) => g.spread === "no").length,
      na: gs.filter((g) => g.spread === "n/a").length,
    },
    hacks,
    hackShares: {
      human: div(hacks.human, rollouts),
      heuristic: div(hacks.heuristic, rollouts),
      judge: div(hacks.judge, rollouts),
    },
    hackLike,
    hackLikeShare: exemplars === 0 ? NaN : div(hackLike, rollouts),
    hackCorrected:
      exemplars === 0 || !judgedBoth || unlabelled === 0
        ? null
        : calibrationCorrectedRate(
            judgedItems(judged),
            Array.from({ length: unlabelled }, (_, i) => i < unlabelledLike),
            { seed: HEALTH_BOOTSTRAP_SEED },
          ),
  };
}

/** The judged rollouts as calibration's items (prediction: hack-like; truth: a person's mark). */
function judgedItems(j: RunHealth["judged"]): { predicted: boolean; truth: boolean }[] {
  const items: { predicted: boolean; truth: boolean }[] = [];
  const add = (count: number, predicted: boolean, truth: boolean): void => {
    for (let i = 0; i < count; i++) items.push({ predicted, truth });
  };
  add(j.tp, true, true);
  add(j.fn, false, true);
  add(j.fp, true, false);
  add(j.tn, false, false);
  return items;
}

/**
 * The steps of these groups' numbers. `samples` holds each step's diversity sample, by
 * `String(step)`; without it, every group with clusters counts.
 */
export function runHealthOf(
  groups: readonly GroupHealth[],
  samples?: ReadonlyMap<string, readonly [number, number][]>,
  exemplars = 0,
): RunHealth {
  const bySteps = new Map<number | null, GroupHealth[]>();
  const components: string[] = [];
  const seen = new Set<string>();
  const judged = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const g of groups) {
    let list = bySteps.get(g.step);
    if (list === undefined) bySteps.set(g.step, (list = []));
    list.push(g);
    for (const k in g.components)
      if (!seen.has(k)) {
        seen.add(k);
        components.push(k);
      }
    judged.tp += g.hackLike.tp;
    judged.fp += g.hackLike.fp;
    judged.fn += g.hackLike.fn;
    judged.tn += g.hackLike.tn;
  }
  const keys = [...bySteps.keys()].sort((a, b) => (a === null ? -1 : b === null ? 1 : a - b));
  const steps = keys.map((step) => {
    const gs = bySteps.get(step)!;
    const sample =
      samples?.get(String(step)) ??
      gs.filter((g) => g.clusters !== null).map((g): [number, number] => [0, g.clusters!]);
    return stepOf(step, gs, sample, exemplars, judged);
  });
  return { steps, components, exemplars, judged };
}

/**
 * The health of groups already loaded (the studio's dataset, a small run in the CLI), in one
 * batch: the same numbers a batch-by-batch tally of the same groups gives.
 */
export function runHealth(
  groups: readonly { readonly group: RolloutGroup; readonly step: number | null }[],
  settings: AnalysisSettings,
  options: Pick<HealthSettings, "clusterSample">,
  context: RunHealthContext = {},
): RunHealth {
  const tally = new RunHealthTally(settings, options, context);
  tally.addBatch(groups);
  return tally.finish();
}
