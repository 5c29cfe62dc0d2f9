/**
 * "Draft with judge": one request that shows the judge the task's first group (its prompt and
 * rollouts, marked pass or fail under the settings' threshold) and reads back a rubric with core's
 * strict parser. The request function is injected (the store's `judgeRequest` in the studio, the
 * client itself in tests), so this module never loads the `openai` package.
 */
import {
  buildRubricDraftPrompt,
  parseRubricDraftReply,
  rubricDraftPromptText,
  rubricDraftRolloutText,
  type JudgeAccounting,
  type RolloutGroup,
  type RubricDraft,
} from "../../../../core/index.ts";
import type {
  JudgeProgress,
  JudgeRunOptions,
  JudgeRunResult,
  JudgeTask,
} from "../../../../io/judge/judgeClient.ts";

/** Runs judge tasks (the store's `judgeRequest`). */
export type JudgeRequest = <T>(
  tasks: readonly JudgeTask<T>[],
  options?: JudgeRunOptions,
) => Promise<JudgeRunResult<T>>;

/** The draft request for a task from its first group, under the settings' pass threshold. */
export function rubricDraftTask(
  group: RolloutGroup,
  rewards: readonly number[],
  passThreshold: number,
): JudgeTask<RubricDraft> {
  const items = group.rollouts.map((r, i) => ({
    text: rubricDraftRolloutText(r),
    reward: rewards[i] ?? NaN,
  }));
  return {
    id: group.id,
    prompt: buildRubricDraftPrompt(
      rubricDraftPromptText(group.rollouts[0]?.prompt ?? null),
      items,
      {
        passThreshold,
      },
    ),
    parse: (text) => parseRubricDraftReply(text),
  };
}

export type RubricDraftResult =
  | {
      readonly ok: true;
      readonly draft: RubricDraft;
      readonly templateVersion: string;
      readonly accounting: JudgeAccounting;
      readonly costUsd: number | null;
    }
  | {
      readonly ok: false;
      /** "kind: message", e.g. "invalid_reply: solution is empty". Never holds the key. */
      readonly error: string;
      readonly cancelled: boolean;
      readonly accounting: JudgeAccounting | null;
    };

/** Ask the judge for a draft; every failure (the request or the reply) becomes an error result. */
export async function draftRubric(
  request: JudgeRequest,
  group: RolloutGroup,
  rewards: readonly number[],
  passThreshold: number,
  options: { signal?: AbortSignal; onProgress?: (progress: JudgeProgress) => void } = {},
): Promise<RubricDraftResult> {
  let result: JudgeRunResult<RubricDraft>;
  try {
    result = await request([rubricDraftTask(group, rewards, passThreshold)], options);
  } catch (e) {
    // The client never throws for a request; this is its settings or its module failing to load.
    return {
      ok: false,
      error: `the judge could not start: ${e instanceof Error ? e.message : String(e)}`,
      cancelled: false,
      accounting: null,
    };
  }
  const outcome = result.outcomes[0];
  if (outcome === undefined)
    return {
      ok: false,
      error: "the judge returned no outcome",
      cancelled: false,
      accounting: null,
    };
  if (!outcome.ok)
    return {
      ok: false,
      error: `${outcome.error.kind}: ${outcome.error.message}`,
      cancelled: outcome.error.kind === "cancelled",
      accounting: result.accounting,
    };
  return {
    ok: true,
    draft: outcome.value,
    templateVersion: outcome.templateVersion,
    accounting: result.accounting,
    costUsd: result.costUsd,
  };
}
