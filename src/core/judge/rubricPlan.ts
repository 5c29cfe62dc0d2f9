/** The rubric scorer's plan, beside its prompt (rubric.ts). */
import type { GroupId, RolloutGroup, RolloutId } from "../types.ts";
import { judgeRolloutText, judgeTaskText } from "./judgeText.ts";
import {
  buildRubricPrompt,
  parseRubricReply,
  RUBRIC_TEMPLATE,
  type RubricScore,
} from "./rubric.ts";
import { rubricCurrent, type RubricBook } from "./rubricBook.ts";
import { JUDGE_GROUP_RESULT_EMPTY, type JudgeGroupResult } from "./runs.ts";
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
