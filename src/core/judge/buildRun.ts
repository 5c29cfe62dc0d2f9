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
 */
import { garFactorsOfKept } from "../advantage/gar.ts";
import {
  spreadCheck,
  SPREAD_DEFAULTS,
  type SpreadOptions,
  type SpreadReport,
} from "../advantage/spread.ts";
import { rolloutReward } from "../analysis/analyze.ts";
import type { CompletionRule } from "../analysis/text.ts";
import type { GroupId, RolloutGroup, RolloutId } from "../types.ts";
import { randomHash01 } from "../util/random.ts";
import { judgeAccountingEmpty, type JudgeAccounting } from "./accounting.ts";
import { buildClusterPrompt, CLUSTER_TEMPLATE, parseClusterReply } from "./clusterer.ts";
import {
  buildGroupPrompt,
  GROUP_GRADER_TEMPLATE,
  groupPasses,
  parseGroupReply,
  type GroupGraderItem,
  type GroupVerdict,
} from "./group.ts";
import { heuristicGrade } from "./heuristic.ts";
import { judgeRolloutText, judgeTaskText, JUDGE_TEXT_MAX_CHARS } from "./judgeText.ts";
import {
  buildPairwisePrompt,
  pairwiseBothOrders,
  pairwiseVerdictOf,
  PAIRWISE_TEMPLATE,
  parsePairwiseReply,
  type FlipRate,
  type PairwiseReply,
} from "./pairwise.ts";
import {
  buildRubricPrompt,
  parseRubricReply,
  RUBRIC_TEMPLATE,
  type RubricScore,
} from "./rubric.ts";
import { rubricCurrent, type RubricBook } from "./rubricBook.ts";
import {
  JUDGE_GROUP_RESULT_EMPTY,
  type JudgeGroupResult,
  type JudgeMode,
  type JudgePairRecord,
  type JudgeRun,
  type JudgeSource,
} from "./runs.ts";
import { templateVersion, type PromptTemplate } from "./template.ts";
import type { ClusterResult } from "../ngram/cluster.ts";
import type { JudgeFailure, JudgeParse, JudgePrompt } from "./types.ts";

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
  passThreshold: 0.5,
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

function passIndices(rewards: readonly number[], threshold: number): number[] {
  return rewards.flatMap((r, i) => (Number.isFinite(r) && r >= threshold ? [i] : []));
}

function checkOutcomes<T>(
  tasks: readonly JudgeTaskSpec<T>[],
  outcomes: readonly JudgeTaskOutcome<T>[],
): void {
  if (outcomes.length !== tasks.length)
    throw new Error(`expected ${tasks.length} judge outcomes, got ${outcomes.length}`);
  for (const [i, o] of outcomes.entries())
    if (o.id !== tasks[i]!.id)
      throw new Error(`judge outcome ${i} is for "${o.id}", not "${tasks[i]!.id}"`);
}

const isCancelled = (o: JudgeTaskOutcome<unknown>): boolean =>
  !o.ok && o.error.kind === "cancelled";

/**
 * The results of a plan with one task per covered group (gar, cluster): a failed request is the
 * group's error, a cancelled one leaves the group out, a reply becomes `result`.
 */
function resultsPerGroup<T>(
  tasks: readonly JudgeTaskSpec<T>[],
  covered: readonly RolloutGroup[],
  outcomes: readonly JudgeTaskOutcome<T>[],
  result: (group: RolloutGroup, value: T) => JudgeGroupResult,
): Record<GroupId, JudgeGroupResult> {
  checkOutcomes(tasks, outcomes);
  const out: Record<GroupId, JudgeGroupResult> = {};
  for (const [i, o] of outcomes.entries()) {
    if (isCancelled(o)) continue;
    const group = covered[i]!;
    out[group.id] = o.ok ? result(group, o.value) : { ...JUDGE_GROUP_RESULT_EMPTY, error: o.error };
  }
  return out;
}

function failureText(error: JudgeFailure): string {
  return `${error.kind}: ${error.message}`;
}

// ---------------------------------------------------------------------------------------------
// gar: the group grader

/**
 * One request per group with at least one pass: the whole group, rollouts numbered by their index
 * and marked pass or fail; the reply's tiers and hacks are mapped to rollout ids.
 */
export function judgePlanGar(
  groups: readonly RolloutGroup[],
  options: JudgeBuildOptions = JUDGE_BUILD_DEFAULTS,
  template: PromptTemplate = GROUP_GRADER_TEMPLATE,
): JudgePlan<GroupVerdict> {
  const tasks: JudgeTaskSpec<GroupVerdict>[] = [];
  const covered: RolloutGroup[] = [];
  const skipped: JudgeSkip[] = [];
  for (const group of groups) {
    const items: GroupGraderItem[] = judgeGroupRewards(group, options).map((reward, i) => ({
      reward: Number.isFinite(reward) ? reward : -Infinity,
      text: judgeRolloutText(group.rollouts[i]!, options.maxChars),
    }));
    if (groupPasses(items, options.passThreshold).length === 0) {
      skipped.push({ groupId: group.id, reason: "no passes to rank" });
      continue;
    }
    covered.push(group);
    tasks.push({
      id: group.id,
      prompt: buildGroupPrompt(judgeTaskText(group, options.maxChars), items, {
        passThreshold: options.passThreshold,
        template,
      }),
      parse: (text) => parseGroupReply(text, items, options.passThreshold),
    });
  }
  return {
    mode: "gar",
    promptVersion: templateVersion(template),
    tasks,
    groupIds: covered.map((g) => g.id),
    skipped,
    results: (outcomes) =>
      resultsPerGroup(tasks, covered, outcomes, (group, verdict) => {
        const ids = group.rollouts.map((r) => r.id);
        return {
          ...JUDGE_GROUP_RESULT_EMPTY,
          tiers: verdict.tiers.map((tier) => tier.map((x) => ids[x]!)),
          hacks: verdict.hacks.map((x) => ids[x]!),
          reason: verdict.reason,
        };
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// pairwise

export interface JudgePairwiseOptions {
  /** Ask each comparison in both orders (position-flip check). */
  readonly bothOrders: boolean;
  /** Compare every rollout of a group, or only its passes. */
  readonly among: "all" | "passes";
}

export const JUDGE_PAIRWISE_DEFAULTS: JudgePairwiseOptions = { bothOrders: false, among: "all" };

interface PairSlot {
  readonly group: number;
  readonly a: number;
  readonly b: number;
  /** Task indices: x shown first, and (both orders) y shown first. */
  readonly forward: number;
  readonly backward: number | null;
}

/** Every pair of a group (or of its passes), one request per order asked. */
export function judgePlanPairwise(
  groups: readonly RolloutGroup[],
  options: JudgeBuildOptions = JUDGE_BUILD_DEFAULTS,
  pairwise: JudgePairwiseOptions = JUDGE_PAIRWISE_DEFAULTS,
  template: PromptTemplate = PAIRWISE_TEMPLATE,
): JudgePlan<PairwiseReply> {
  const tasks: JudgeTaskSpec<PairwiseReply>[] = [];
  const covered: RolloutGroup[] = [];
  const slots: PairSlot[] = [];
  const skipped: JudgeSkip[] = [];
  for (const group of groups) {
    const rewards = judgeGroupRewards(group, options);
    const members =
      pairwise.among === "passes"
        ? passIndices(rewards, options.passThreshold)
        : group.rollouts.map((_, i) => i);
    if (members.length < 2) {
      skipped.push({
        groupId: group.id,
        reason: pairwise.among === "passes" ? "fewer than two passes" : "fewer than two rollouts",
      });
      continue;
    }
    const gi = covered.length;
    covered.push(group);
    const task = judgeTaskText(group, options.maxChars);
    const text = (i: number): string => judgeRolloutText(group.rollouts[i]!, options.maxChars);
    for (let x = 0; x < members.length; x++) {
      for (let y = x + 1; y < members.length; y++) {
        const a = members[x]!;
        const b = members[y]!;
        const key = `${group.id}\u0000${group.rollouts[a]!.id}\u0000${group.rollouts[b]!.id}`;
        const forward = tasks.length;
        tasks.push({
          id: `${key}\u0000ab`,
          prompt: buildPairwisePrompt(task, text(a), text(b), template),
          parse: parsePairwiseReply,
        });
        let backward: number | null = null;
        if (pairwise.bothOrders) {
          backward = tasks.length;
          tasks.push({
            id: `${key}\u0000ba`,
            prompt: buildPairwisePrompt(task, text(b), text(a), template),
            parse: parsePairwiseReply,
          });
        }
        slots.push({ group: gi, a, b, forward, backward });
      }
    }
  }
  return {
    mode: "pairwise",
    promptVersion: templateVersion(template),
    tasks,
    groupIds: covered.map((g) => g.id),
    skipped,
    results: (outcomes) => {
      checkOutcomes(tasks, outcomes);
      const out: Record<GroupId, JudgeGroupResult> = {};
      covered.forEach((group, gi) => {
        const mine = slots.filter((s) => s.group === gi);
        const asked = mine.flatMap((s) =>
          s.backward === null ? [s.forward] : [s.forward, s.backward],
        );
        if (asked.some((t) => isCancelled(outcomes[t]!))) return;
        const failures: JudgeFailure[] = [];
        const pairs: JudgePairRecord[] = mine.map((s) => {
          const ids = { a: group.rollouts[s.a]!.id, b: group.rollouts[s.b]!.id };
          const f = outcomes[s.forward]!;
          const b = s.backward === null ? null : outcomes[s.backward]!;
          for (const o of [f, b]) if (o !== null && !o.ok) failures.push(o.error);
          if (!f.ok) return { ...ids, winner: null, flipped: null };
          if (b === null)
            return { ...ids, winner: pairwiseVerdictOf(f.value, false), flipped: null };
          if (!b.ok) return { ...ids, winner: null, flipped: null };
          const both = pairwiseBothOrders(f.value, b.value);
          return { ...ids, winner: both.verdict, flipped: both.flipped };
        });
        const decided = pairs.filter((p) => p.winner !== null).length;
        const flips = pairs.filter((p) => p.flipped === true).length;
        const summary =
          `${decided} of ${pairs.length} comparison${pairs.length === 1 ? "" : "s"} decided` +
          (pwBoth(mine) ? `, ${flips} position flip${flips === 1 ? "" : "s"}` : "") +
          (failures.length > 0
            ? `; ${failures.length} request${failures.length === 1 ? "" : "s"} failed (${failureText(failures[0]!)})`
            : "");
        out[group.id] = {
          ...JUDGE_GROUP_RESULT_EMPTY,
          error: decided === 0 && failures.length > 0 ? failures[0]! : null,
          pairs,
          reason: summary,
        };
      });
      return out;
    },
  };
}

const pwBoth = (slots: readonly PairSlot[]): boolean => slots.some((s) => s.backward !== null);

/** The position-flip rate of a pairwise run over its pairs judged in both orders. */
export function judgeRunFlipRate(run: JudgeRun): FlipRate {
  const judged = Object.values(run.groups).flatMap((g) =>
    g.pairs.filter((p) => p.flipped !== null),
  );
  const flips = judged.filter((p) => p.flipped === true).length;
  return { pairs: judged.length, flips, rate: judged.length === 0 ? null : flips / judged.length };
}

// ---------------------------------------------------------------------------------------------
// rubric

/**
 * One request per passing rollout, with its task's current rubric. A task without a rubric, or a
 * group without passes, is skipped with the reason.
 */
export function judgePlanRubric(
  groups: readonly RolloutGroup[],
  book: RubricBook,
  options: JudgeBuildOptions = JUDGE_BUILD_DEFAULTS,
  template: PromptTemplate = RUBRIC_TEMPLATE,
): JudgePlan<RubricScore> {
  const tasks: JudgeTaskSpec<RubricScore>[] = [];
  const covered: { group: RolloutGroup; version: number; first: number; passes: number[] }[] = [];
  const skipped: JudgeSkip[] = [];
  for (const group of groups) {
    const rubric = rubricCurrent(book, group.id);
    if (rubric === null) {
      skipped.push({ groupId: group.id, reason: "the task has no rubric" });
      continue;
    }
    const passes = passIndices(judgeGroupRewards(group, options), options.passThreshold);
    if (passes.length === 0) {
      skipped.push({ groupId: group.id, reason: "no passes to score" });
      continue;
    }
    const task = judgeTaskText(group, options.maxChars);
    covered.push({ group, version: rubric.version, first: tasks.length, passes });
    for (const i of passes) {
      tasks.push({
        id: `${group.id}\u0000${group.rollouts[i]!.id}`,
        prompt: buildRubricPrompt(
          task,
          rubric,
          judgeRolloutText(group.rollouts[i]!, options.maxChars),
          template,
        ),
        parse: parseRubricReply,
      });
    }
  }
  return {
    mode: "rubric",
    promptVersion: templateVersion(template),
    tasks,
    groupIds: covered.map((c) => c.group.id),
    skipped,
    results: (outcomes) => {
      checkOutcomes(tasks, outcomes);
      const out: Record<GroupId, JudgeGroupResult> = {};
      for (const c of covered) {
        const mine = c.passes.map((i, k) => ({
          id: c.group.rollouts[i]!.id,
          o: outcomes[c.first + k]!,
        }));
        if (mine.some((m) => isCancelled(m.o))) continue;
        const scores: Record<RolloutId, { solution: number; behavior: number }> = {};
        const failed: RolloutId[] = [];
        const failures: JudgeFailure[] = [];
        const reasons: string[] = [];
        for (const { id, o } of mine) {
          if (o.ok) {
            scores[id] = { solution: o.value.solution, behavior: o.value.behavior };
            if (o.value.reason !== null) reasons.push(`${id}: ${o.value.reason}`);
          } else {
            failed.push(id);
            failures.push(o.error);
            reasons.push(`${id}: ${failureText(o.error)}`);
          }
        }
        out[c.group.id] = {
          ...JUDGE_GROUP_RESULT_EMPTY,
          error: failed.length === mine.length ? failures[0]! : null,
          scores,
          failed,
          rubricVersion: c.version,
          reason: reasons.length === 0 ? null : reasons.join("\n"),
        };
      }
      return out;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// cluster

/** One request per group of two or more rollouts; every rollout gets the judge's cluster id. */
export function judgePlanCluster(
  groups: readonly RolloutGroup[],
  options: JudgeBuildOptions = JUDGE_BUILD_DEFAULTS,
  template: PromptTemplate = CLUSTER_TEMPLATE,
): JudgePlan<ClusterResult> {
  const tasks: JudgeTaskSpec<ClusterResult>[] = [];
  const covered: RolloutGroup[] = [];
  const skipped: JudgeSkip[] = [];
  for (const group of groups) {
    const n = group.rollouts.length;
    if (n < 2) {
      skipped.push({ groupId: group.id, reason: "fewer than two rollouts" });
      continue;
    }
    covered.push(group);
    tasks.push({
      id: group.id,
      prompt: buildClusterPrompt(
        group.rollouts.map((r) => judgeRolloutText(r, options.maxChars)),
        judgeTaskText(group, options.maxChars),
        template,
      ),
      parse: (text) => parseClusterReply(text, n),
    });
  }
  return {
    mode: "cluster",
    promptVersion: templateVersion(template),
    tasks,
    groupIds: covered.map((g) => g.id),
    skipped,
    results: (outcomes) =>
      resultsPerGroup(tasks, covered, outcomes, (group, reply) => {
        const clusters: Record<RolloutId, string> = {};
        const named = new Map<string, string>();
        group.rollouts.forEach((r, k) => {
          const cid = reply.clusterIds[k]!;
          clusters[r.id] = cid;
          const label = reply.labels[k] ?? "";
          if (label !== "" && !named.has(cid)) named.set(cid, label);
        });
        return {
          ...JUDGE_GROUP_RESULT_EMPTY,
          clusters,
          reason:
            `${reply.nClusters} cluster${reply.nClusters === 1 ? "" : "s"}` +
            (named.size === 0 ? "" : `: ${[...named].map(([c, l]) => `${c} = ${l}`).join("; ")}`),
        };
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// runs

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

// ---------------------------------------------------------------------------------------------
// scope, sample and spread

/** Which groups a run judges. */
export type JudgeScope = "mixed" | "all" | "selected" | "spread";

/** A run's scope as its name says it (`JudgeRunInfo.scope`): the seeded spread-check sample. */
export const JUDGE_SCOPE_SPREAD_CHECK = "spread check";

/** A scope in words, for a run's name: "mixed groups", "all groups", … */
export function judgeScopeName(scope: JudgeScope): string {
  switch (scope) {
    case "mixed":
      return "mixed groups";
    case "all":
      return "all groups";
    case "selected":
      return "selected group";
    case "spread":
      return "spread-eligible groups";
  }
}

/** Groups with at least two passes (all-pass included): what the spread check grades (methods.md 2.5). */
export function judgeSpreadEligible(
  groups: readonly RolloutGroup[],
  options: JudgeBuildOptions = JUDGE_BUILD_DEFAULTS,
): RolloutGroup[] {
  return groups.filter(
    (g) => passIndices(judgeGroupRewards(g, options), options.passThreshold).length >= 2,
  );
}

/**
 * A seeded sample of `size` groups, in dataset order: each group is drawn by a hash of its id and
 * the seed, so the same seed draws the same groups whatever the file's order.
 */
export function judgeSample(
  groups: readonly RolloutGroup[],
  size: number,
  seed: number,
): RolloutGroup[] {
  if (size >= groups.length) return [...groups];
  const chosen = new Set(
    [...groups]
      .map((g) => ({ id: g.id, key: randomHash01(g.id, seed) }))
      .sort((a, b) => a.key - b.key || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, Math.max(0, size))
      .map((g) => g.id),
  );
  return groups.filter((g) => chosen.has(g.id));
}

/** The groups of a scope: mixed (pass and fail), all, the selected one, or spread-eligible. */
export function judgeScopeGroups(
  groups: readonly RolloutGroup[],
  scope: JudgeScope,
  options: JudgeBuildOptions = JUDGE_BUILD_DEFAULTS,
  selected: GroupId | null = null,
): RolloutGroup[] {
  switch (scope) {
    case "all":
      return [...groups];
    case "selected":
      return groups.filter((g) => g.id === selected);
    case "spread":
      return judgeSpreadEligible(groups, options);
    case "mixed":
      return groups.filter((g) => {
        const passes = passIndices(judgeGroupRewards(g, options), options.passThreshold).length;
        return passes > 0 && passes < g.rollouts.length;
      });
  }
}

/**
 * The spread check (methods.md 2.5) of a finished gar or rubric run, over its groups with at least
 * two passes: the GAR factors (min factor `minFactor`) of the non-hack passes, or the s·b products
 * of the scored passes. Null for pairwise and cluster runs, which give no grader scores.
 */
export function judgeRunSpread(
  run: JudgeRun,
  minFactor: number,
  options: SpreadOptions = SPREAD_DEFAULTS,
): SpreadReport | null {
  const scores: number[] = [];
  let groups = 0;
  for (const g of Object.values(run.groups)) {
    if (g.error !== null) continue;
    if (run.info.mode === "gar") {
      if (g.tiers.flat().length + g.hacks.length < 2) continue;
      const factors = garFactorsOfKept(g.tiers, minFactor);
      if (factors.length > 0) groups++;
      scores.push(...factors);
    } else if (run.info.mode === "rubric") {
      const scored = Object.values(g.scores);
      if (scored.length + g.failed.length < 2) continue;
      if (scored.length > 0) groups++;
      scores.push(...scored.map((s) => s.solution * s.behavior));
    } else return null;
  }
  return spreadCheck(scores, groups, options);
}
