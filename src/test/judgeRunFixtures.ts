/**
 * A stored judge run for tests: the heuristic grader's info (no endpoint, no cost, nothing
 * cancelled) with the fields a test cares about overridden, and each group's result filled in
 * from JUDGE_GROUP_RESULT_EMPTY.
 */
import {
  JUDGE_GROUP_RESULT_EMPTY,
  judgeAccountingEmpty,
  type JudgeGroupResult,
  type JudgeRun,
  type JudgeRunInfo,
} from "../core/index.ts";

export function testJudgeRun(
  info: Pick<JudgeRunInfo, "id" | "mode"> & Partial<JudgeRunInfo>,
  groups: Readonly<Record<string, Partial<JudgeGroupResult>>>,
): JudgeRun {
  return {
    info: {
      source: "heuristic",
      model: "heuristic",
      baseUrl: "",
      promptVersion: "h1",
      startedAt: "2026-11-29T21:40:00.000Z",
      finishedAt: "2026-11-29T21:41:00.000Z",
      accounting: judgeAccountingEmpty(),
      costUsd: null,
      cancelled: false,
      ...info,
    },
    groups: Object.fromEntries(
      Object.entries(groups).map(([k, v]) => [k, { ...JUDGE_GROUP_RESULT_EMPTY, ...v }]),
    ),
  };
}
