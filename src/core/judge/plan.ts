/**
 * From groups to judge requests, and from the judge's outcomes to a `JudgeRun` (runs.ts), for each
 * mode: the group grader (gar), the pairwise judge, the rubric scorer and the diversity clusterer;
 * plus the offline heuristic grader as a run of its own (source "heuristic", mode gar).
 *
 * A plan holds the rendered requests, in order, and knows how to read their outcomes back: group
 * indices become rollout ids, an unusable reply becomes the group's judge error (the group then
 * falls back to its original rewards, methods.md 2.3), and a group the run never finished (it was
 * cancelled) gets no entry. Groups a mode cannot judge (no passes, no rubric, one rollout) are
 * skipped with a reason, never silently.
 *
 * Pure: the requests are sent by the io client (`runJudge`), whose outcomes have the shape of
 * `JudgeTaskOutcome` here.
 *
 * This file holds what every mode shares (options, the plan's shape, a plan's outcomes as a run,
 * the heuristic run); each mode's planner sits beside its prompt (garPlan.ts, pairwisePlan.ts,
 * rubricPlan.ts, clusterPlan.ts), and scope.ts picks the groups a run covers.
 */
import { GAR_DEFAULTS } from "../advantage/gar.ts";
import { rolloutReward } from "../analysis/analyze.ts";
import type { CompletionRule } from "../analysis/text.ts";
import type { GroupId, RolloutGroup } from "../types.ts";
import { judgeAccountingEmpty, type JudgeAccounting } from "./accounting.ts";
import { CLUSTER_TEMPLATE } from "./clusterer.ts";
import { GROUP_GRADER_TEMPLATE } from "./group.ts";
import { heuristicGrade } from "./heuristic.ts";
import { JUDGE_TEXT_MAX_CHARS } from "./judgeText.ts";
import { PAIRWISE_TEMPLATE } from "./pairwise.ts";
import { RUBRIC_TEMPLATE } from "./rubric.ts";
import {
  JUDGE_GROUP_RESULT_EMPTY,
  type JudgeGroupResult,
  type JudgeMode,
  type JudgeRun,
  type JudgeSource,
} from "./runs.ts";
import type { PromptTemplate } from "./template.ts";
import type { JudgeFailure, JudgeParse, JudgePrompt } from "./types.ts";
import { passIndices } from "./planParts.ts";

/** The heuristic grader's name and version, recorded as a run's prompt version. */
export const HEURISTIC_VERSION = "heuristic-v1";

/** The default prompt template of each mode. */
export const JUDGE_TEMPLATES: Readonly<Record<JudgeMode, PromptTemplate>> = {
  gar: GROUP_GRADER_TEMPLATE,
  pairwise: PAIRWISE_TEMPLATE,
  rubric: RUBRIC_TEMPLATE,
  cluster: CLUSTER_TEMPLATE,
};

/** What decides a pass and what the judge reads (the analysis settings' values). */
export interface JudgeBuildOptions {
  readonly passThreshold: number;
  readonly rewardWeights: Readonly<Record<string, number>> | null;
  readonly completionRule: CompletionRule;
  /** Per rollout text and task text, in characters (judgeText.ts). */
  readonly maxChars: number;
}

export const JUDGE_BUILD_DEFAULTS: JudgeBuildOptions = {
  passThreshold: GAR_DEFAULTS.passThreshold,
  rewardWeights: null,
  completionRule: "final-assistant",
  maxChars: JUDGE_TEXT_MAX_CHARS,
};

/** One request: a rendered prompt and its strict parser (the io client's `JudgeTask`). */
export interface JudgeTaskSpec<T> {
  readonly id: string;
  readonly prompt: JudgePrompt;
  readonly parse: (text: string) => JudgeParse<T>;
}

/** What the client reports for one request (a subset of the io client's `JudgeOutcome`). */
export type JudgeTaskOutcome<T> =
  | { readonly id: string; readonly ok: true; readonly value: T }
  | { readonly id: string; readonly ok: false; readonly error: JudgeFailure };

/** A group the mode did not judge, and why. */
export interface JudgeSkip {
  readonly groupId: GroupId;
  readonly reason: string;
}

/** The requests of one run, and how their outcomes become per-group results. */
export interface JudgePlan<T> {
  readonly mode: JudgeMode;
  readonly promptVersion: string;
  /** In request order; `results` reads outcomes in the same order. */
  readonly tasks: readonly JudgeTaskSpec<T>[];
  /** The groups the requests cover, in dataset order. */
  readonly groupIds: readonly GroupId[];
  readonly skipped: readonly JudgeSkip[];
  /**
   * Per-group results from the outcomes (one per task, in task order). A group with a cancelled
   * request has no entry.
   *
   * @throws Error when the outcomes do not match the tasks (a programming error)
   */
  readonly results: (
    outcomes: readonly JudgeTaskOutcome<T>[],
  ) => Readonly<Record<GroupId, JudgeGroupResult>>;
}

/** The group's effective rewards under the options (NaN, no reward, is never a pass). */
export function judgeGroupRewards(group: RolloutGroup, options: JudgeBuildOptions): number[] {
  return group.rollouts.map((r) => rolloutReward(r, options.rewardWeights));
}

/** Who ran it, when, and what it cost: everything of `JudgeRunInfo` a plan does not know. */
export interface JudgeRunMeta {
  readonly id: string;
  readonly source: JudgeSource;
  readonly model: string;
  readonly baseUrl: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly accounting: JudgeAccounting;
  readonly costUsd: number | null;
  readonly cancelled: boolean;
}

/** A run from a plan and its outcomes (one per task, in task order). */
export function judgeRunFromPlan<T>(
  plan: JudgePlan<T>,
  outcomes: readonly JudgeTaskOutcome<T>[],
  meta: JudgeRunMeta,
): JudgeRun {
  return {
    info: { ...meta, mode: plan.mode, promptVersion: plan.promptVersion },
    groups: plan.results(outcomes),
  };
}

/** A run id unique among `runs`: `<mode>-<startedAt>`, with `-2`, `-3`, … when taken. */
export function judgeRunId(mode: JudgeMode, startedAt: string, runs: readonly JudgeRun[]): string {
  const taken = new Set(runs.map((r) => r.info.id));
  const base = `${mode}-${startedAt}`;
  if (!taken.has(base)) return base;
  let k = 2;
  while (taken.has(`${base}-${k}`)) k++;
  return `${base}-${k}`;
}

/**
 * The offline heuristic grader over the groups, as a gar run with source "heuristic" (no requests,
 * no cost). Groups without passes are skipped.
 */
export function judgeHeuristicRun(
  groups: readonly RolloutGroup[],
  options: JudgeBuildOptions,
  meta: { readonly id: string; readonly startedAt: string; readonly finishedAt: string },
): { readonly run: JudgeRun; readonly skipped: readonly JudgeSkip[] } {
  const out: Record<GroupId, JudgeGroupResult> = {};
  const skipped: JudgeSkip[] = [];
  for (const group of groups) {
    const rewards = judgeGroupRewards(group, options);
    if (passIndices(rewards, options.passThreshold).length === 0) {
      skipped.push({ groupId: group.id, reason: "no passes to rank" });
      continue;
    }
    const v = heuristicGrade(
      group.rollouts,
      { passThreshold: options.passThreshold, completionRule: options.completionRule },
      rewards,
    );
    const ids = group.rollouts.map((r) => r.id);
    out[group.id] = {
      ...JUDGE_GROUP_RESULT_EMPTY,
      tiers: v.tiers.map((t) => t.map((i) => ids[i]!)),
      hacks: v.hacks.map((i) => ids[i]!),
      reason: `heuristic: ${v.reason}`,
    };
  }
  return {
    run: {
      info: {
        ...meta,
        mode: "gar",
        source: "heuristic",
        model: "heuristic",
        baseUrl: "",
        promptVersion: HEURISTIC_VERSION,
        accounting: judgeAccountingEmpty(),
        costUsd: null,
        cancelled: false,
      },
      groups: out,
    },
    skipped,
  };
}

/** The groups a run failed on, with the judge's error, in the run's order. */
export function judgeRunErrors(run: JudgeRun): { groupId: GroupId; error: JudgeFailure }[] {
  return Object.entries(run.groups).flatMap(([groupId, g]) =>
    g.error === null ? [] : [{ groupId, error: g.error }],
  );
}
