/**
 * Runs one judge job at a time from the panel: an LLM plan through the store's `judgeRequest`, or the
 * offline heuristic grader; tracks progress and accounting for the live line, cancels through an
 * AbortSignal, and appends the finished (or cancelled) run to the annotations' judge runs.
 */
import { useCallback, useRef, useState } from "react";
import {
  judgeAccountingEmpty,
  type JudgeAccounting,
  type JudgeRun,
  type RolloutGroup,
  judgeHeuristicRun,
  judgeRunId,
  type JudgeBuildOptions,
  type JudgePlan,
  type JudgeSkip,
} from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { runJudgePlan } from "../../../store/judgeRun.ts";

export type RunnerState =
  | { readonly status: "idle" }
  | {
      readonly status: "running";
      readonly label: string;
      readonly done: number;
      readonly total: number;
      readonly accounting: JudgeAccounting;
    }
  | {
      readonly status: "done";
      readonly label: string;
      readonly run: JudgeRun;
      readonly skipped: readonly JudgeSkip[];
    }
  | { readonly status: "error"; readonly label: string; readonly message: string };

/** Stores a run under a fresh id, with what it judged ("spread check", "mixed groups") for its name. */
function append(run: JudgeRun, scope: string): JudgeRun {
  let stored = run;
  useStore.getState().updateAnnotationExtras((current) => {
    stored = {
      ...run,
      info: {
        ...run.info,
        id: judgeRunId(run.info.mode, run.info.startedAt, current.judgeRuns),
        scope,
      },
    };
    return { judgeRuns: [...current.judgeRuns, stored] };
  });
  return stored;
}

export interface JudgeRunner {
  readonly state: RunnerState;
  /**
   * Start an LLM run (ignored while one runs); its end shows in `state`, never as a rejection.
   * `scope` says what it judges, for the run's name ("mixed groups", "spread check").
   */
  readonly start: <T>(label: string, plan: JudgePlan<T>, scope: string) => void;
  readonly runHeuristic: (
    label: string,
    groups: readonly RolloutGroup[],
    options: JudgeBuildOptions,
    scope: string,
  ) => JudgeRun;
  readonly cancel: () => void;
}

export function useJudgeRunner(): JudgeRunner {
  const [state, setState] = useState<RunnerState>({ status: "idle" });
  const controller = useRef<AbortController | null>(null);

  const runPlan = useCallback(async <T>(label: string, plan: JudgePlan<T>, scope: string) => {
    if (controller.current !== null) return null;
    const abort = new AbortController();
    controller.current = abort;
    setState({
      status: "running",
      label,
      done: 0,
      total: plan.tasks.length,
      accounting: judgeAccountingEmpty(),
    });
    try {
      const run = await runJudgePlan(plan, {
        signal: abort.signal,
        onProgress: (p) =>
          setState({
            status: "running",
            label,
            done: p.done,
            total: p.total,
            accounting: p.accounting,
          }),
      });
      const stored = append(run, scope);
      setState({ status: "done", label, run: stored, skipped: plan.skipped });
      return stored;
    } catch (e) {
      setState({ status: "error", label, message: e instanceof Error ? e.message : String(e) });
      return null;
    } finally {
      controller.current = null;
    }
  }, []);

  const runHeuristic = useCallback(
    (label: string, groups: readonly RolloutGroup[], options: JudgeBuildOptions, scope: string) => {
      const startedAt = new Date().toISOString();
      const { run, skipped } = judgeHeuristicRun(groups, options, {
        id: `gar-${startedAt}`,
        startedAt,
        finishedAt: new Date().toISOString(),
      });
      const stored = append(run, scope);
      setState({ status: "done", label, run: stored, skipped });
      return stored;
    },
    [],
  );

  const start = useCallback(
    <T>(label: string, plan: JudgePlan<T>, scope: string): void => {
      runPlan(label, plan, scope).catch((e: unknown) =>
        setState({ status: "error", label, message: e instanceof Error ? e.message : String(e) }),
      );
    },
    [runPlan],
  );
  const cancel = useCallback(() => controller.current?.abort(), []);
  return { state, start, runHeuristic, cancel };
}
