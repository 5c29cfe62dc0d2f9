/**
 * A judge run's ranking feeds GAR only where no person ranked or marked a hack, and the analysis
 * says which source it used.
 */
import { describe, expect, it } from "vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { analyzeGroup, ANALYSIS_DEFAULTS } from "../analysis/analyze.ts";
import type { ResolvedAnnotation } from "../analysis/resolve.ts";
import type { RolloutGroup } from "../types.ts";
import { judgeAccountingEmpty } from "./accounting.ts";
import {
  garAnnotationWithJudge,
  garSourceParse,
  garSourceRunFor,
  judgeRunResolved,
} from "./judgeGar.ts";
import { JUDGE_GROUP_RESULT_EMPTY, type JudgeRun } from "./runs.ts";
import { judgeFailure } from "./types.ts";

const GROUP: RolloutGroup = {
  id: "g",
  rollouts: [1, 0, 1, 1].map((reward, i) => testRollout({ id: `g/${i}`, index: i, reward })),
};

function run(
  source: "llm" | "heuristic",
  result: Partial<typeof JUDGE_GROUP_RESULT_EMPTY>,
): JudgeRun {
  return {
    info: {
      id: "r",
      mode: "gar",
      source,
      model: "m",
      baseUrl: "",
      promptVersion: "v",
      startedAt: "s",
      finishedAt: "f",
      accounting: judgeAccountingEmpty(),
      costUsd: null,
      cancelled: false,
    },
    groups: { g: { ...JUDGE_GROUP_RESULT_EMPTY, ...result } },
  };
}

const HUMAN_LABELS_ONLY: ResolvedAnnotation = {
  ranking: [],
  hacks: [],
  labels: ["pass", null, null, null],
  notes: "n",
};

describe("judge ranking as the GAR source", () => {
  const judged = run("llm", { tiers: [["g/3"], ["g/0"]], hacks: ["g/2"] });

  it("resolves a run's tiers and hacks to indices, labelled judge or heuristic", () => {
    expect(judgeRunResolved(judged, GROUP)).toEqual({
      ranking: [[3], [0]],
      hacks: [2],
      labels: [null, null, null, null],
      notes: "",
      source: "judge",
    });
    expect(judgeRunResolved(run("heuristic", { tiers: [["g/0"]] }), GROUP)?.source).toBe(
      "heuristic",
    );
    expect(judgeRunResolved(run("llm", { error: judgeFailure("timeout", "t") }), GROUP)).toBeNull();
    expect(judgeRunResolved(run("llm", { tiers: [["other/0"]] }), GROUP)).toBeNull();
  });

  it("a human ranking or hack always wins; labels and notes are kept; human-only ignores the judge", () => {
    const human: ResolvedAnnotation = { ...HUMAN_LABELS_ONLY, ranking: [[0], [2, 3]] };
    expect(garAnnotationWithJudge(human, judged, GROUP, "run:j")).toBe(human);
    const mixed = garAnnotationWithJudge(HUMAN_LABELS_ONLY, judged, GROUP, "run:j")!;
    expect(mixed).toMatchObject({
      ranking: [[3], [0]],
      labels: ["pass", null, null, null],
      notes: "n",
      source: "judge",
    });
    expect(garAnnotationWithJudge(HUMAN_LABELS_ONLY, judged, GROUP, "human-only")).toBe(
      HUMAN_LABELS_ONLY,
    );
    expect(garAnnotationWithJudge(undefined, null, GROUP, "run:j")).toBeUndefined();
  });

  it("the analysis computes GAR from the judge's tiers and says so; no human rank appears", () => {
    const a = analyzeGroup(
      GROUP,
      ANALYSIS_DEFAULTS,
      [0, 0, 0, 0],
      garAnnotationWithJudge(undefined, judged, GROUP, "run:j"),
    );
    expect(a.garSource).toBe("judge");
    expect(a.gar.kind).toBe("applied");
    expect(a.rollouts.map((r) => r.factor)).toEqual([0.5, null, null, 1]);
    expect(a.rollouts.every((r) => r.humanRank === null)).toBe(true);
    expect(a.rollouts[2]!.hack).toBe(true);
    const human = analyzeGroup(GROUP, ANALYSIS_DEFAULTS, [0, 0, 0, 0], {
      ...HUMAN_LABELS_ONLY,
      ranking: [[0], [2, 3]],
    });
    expect(human.garSource).toBe("human");
    expect(human.rollouts[0]!.humanRank).toBe(1);
    expect(analyzeGroup(GROUP, ANALYSIS_DEFAULTS, [0, 0, 0, 0]).garSource).toBeNull();
  });

  it("no run is the GAR source until picked by id; a picked run must be a gar run of the group", () => {
    expect(garSourceParse(undefined)).toBe("human-only");
    // The old default, which silently took the latest run, reads back as human only.
    expect(garSourceParse("human-then-judge")).toBe("human-only");
    expect(garSourceParse("run:gar-1")).toBe("run:gar-1");
    const gar = { ...judged, info: { ...judged.info, id: "gar-1" } };
    const other = { ...judged, info: { ...judged.info, id: "rubric-1", mode: "rubric" as const } };
    expect(garSourceRunFor([gar, other], "human-only", GROUP.id)).toBeNull();
    expect(garSourceRunFor([gar, other], "run:gar-1", GROUP.id)).toBe(gar);
    expect(garSourceRunFor([gar, other], "run:gar-1", "elsewhere")).toBeNull();
    expect(garSourceRunFor([gar, other], "run:rubric-1", GROUP.id)).toBeNull();
    expect(garSourceRunFor([gar], "run:gone", GROUP.id)).toBeNull();
  });
});
