/**
 * A judge plan run from the studio: its requests sent through the store's `judgeRequest` (the
 * connection and key in the store), the run stamped with that endpoint and model by io's
 * `judgeRunPlan`, its id unique among the annotations' runs.
 */
import type { JudgePlan, JudgeRun } from "../core/index.ts";
import type { JudgeRunOptions } from "../io/judge/judgeClient.ts";
import { judgeRunPlan } from "../io/judge/judgeRun.ts";
import { useStore } from "./index.ts";

/** Send a plan with the store's current connection (see the module comment). */
export function runJudgePlan<T>(plan: JudgePlan<T>, options: JudgeRunOptions): Promise<JudgeRun> {
  const { judgeConnection, judgeRequest, annotations } = useStore.getState();
  return judgeRunPlan(
    plan,
    judgeRequest,
    {
      model: judgeConnection.model,
      baseUrl: judgeConnection.baseURL,
      existing: annotations.judgeRuns,
    },
    options,
  );
}
