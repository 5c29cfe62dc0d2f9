/**
 * An annotations document for the generated demo (scripts/generate-demo.ts) with everything the
 * exports read: human rankings, hacks and labels on a few mixed groups, a heuristic gar run over
 * every mixed group (one group with a judge error), a rubric run, rubrics with two versions and
 * label versions, and calibration assignments made earlier. Built from the groups as loaded, so
 * the CLI round trip (src/cli/export.test.ts) and the e2e spec (e2e/exports.spec.ts) use the same.
 */
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
  type GroupAnnotation,
} from "../../analysis/annotations.ts";
import { rolloutToolCalls } from "../../analysis/text.ts";
import { CALIBRATION_STATE_EMPTY } from "../../calibration/state.ts";
import { judgeAccountingEmpty } from "../../judge/accounting.ts";
import { heuristicGrade } from "../../judge/heuristic.ts";
import type { TaskRubric } from "../../judge/rubricBook.ts";
import {
  JUDGE_GROUP_RESULT_EMPTY,
  type JudgeGroupResult,
  type JudgeRunInfo,
} from "../../judge/runs.ts";
import type { RolloutGroup } from "../../types.ts";

const isPass = (reward: number | null): boolean => reward !== null && reward >= 0.5;

/** The demo's mixed groups (at least two passes and one failure), in data order. */
export function demoMixedGroups(groups: readonly RolloutGroup[]): RolloutGroup[] {
  return groups.filter((g) => {
    const passes = g.rollouts.filter((r) => isPass(r.reward)).length;
    return passes >= 2 && passes < g.rollouts.length;
  });
}

function info(id: string, mode: "gar" | "rubric", source: "llm" | "heuristic"): JudgeRunInfo {
  return {
    id,
    mode,
    source,
    model: source === "heuristic" ? "heuristic" : "stub-judge",
    baseUrl: source === "heuristic" ? "" : "http://127.0.0.1:9/v1",
    promptVersion: source === "heuristic" ? "heuristic-v1" : "grs-v1-5f3a9c21",
    startedAt: "2026-12-01T10:00:00.000Z",
    finishedAt: "2026-12-01T10:02:00.000Z",
    accounting: judgeAccountingEmpty(),
    costUsd: null,
    cancelled: false,
  };
}

/**
 * The document. Rankings: the first three mixed groups, passes ranked in reverse order with the
 * middle ones tied, the heuristic's hacks marked as hacks; labels: the first pass "pass", the first
 * failure "fail", the last pass "defer". The gar run fails on the fourth mixed group. The rubric
 * run scores the passes of the first four mixed groups: solution 1, behavior 1 for at most three
 * tool calls, else 0.5.
 */
export function demoAnnotations(groups: readonly RolloutGroup[]): Annotations {
  const mixed = demoMixedGroups(groups);
  const annotated: Record<string, GroupAnnotation> = {};
  for (const g of mixed.slice(0, 3)) {
    const verdict = heuristicGrade(g.rollouts);
    const hacks = verdict.hacks.map((i) => g.rollouts[i]!.id);
    const passes = g.rollouts
      .filter((r) => isPass(r.reward) && !hacks.includes(r.id))
      .map((r) => r.id);
    const reversed = [...passes].reverse();
    const ranking =
      reversed.length <= 2
        ? reversed.map((id) => [id])
        : [[reversed[0]!], reversed.slice(1, -1), [reversed[reversed.length - 1]!]];
    const fail = g.rollouts.find((r) => !isPass(r.reward))!;
    annotated[g.id] = {
      ...GROUP_ANNOTATION_EMPTY,
      ranking,
      hacks,
      labels: {
        [passes[0]!]: "pass",
        [fail.id]: "fail",
        ...(passes.length >= 2 ? { [passes[passes.length - 1]!]: "defer" as const } : {}),
      },
    };
  }
  const garGroups: Record<string, JudgeGroupResult> = {};
  mixed.forEach((g, k) => {
    if (k === 3) {
      garGroups[g.id] = {
        ...JUDGE_GROUP_RESULT_EMPTY,
        error: { kind: "invalid_reply", message: "omitted passes 1", status: null },
      };
      return;
    }
    const v = heuristicGrade(g.rollouts);
    garGroups[g.id] = {
      ...JUDGE_GROUP_RESULT_EMPTY,
      tiers: v.tiers.map((t) => t.map((i) => g.rollouts[i]!.id)),
      hacks: v.hacks.map((i) => g.rollouts[i]!.id),
      reason: v.reason,
    };
  });
  const rubricGroups: Record<string, JudgeGroupResult> = {};
  for (const g of mixed.slice(0, 4)) {
    const scores: Record<string, { solution: number; behavior: number }> = {};
    for (const r of g.rollouts)
      if (isPass(r.reward))
        scores[r.id] = { solution: 1, behavior: rolloutToolCalls(r) <= 3 ? 1 : 0.5 };
    rubricGroups[g.id] = { ...JUDGE_GROUP_RESULT_EMPTY, scores, rubricVersion: 1 };
  }
  const rubrics: Record<string, TaskRubric> = {};
  for (const [k, g] of mixed.slice(0, 2).entries()) {
    const first = {
      version: 1,
      savedAt: "2026-12-01T09:00:00.000Z",
      author: "judge" as const,
      solution: ["does what the customer asked"],
      behavior: ["reads ids from tools, never guesses them"],
    };
    const second = {
      ...first,
      version: 2,
      savedAt: "2026-12-01T09:30:00.000Z",
      author: "human" as const,
      solution: [...first.solution, "acts only on the customer's own orders"],
    };
    const labelled = Object.keys(annotated[g.id]?.labels ?? {});
    rubrics[g.id] = {
      versions: k === 0 ? [first, second] : [first],
      labelVersions: Object.fromEntries(labelled.map((id, i) => [id, k === 0 && i > 0 ? 2 : 1])),
    };
  }
  const firstLabelled = Object.keys(annotated[mixed[0]!.id]!.labels)[0]!;
  return {
    ...ANNOTATIONS_EMPTY,
    annotator: "demo",
    groups: annotated,
    judgeRuns: [
      { info: info("gar-heuristic-1", "gar", "heuristic"), groups: garGroups },
      { info: info("rubric-1", "rubric", "llm"), groups: rubricGroups },
    ],
    rubrics,
    calibration: { ...CALIBRATION_STATE_EMPTY, assignments: { [firstLabelled]: "test" } },
  };
}
