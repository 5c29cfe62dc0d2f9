/**
 * Send a core judge plan's requests and turn the outcomes into a `JudgeRun` stamped with who ran it,
 * when, its accounting and cost. The sender is the io client's `runJudge` with settings bound (the
 * CLI) or the store's `judgeRequest` (the studio), so this module never loads the `openai` package
 * itself. The run records the endpoint's base URL and model, never the key.
 */
import {
  judgeRunFromPlan,
  judgeRunId,
  type JudgePlan,
  type JudgeRun,
  type JudgeSource,
} from "../../core/index.ts";
import type { JudgeRunOptions, JudgeRunResult, JudgeTask } from "./judgeClient.ts";

/** Runs tasks: `runJudge` with its settings bound, or the store's `judgeRequest`. */
export type JudgeSender = <T>(
  tasks: readonly JudgeTask<T>[],
  options?: JudgeRunOptions,
) => Promise<JudgeRunResult<T>>;

export interface JudgePlanRunInfo {
  readonly model: string;
  readonly baseUrl: string;
  readonly source?: JudgeSource;
  /** Runs already in the document, so the new run's id is unique among them. */
  readonly existing: readonly JudgeRun[];
  /** The clock (tests fix it). */
  readonly now?: () => Date;
}

/** Send a plan's requests and build its run (see the module comment). */
export async function judgeRunPlan<T>(
  plan: JudgePlan<T>,
  send: JudgeSender,
  info: JudgePlanRunInfo,
  options: JudgeRunOptions = {},
): Promise<JudgeRun> {
  const now = info.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const result = await send(plan.tasks, options);
  return judgeRunFromPlan(plan, result.outcomes, {
    id: judgeRunId(plan.mode, startedAt, info.existing),
    source: info.source ?? "llm",
    model: info.model,
    baseUrl: info.baseUrl,
    startedAt,
    finishedAt: now().toISOString(),
    accounting: result.accounting,
    costUsd: result.costUsd,
    cancelled: result.cancelled,
  });
}
