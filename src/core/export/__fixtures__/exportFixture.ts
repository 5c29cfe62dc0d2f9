/**
 * A small dataset and an annotations document that together touch every export rule: a mixed group
 * ranked by a person with a hack, an incomplete ranking, an all-pass group with a hack, an unranked
 * group, a chat transcript, an unscorable rollout; a gar run (with a judge error on one group), a
 * rubric run, a rubric book with two versions, and a calibration state with earlier assignments.
 * Used by the builders' tests and the golden files beside this module.
 */
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
} from "../../analysis/annotations.ts";
import { CALIBRATION_STATE_EMPTY } from "../../calibration/state.ts";
import { judgeAccountingEmpty } from "../../judge/accounting.ts";
import {
  JUDGE_GROUP_RESULT_EMPTY,
  type JudgeGroupResult,
  type JudgeMode,
  type JudgeRun,
} from "../../judge/runs.ts";
import type { RolloutGroup } from "../../types.ts";
import { testMessage, testRollout } from "../../../test/rolloutFixtures.ts";

/** A group of plain completions with these rewards (ids `<group>/<index>`). */
export function fixtureGroup(
  id: string,
  rewards: readonly (number | null)[],
  prompt = `Task ${id}`,
): RolloutGroup {
  return {
    id,
    rollouts: rewards.map((reward, index) =>
      testRollout({
        id: `${id}/${index}`,
        groupId: id,
        index,
        prompt,
        completion: `answer ${index} of ${id}`,
        reward,
      }),
    ),
  };
}

export function fixtureRun(
  id: string,
  mode: JudgeMode,
  groups: Readonly<Record<string, Partial<JudgeGroupResult>>>,
  source: "llm" | "heuristic" = "llm",
): JudgeRun {
  return {
    info: {
      id,
      mode,
      source,
      model: source === "heuristic" ? "heuristic" : "judge-model",
      baseUrl: source === "heuristic" ? "" : "http://127.0.0.1:1/v1",
      promptVersion: `${mode}-v1-0123abcd`,
      startedAt: "2026-12-01T10:00:00.000Z",
      finishedAt: "2026-12-01T10:01:00.000Z",
      accounting: judgeAccountingEmpty(),
      costUsd: null,
      cancelled: false,
    },
    groups: Object.fromEntries(
      Object.entries(groups).map(([g, r]) => [g, { ...JUDGE_GROUP_RESULT_EMPTY, ...r }]),
    ),
  };
}

/** Five groups: mixed, mixed (chat), all-pass, unranked mixed, all-fail with an unscorable row. */
export const FIXTURE_GROUPS: readonly RolloutGroup[] = [
  fixtureGroup("refund-17", [1, 1, 1, 0]),
  {
    id: "refund-22",
    rollouts: [1, 0, 1].map((reward, index) =>
      testRollout({
        id: `refund-22/${index}`,
        groupId: "refund-22",
        index,
        prompt: [
          testMessage("system", "You are a support agent."),
          testMessage("user", "Refund order 22."),
        ],
        completion: null,
        messages: [
          testMessage("assistant", "", {
            toolCalls: [{ id: "c1", name: "lookup", arguments: '{"order":"22"}' }],
          }),
          testMessage("tool", '{"status":"paid"}', { toolCallId: "c1", name: "lookup" }),
          testMessage("assistant", `Refunded order 22, attempt ${index}.`),
          testMessage("user", "thanks"),
        ],
        reward,
      }),
    ),
  },
  fixtureGroup("cancel-3", [1, 1, 1]),
  fixtureGroup("address-9", [0, 1, 0, 1]),
  fixtureGroup("lookup-4", [0, null, 0]),
];

export const FIXTURE_ANNOTATIONS: Annotations = {
  ...ANNOTATIONS_EMPTY,
  annotator: "fixture",
  groups: {
    "refund-17": {
      ...GROUP_ANNOTATION_EMPTY,
      ranking: [["refund-17/2"], ["refund-17/0"]],
      hacks: ["refund-17/1"],
      labels: { "refund-17/0": "pass", "refund-17/1": "fail", "refund-17/3": "fail" },
    },
    "refund-22": {
      ...GROUP_ANNOTATION_EMPTY,
      // Leaves out the pass refund-22/2: incomplete for GAR, still one tier for DPO's hack rule.
      ranking: [["refund-22/0"]],
      labels: { "refund-22/0": "pass", "refund-22/2": "defer" },
    },
    "cancel-3": {
      ...GROUP_ANNOTATION_EMPTY,
      ranking: [["cancel-3/0", "cancel-3/1"]],
      hacks: ["cancel-3/2"],
      labels: { "cancel-3/2": "fail" },
    },
    "lookup-4": { ...GROUP_ANNOTATION_EMPTY, labels: { "lookup-4/0": "fail" } },
  },
  judgeRuns: [
    fixtureRun(
      "gar-1",
      "gar",
      {
        "refund-17": { tiers: [["refund-17/0"], ["refund-17/2", "refund-17/1"]] },
        "refund-22": {
          error: { kind: "invalid_reply", message: "omitted passes 2", status: null },
        },
        "address-9": { tiers: [["address-9/3"]], hacks: ["address-9/1"] },
      },
      "heuristic",
    ),
    fixtureRun("rubric-1", "rubric", {
      "refund-17": {
        scores: {
          "refund-17/0": { solution: 0.5, behavior: 0.8 },
          "refund-17/2": { solution: 1, behavior: 0.5 },
        },
        failed: ["refund-17/1"],
        rubricVersion: 2,
      },
      "address-9": {
        scores: {
          "address-9/1": { solution: 0.25, behavior: 1 },
          "address-9/3": { solution: 1, behavior: 1 },
        },
        rubricVersion: 1,
      },
    }),
  ],
  rubrics: {
    "refund-17": {
      versions: [
        {
          version: 1,
          savedAt: "2026-12-01T09:00:00.000Z",
          author: "judge",
          solution: ["refunds the right order"],
          behavior: ["looks the order up first"],
        },
        {
          version: 2,
          savedAt: "2026-12-01T09:30:00.000Z",
          author: "human",
          solution: ["refunds the right order", "refunds once"],
          behavior: ["looks the order up first", "no invented ids"],
        },
      ],
      labelVersions: { "refund-17/0": 1, "refund-17/1": 2 },
    },
    "zz-not-in-data": {
      versions: [
        {
          version: 1,
          savedAt: "2026-12-01T09:00:00.000Z",
          author: "human",
          solution: ["s"],
          behavior: [],
        },
      ],
      labelVersions: {},
    },
    "address-9": {
      versions: [
        {
          version: 1,
          savedAt: "2026-12-01T09:10:00.000Z",
          author: "human",
          solution: ["changes the address"],
          behavior: ["confirms with the customer"],
        },
      ],
      labelVersions: {},
    },
  },
  calibration: {
    ...CALIBRATION_STATE_EMPTY,
    // Assigned earlier: kept whatever the stratification would say now.
    assignments: { "refund-17/0": "test", "refund-22/2": "dev" },
  },
};
