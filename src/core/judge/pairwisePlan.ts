/** The pairwise judge's plan and its flip rate, beside its prompt (pairwise.ts). */
import type { GroupId, RolloutGroup } from "../types.ts";
import { judgeRolloutText, judgeTaskText } from "./judgeText.ts";
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
  JUDGE_GROUP_RESULT_EMPTY,
  type JudgeGroupResult,
  type JudgePairRecord,
  type JudgeRun,
} from "./runs.ts";
import { templateVersion, type PromptTemplate } from "./template.ts";
import type { JudgeFailure } from "./types.ts";
import { passIndices, checkOutcomes, isCancelled, failureText } from "./planParts.ts";
import {
  type JudgeBuildOptions,
  JUDGE_BUILD_DEFAULTS,
  type JudgeTaskSpec,
  type JudgeSkip,
  type JudgePlan,
  judgeGroupRewards,
} from "./plan.ts";

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
