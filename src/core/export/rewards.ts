/**
 * Rewards as JSON Lines, one row per rollout: the original reward and the shaped or redistributed
 * reward a trainer should receive instead, with where it came from and the settings used.
 *
 * - mode "advantage" (GAR, methods.md 2.1 to 2.3): `shaped_reward` is A' + mean(effective), which
 *   whileai's `trl_reward` returns, so a trainer that subtracts the group mean recovers equation 3.
 *   TRL with `scale_rewards="none"` computes exactly that (`advantage` below); with "group" or
 *   "batch" it divides by a std and the moved mass changes (methods.md 2.6).
 *   - source "human": the annotations' ranking and hacks, through the same code as the studio and
 *     `analyze` (`analyzeGroup`, hence `garFromHumanRanking`).
 *   - source "judge": a gar judge run's tiers and hacks (`garFromJudge`, whileai semantics: only
 *     mixed groups are graded; an unusable reply falls back to the original rewards).
 * - mode "reward" (GRS, methods.md 2.4; source "judge" only): a rubric run's scores,
 *   `R * max(floor, s) * max(floor, b)` on each scored pass (`grsShape`).
 *
 * `advantage` is TRL's `scale_rewards="none"` advantage of the exported rewards: shaped reward
 * minus the group's mean over the rows that have one (a row without a reward gets 0, as TRL's
 * `nan_to_num`).
 */
import {
  ANALYSIS_DEFAULTS,
  analyzeGroup,
  rolloutReward,
  type AnalysisSettings,
} from "../analysis/analyze.ts";
import type { Annotations } from "../analysis/annotations.ts";
import { annotationsResolve } from "../analysis/resolve.ts";
import type { CompletionRule } from "../analysis/text.ts";
import { garIsMixed, type GarGroupOutcome, type GarGroupStatus } from "../advantage/gar.ts";
import { grpoAdvantages } from "../advantage/grpo.ts";
import { GRS_DEFAULTS, grsShape, type GrsScore } from "../advantage/grs.ts";
import { garFromJudge } from "../judge/group.ts";
import type { JudgeMode, JudgeRun, JudgeSource } from "../judge/runs.ts";
import { clusterComponents } from "../ngram/cluster.ts";
import type { GroupId, RolloutGroup, RolloutId } from "../types.ts";
import {
  ExportError,
  exportIndices,
  exportJudgeRun,
  exportNumber,
  exportPromptCompletion,
  exportRunField,
  type ExportMessage,
  type TranscriptForm,
} from "./text.ts";

/** Whose judgement shapes the rewards: the human annotations, or a judge run. */
export type RewardSource = "human" | "judge";
export const REWARD_SOURCES: readonly RewardSource[] = ["human", "judge"];

/** Where the judgement enters: the advantage (GAR, equation 3) or the reward (GRS, equation 2). */
export type RewardMode = "advantage" | "reward";
export const REWARD_MODES: readonly RewardMode[] = ["advantage", "reward"];

export interface RewardExportOptions {
  readonly source: RewardSource;
  readonly mode: RewardMode;
  /** The judge run to read (source "judge"); null for the newest run of the mode's kind. */
  readonly judgeRunId: string | null;
  /** GRS floor on each score, in [0, 1) (whileai GROUPWISE_FLOOR, 0). */
  readonly floor: number;
}

export const REWARD_EXPORT_DEFAULTS: RewardExportOptions = {
  source: "human",
  mode: "advantage",
  judgeRunId: null,
  floor: GRS_DEFAULTS.floor,
};

/** The judge mode whose runs a reward mode reads: advantage a gar run's tiers, reward a rubric run's scores. */
export function rewardJudgeMode(mode: RewardMode): JudgeMode {
  return mode === "advantage" ? "gar" : "rubric";
}

/**
 * Whether a source can shape the rewards in a mode: reward mode (GRS) reads a rubric run's
 * scores, which the human annotations do not give; advantage mode takes either source.
 */
export function rewardSourceFits(source: RewardSource, mode: RewardMode): boolean {
  return mode !== "reward" || source === "judge";
}

/**
 * What happened to a row's reward.
 *
 * advantage mode: the group's GAR status: "redistributed", "unmixed" (all-pass or all-fail after
 * hack zeroing: nothing moved, hacks still zeroed), "fallback" (the judge failed on the group:
 * original rewards), "incomplete" (the human ranking leaves out a pass: original rewards),
 * "unranked" (no human ranking or hacks: original rewards), "not-judged" (the run has no entry for
 * this mixed group: original rewards).
 *
 * reward mode: the row's GRS status: "scored" (a pass with usable scores), "unscored" (a pass whose
 * score failed or is missing: keeps its reward, counted as a grader failure), "failing" (not a pass:
 * keeps its reward), "fallback" (the judge failed on the group), "not-judged" (no entry).
 */
export type RewardStatus =
  GarGroupStatus | "incomplete" | "unranked" | "not-judged" | "scored" | "unscored" | "failing";

/**
 * The settings a row's numbers depend on, in snake case for Python readers. `completion_rule` is
 * the rule that made the completion texts in the text form, and "messages" in the conversational
 * form (chat transcripts as message lists, where no rule applies).
 */
export type RewardExportSettings =
  | {
      readonly pass_threshold: number;
      readonly cap: number;
      readonly min_factor: number;
      readonly hack_zero: boolean;
      readonly completion_rule: CompletionRule | "messages";
      readonly reward_weights: Readonly<Record<string, number>> | null;
    }
  | {
      readonly pass_threshold: number;
      readonly floor: number;
      readonly completion_rule: CompletionRule | "messages";
      readonly reward_weights: Readonly<Record<string, number>> | null;
    };

export interface RewardExportRow {
  readonly group_id: GroupId;
  readonly rollout_id: RolloutId;
  /** A chat transcript's prompt messages, or the prompt as text (see TranscriptForm). */
  readonly prompt: string | readonly ExportMessage[];
  /** A chat transcript's messages after the prompt, or the completion text. */
  readonly completion: string | readonly ExportMessage[];
  /** The reward under the settings (weights included); null when the rollout has none. */
  readonly reward: number | null;
  readonly passed: boolean;
  /** What the trainer should receive (see the module comment); null when there is none. */
  readonly shaped_reward: number | null;
  /** TRL's advantage of `shaped_reward` under scale_rewards="none": equation 3 in advantage mode. */
  readonly advantage: number;
  readonly status: RewardStatus;
  /** GAR quality factor of a pass that counts; null elsewhere. */
  readonly factor: number | null;
  /** GAR: the rollout's reward was zeroed as a hack. */
  readonly hack_zeroed: boolean;
  /** GRS scores of a scored pass; null elsewhere. */
  readonly solution: number | null;
  readonly behavior: number | null;
  readonly source: RewardSource;
  readonly mode: RewardMode;
  readonly judge_run_id: string | null;
  readonly judge_source: JudgeSource | null;
  readonly judge_prompt_version: string | null;
  /** GRS: the rubric version the group was scored with. */
  readonly rubric_version: number | null;
  readonly settings: RewardExportSettings;
}

export interface RewardExport {
  readonly rows: readonly RewardExportRow[];
  readonly run: JudgeRun | null;
}

interface RowDraft {
  readonly shaped: number;
  readonly status: RewardStatus;
  readonly factor: number | null;
  readonly hackZeroed: boolean;
  readonly score: GrsScore | null;
}

const plain = (rewards: readonly number[], status: RewardStatus): RowDraft[] =>
  rewards.map((r) => ({ shaped: r, status, factor: null, hackZeroed: false, score: null }));

function fromOutcome(outcome: GarGroupOutcome): RowDraft[] {
  const zeroed = new Set(outcome.hacksZeroed);
  return outcome.output.map((shaped, i) => ({
    shaped,
    status: outcome.status,
    factor: outcome.factors.get(i) ?? null,
    hackZeroed: zeroed.has(i),
    score: null,
  }));
}

/** An unscorable reward is not a pass and cannot be redistributed: GAR reads it as 0 (analyze does too). */
const garRewards = (rewards: readonly number[]): number[] =>
  rewards.map((r) => (Number.isNaN(r) ? 0 : r));

/**
 * Build the reward rows, in data order (groups, then rollouts).
 *
 * @throws ExportError for reward mode with the human source, a missing or wrong judge run, or a
 *   judge run that names a rollout the data does not have
 * @throws RangeError when the floor is outside [0, 1)
 */
export function exportRewards(
  groups: readonly RolloutGroup[],
  annotations: Annotations,
  settings: AnalysisSettings = ANALYSIS_DEFAULTS,
  options: RewardExportOptions = REWARD_EXPORT_DEFAULTS,
  transcripts: TranscriptForm = "messages",
): RewardExport {
  if (!rewardSourceFits(options.source, options.mode))
    throw new ExportError(
      "judgeRuns",
      "reward mode (GRS) reads a rubric run's scores: choose the judge source",
    );
  if (!(options.floor >= 0 && options.floor < 1))
    throw new RangeError(`floor must be in [0, 1), got ${options.floor}`);
  const runs = annotations.judgeRuns;
  const wanted = rewardJudgeMode(options.mode);
  const run =
    options.source === "judge"
      ? exportJudgeRun(runs, options.judgeRunId === "newest" ? null : options.judgeRunId, [wanted])
      : null;
  if (options.source === "judge" && run === null)
    throw new ExportError(
      "judgeRuns",
      runs.length === 0
        ? `there is no ${wanted} judge run to read: the annotations hold no judge runs`
        : `there is no ${wanted} judge run to read (only ${runs.length} run(s) of other modes)`,
    );
  const resolved = options.source === "human" ? annotationsResolve(groups, annotations) : null;
  const gar = {
    cap: settings.cap,
    minFactor: settings.minFactor,
    passThreshold: settings.passThreshold,
    hackZero: settings.hackZero,
  };
  const completionRule = transcripts === "messages" ? "messages" : settings.completionRule;
  const rowSettings: RewardExportSettings =
    options.mode === "advantage"
      ? {
          pass_threshold: settings.passThreshold,
          cap: settings.cap,
          min_factor: settings.minFactor,
          hack_zero: settings.hackZero,
          completion_rule: completionRule,
          reward_weights: settings.rewardWeights,
        }
      : {
          pass_threshold: settings.passThreshold,
          floor: options.floor,
          completion_rule: completionRule,
          reward_weights: settings.rewardWeights,
        };

  const drafts = groups.map((group): RowDraft[] => {
    const rewards = group.rollouts.map((r) => rolloutReward(r, settings.rewardWeights));
    if (resolved !== null) {
      // Clusters are not exported: singletons spare analyzeGroup the n-gram work.
      const singletons = clusterComponents(group.rollouts.length, () => false);
      const a = analyzeGroup(group, settings, [], resolved.byGroup.get(group.id), singletons);
      if (a.gar.kind === "applied") return fromOutcome(a.gar.outcome);
      return plain(rewards, a.gar.kind === "incomplete" ? "incomplete" : "unranked");
    }
    const result = Object.hasOwn(run!.groups, group.id) ? run!.groups[group.id]! : null;
    const field = exportRunField(runs, run!, group.id);
    if (options.mode === "advantage") {
      const input = garRewards(rewards);
      // whileai grades mixed groups only; an unmixed or failed group keeps its original rewards.
      if (!garIsMixed(input, settings.passThreshold)) return plain(rewards, "unmixed");
      if (result === null) return plain(rewards, "not-judged");
      if (result.error !== null) return plain(rewards, "fallback");
      const verdict = {
        tiers: result.tiers.map((t, k) => exportIndices(group, t, `${field}.tiers[${k}]`)),
        hacks: exportIndices(group, result.hacks, `${field}.hacks`),
        reason: result.reason,
      };
      // Hacks zeroed until no pass is left give "unmixed" with the zeroed rewards: keep them.
      return fromOutcome(garFromJudge(input, verdict, gar));
    }
    if (result === null) return plain(rewards, "not-judged");
    if (result.error !== null) return plain(rewards, "fallback");
    for (const id of Object.keys(result.scores)) exportIndices(group, [id], `${field}.scores`);
    const scores = group.rollouts.map((r) =>
      Object.hasOwn(result.scores, r.id) ? result.scores[r.id]! : null,
    );
    const shaped = grsShape(rewards, scores, {
      floor: options.floor,
      passThreshold: settings.passThreshold,
    });
    const failed = new Set(shaped.failures);
    return shaped.rewards.map((value, i) => {
      const passed = rewards[i]! >= settings.passThreshold;
      const status: RewardStatus = !passed ? "failing" : failed.has(i) ? "unscored" : "scored";
      return {
        shaped: value,
        status,
        factor: null,
        hackZeroed: false,
        score: status === "scored" ? scores[i]! : null,
      };
    });
  });

  const advantages = grpoAdvantages(
    drafts.map((d) => d.map((row) => row.shaped)),
    { scale: "none", eps: settings.eps, std: settings.std },
  );
  const rows = groups.flatMap((group, g) =>
    group.rollouts.map((r, i): RewardExportRow => {
      const draft = drafts[g]![i]!;
      const reward = rolloutReward(r, settings.rewardWeights);
      const result =
        run !== null && Object.hasOwn(run.groups, group.id) ? run.groups[group.id]! : null;
      return {
        group_id: group.id,
        rollout_id: r.id,
        ...exportPromptCompletion(r, transcripts, settings.completionRule),
        reward: exportNumber(reward),
        passed: reward >= settings.passThreshold,
        shaped_reward: exportNumber(draft.shaped),
        advantage: advantages[g]![i]!,
        status: draft.status,
        factor: draft.factor,
        hack_zeroed: draft.hackZeroed,
        solution: draft.score?.solution ?? null,
        behavior: draft.score?.behavior ?? null,
        source: options.source,
        mode: options.mode,
        judge_run_id: run?.info.id ?? null,
        judge_source: run?.info.source ?? null,
        judge_prompt_version: run?.info.promptVersion ?? null,
        rubric_version: options.mode === "reward" ? (result?.rubricVersion ?? null) : null,
        settings: rowSettings,
      };
    }),
  );
  return { rows, run };
}
