/** The group grader's plan (mode gar): one request per group with a pass, beside its prompt (group.ts). */
import type { RolloutGroup } from "../types.ts";
import {
  buildGroupPrompt,
  GROUP_GRADER_TEMPLATE,
  groupPasses,
  parseGroupReply,
  type GroupGraderItem,
  type GroupVerdict,
} from "./group.ts";
import { judgeRolloutText, judgeTaskText } from "./judgeText.ts";
import { JUDGE_GROUP_RESULT_EMPTY } from "./runs.ts";
import { templateVersion, type PromptTemplate } from "./template.ts";
import { resultsPerGroup } from "./planParts.ts";
import {
  type JudgeBuildOptions,
  JUDGE_BUILD_DEFAULTS,
  type JudgeTaskSpec,
  type JudgeSkip,
  type JudgePlan,
  judgeGroupRewards,
} from "./plan.ts";

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
